import Foundation
import Testing

@testable import PixelBoopCore

// MARK: - The NotePlayer

@Suite("SineWaveNotePlayer (offline)")
struct SineWaveNotePlayerTests {
    @Test("is a NotePlayer; notes played in turn abut at exact frames and keep their pitch")
    func playInTurn() async throws {
        let player: any NotePlayer = try SineWaveNotePlayer.offline(sampleRate: 48000)
        try await player.play(frequency: 440, duration: 0.25)
        try await player.play(frequency: Pitch.frequency(midi: 69, cents: 3), duration: 0.25)
        try await player.stop()
        let x = (player as! SineWaveNotePlayer).renderedSamples
        #expect(x.count == 24000)
        #expect(x[0] == 0 && x[1] != 0)
        #expect(x[12000] == 0 && x[12001] != 0)
        #expect(x.allSatisfy { abs($0) <= 0.30001 })
        let a = fittedFrequency(x, rate: 48000, range: 960..<11040, guess: 440)
        let b = fittedFrequency(x, rate: 48000, range: 12960..<23040, guess: 440.76)
        #expect(abs(cents(a, 440)) < 0.01)
        #expect(abs(cents(b, a) - 3) < 0.01)
    }

    @Test("invalid frequencies and durations throw before anything sounds")
    func invalid() async throws {
        let player = try SineWaveNotePlayer.offline()
        for bad in [25000, 5, 0, -1, Double.nan, Double.infinity] {
            await #expect(throws: AudioError.self) { try await player.play(frequency: bad, duration: 0.1) }
        }
        await #expect(throws: AudioError.self) { try await player.play(frequency: 440, duration: 0) }
        await #expect(throws: AudioError.self) { try await player.play(frequency: 440, duration: -1) }
        #expect(player.renderedSamples.isEmpty)
        do {
            try await player.play(frequency: 25000, duration: 1)
        } catch let error as AudioError {
            #expect(error == .invalidFrequency("25000 Hz: expected a finite frequency within 20...20000 Hz"))
        }
    }

    @Test("rest inserts silence; the time base continues across takeRenderedSamples")
    func rest() async throws {
        let player = try SineWaveNotePlayer.offline()
        try await player.play(frequency: 440, duration: 0.1)
        try player.rest(seconds: 0.05)
        let first = player.takeRenderedSamples()
        #expect(first.count == 6615)
        #expect(first[4411...].allSatisfy { $0 == 0 })
        try await player.play(frequency: 440, duration: 0.1)
        #expect(player.renderedSamples.count == 4410)
    }

    @Test("a live player on a device that does not exist is deviceUnavailable")
    func missingDevice() {
        #expect {
            _ = try SineWaveNotePlayer.live(device: "no-such-device-xyz")
        } throws: { error in
            guard let error = error as? AudioError, case .deviceUnavailable = error else { return false }
            return true
        }
    }
}

// MARK: - Live (needs the private PulseAudio null sink: eval "$(scripts/pulse-null-sink.sh start)")

@Suite(
    "SineWaveNotePlayer (live, PulseAudio null sink)",
    .enabled(if: ProcessInfo.processInfo.environment["BOOP_PULSE_SINK"] != nil))
struct LiveSineWaveNotePlayerTests {
    @Test("play returns after the note; notes in turn do not overlap; stop makes a pending play return")
    func liveInTurn() async throws {
        let player = try SineWaveNotePlayer.live(device: "pulse")
        defer { player.close(drain: false) }
        let before = player.engineFrameClock
        try await player.play(frequency: 440, duration: 0.2)
        let first = try #require(player.lastNoteFrames)
        #expect(player.engineFrameClock >= first.end)   // returned after the note, not before
        try await player.play(frequency: 660, duration: 0.2)
        let second = try #require(player.lastNoteFrames)
        // Within one period (plus the control thread's reading) of the call: the next block.
        #expect(first.onset - before <= 1024)
        #expect(first.end - first.onset == 8820)
        #expect(second.onset >= first.end)   // in turn: no overlap
        #expect(player.engineFrameClock >= second.end)   // returned after it (timings: bench/)

        let long = Task { try await player.play(frequency: 440, duration: 5) }
        try await Task.sleep(nanoseconds: 200_000_000)
        try await player.stop()
        try await long.value   // returns on stop (it would hang for the rest of 5 s otherwise)

        let cancelled = Task { try await player.play(frequency: 440, duration: 5) }
        try await Task.sleep(nanoseconds: 100_000_000)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(player.playbackStats?.error == nil)
    }
}
