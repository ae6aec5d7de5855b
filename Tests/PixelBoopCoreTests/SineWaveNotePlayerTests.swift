import Foundation
import Testing

@testable import PixelBoopCore

// MARK: - The NotePlayer

@Suite("SineWaveNotePlayer")
struct SineWaveNotePlayerTests {
    // What the tones sound like, their frames and pitch, is tested on ToneRenderer
    // (ToneSequenceTests), which sends the same events through the same scheduler.

    @Test("invalid frequencies and durations are refused before anything sounds")
    func invalid() {
        for bad in [25000, 5, 0, -1, Double.nan, Double.infinity] {
            #expect(throws: AudioError.self) { try SineWaveNotePlayer.validate(frequency: bad, duration: 0.1, sampleRate: 44100) }
        }
        for bad in [0, -1, Double.nan, Limits.toneSeconds.upperBound + 1] {
            #expect(throws: AudioError.self) { try SineWaveNotePlayer.validate(frequency: 440, duration: bad, sampleRate: 44100) }
        }
        #expect(throws: AudioError.invalidFrequency("25000 Hz: expected a finite frequency within 20...20000 Hz")) {
            try SineWaveNotePlayer.validate(frequency: 25000, duration: 1, sampleRate: 48000)
        }
        #expect(throws: AudioError.self) { try SineWaveNotePlayer.validate(frequency: 5000, duration: 1, sampleRate: 8000) }
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
        #expect(player.playbackStats.error == nil)
    }
}
