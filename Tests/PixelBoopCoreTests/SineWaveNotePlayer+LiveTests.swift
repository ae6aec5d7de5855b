import Foundation
import Testing

@testable import PixelBoopCore

/// The blocking play of a whole sequence on ALSA's null device (no sound card; the playback
/// thread paces the engine by the system clock): each tone announced in turn, the call returning
/// once the last has been rendered, or at once when the caller's wait says stop.
@Suite("SineWaveNotePlayer+Live: a sequence played at its frames")
struct SineWaveNotePlayerLiveTests {
    static func player() throws -> SineWaveNotePlayer { try SineWaveNotePlayer.live(device: "null", sampleRate: 48000) }

    static func sequence(gap: Double = 0.02) throws -> ToneSequence {
        try ToneSequence(frequencies: [440, 550, 660], duration: 0.05, gap: gap, sampleRate: 48000)
    }

    @Test("every tone is announced in order and the call returns once the last one has been rendered")
    func playsWhole() throws {
        let player = try Self.player()
        defer { player.close(drain: false) }
        let sequence = try Self.sequence()
        let before = player.engineFrameClock
        var announced: [Int] = []
        var clocks: [UInt64] = []
        let heard = try player.play(
            sequence,
            onTone: { k in
                announced.append(k)
                clocks.append(player.engineFrameClock)
            })
        #expect(heard)
        #expect(announced == [0, 1, 2])
        // Announced no earlier than the lookahead before its onset, counted from where it started.
        let base = player.locked { player.lastEnd } - sequence.endFrame
        #expect(base >= before)
        for (k, clock) in zip(announced, clocks) {
            #expect(clock + player.lookaheadFrames > base + sequence.onsetFrame(k))
        }
        #expect(player.engineFrameClock >= base + sequence.endFrame)
        #expect(player.locked { player.pending.isEmpty })
        #expect(player.engine.droppedEvents == 0)
    }

    @Test("a second sequence starts where the first one ended, never over it")
    func inTurn() throws {
        let player = try Self.player()
        defer { player.close(drain: false) }
        let sequence = try Self.sequence()
        #expect(try player.play(sequence))
        let firstEnd = player.locked { player.lastEnd }
        #expect(try player.play(sequence))
        let secondBase = player.locked { player.lastEnd } - sequence.endFrame
        #expect(secondBase >= firstEnd)
    }

    @Test("a wait that says stop before the first tone: nothing is queued and play answers false")
    func stoppedBeforehand() throws {
        let player = try Self.player()
        defer { player.close(drain: false) }
        var waits: [Double] = []
        let heard = try player.play(
            try Self.sequence(),
            waiting: { seconds in
                waits.append(seconds)
                return true
            })
        #expect(!heard && waits == [0])
        #expect(player.locked { player.pending.isEmpty && player.lastEnd == 0 })
    }

    @Test("a wait that says stop after the second tone's announcement fades out and answers false")
    func stoppedMidway() throws {
        let player = try Self.player()
        defer { player.close(drain: false) }
        var announced: [Int] = []
        let generation = player.locked { player.generation }
        // Tones 0.2 s apart: the third is far from due when the second is announced.
        let heard = try player.play(
            try Self.sequence(gap: 0.15),
            waiting: { seconds in
                if announced.count < 2 { Thread.sleep(forTimeInterval: min(seconds, 0.005)) }
                return announced.count >= 2
            },
            onTone: { announced.append($0) })
        #expect(!heard)
        #expect(announced == [0, 1])
        // The third tone was dropped with everything pending; the next play starts after the fade.
        #expect(player.locked { player.pending.isEmpty && player.generation == generation + 1 })
        #expect(Self.eventually { player.engine.activeVoices == 0 })
    }

    @Test("a sequence at another rate, or on a closed player, is refused before anything sounds")
    func refused() throws {
        let player = try Self.player()
        let other = try ToneSequence(frequencies: [440], duration: 0.05, sampleRate: 44100)
        #expect(throws: AudioError.self) { try player.play(other) }
        #expect(player.locked { player.pending.isEmpty && player.lastEnd == 0 })
        player.close(drain: false)
        #expect(throws: AudioError.deviceLost("the player was closed")) { try player.play(try Self.sequence()) }
    }

    /// Waits for `condition` (a limit for a loaded machine, not a delay).
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { usleep(1000) }
        return condition()
    }
}
