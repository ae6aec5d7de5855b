import Foundation
import Testing

@testable import PixelBoopCore

/// `--no-sound` on ALSA: no PCM is opened (the device named does not even exist); a timer runs the
/// engine's clock at the rate asked, so the music takes its own time, as the sequencer's MIDI
/// stamps (on the same frame line) do. The time is judged in the timer's frames: its heard frame
/// is CLOCK_MONOTONIC's reading on that line (TimerPlaybackTests hold its thread to the line).
@Suite("Playback with no sound device")
struct AudioPlaybackTests {
    @Test("a pattern plays in its own time on the timer, no device opened")
    func playsInTime() throws {
        // 8 steps at 240 BPM: 8 x 60 / (240 x 4) = 0.5 s.
        let pattern = Song(
            name: "T", bpm: 240, length: 8, tracks: [.melody: (0..<8).map { SongNote(step: $0, pitch: 60 + $0) }])
        var route = AudioRoute(device: "hw:99,99")
        route.mute = true
        let t = try PatternTransport(
            song: Song(version1: pattern), route: route, sampleRate: 48000, periodFrames: 256, periods: 3, loops: 1)
        #expect(t.device == "none (a timer, no sound)")
        #expect(t.sampleRate == 48000)
        try t.start()
        let deadline = Date().addingTimeInterval(60)   // a limit for a loaded machine, not a delay
        while t.state == .playing && Date() < deadline {
            try t.tick()
            usleep(UInt32(t.secondsUntilDue() * 1_000_000))
        }
        #expect(t.state == .finished)
        // Finished only once the timer's heard frame passed the end of the last step, 0.5 s
        // (24000 frames) after the first: never sooner.
        #expect(t.audibleFrame >= t.startFrame + 24000)
        let stats = try t.stop()
        #expect(stats.error == nil)
        #expect(t.droppedEvents == 0)
    }
}
