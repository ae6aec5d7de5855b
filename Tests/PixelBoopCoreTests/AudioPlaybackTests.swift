import Foundation
import Testing

@testable import PixelBoopCore

/// `--no-sound` on ALSA: no PCM is opened (the device named does not even exist); a timer runs the
/// engine's clock at the rate asked, so the music takes its own time by the wall clock, as the
/// sequencer's MIDI stamps (on the same frame line) do.
@Suite("Playback with no sound device")
struct AudioPlaybackTests {
    @Test("a pattern plays in its own time on the timer, no device opened")
    func playsInTime() throws {
        // 8 steps at 240 BPM: 8 x 60 / (240 x 4) = 0.5 s.
        let pattern = Pattern(
            name: "T", bpm: 240, length: 8, tracks: [.melody: (0..<8).map { Note(step: $0, pitch: 60 + $0) }])
        var route = AudioRoute(device: "hw:99,99")
        route.mute = true
        let t = try PatternTransport(
            pattern: pattern, route: route, sampleRate: 48000, periodFrames: 256, periods: 3, loops: 1)
        #expect(t.device == "none (a timer, no sound)")
        #expect(t.sampleRate == 48000)
        let began = Date()
        try t.start()
        let deadline = Date().addingTimeInterval(60)   // a limit for a loaded machine, not a delay
        while t.state == .playing && Date() < deadline {
            try t.tick()
            usleep(UInt32(t.secondsUntilDue() * 1_000_000))
        }
        let elapsed = Date().timeIntervalSince(began)
        #expect(t.state == .finished)
        // The last step heard 0.02 s (the start's margin) + 0.5 s after the start: never sooner.
        #expect(elapsed >= 0.5)
        #expect(t.audibleFrame >= t.startFrame + 24000)
        let stats = try t.stop()
        #expect(stats.error == nil)
        #expect(t.droppedEvents == 0)
    }
}
