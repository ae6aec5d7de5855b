import Foundation
import Testing

@testable import PixelBoopCore

/// The keyboard's own sound (`edit --backend jack --midi`) is JACK's: on ALSA's null device (no
/// sound card) the keys do not sound by themselves, so the editor auditions them, and nothing is
/// given to the playback.
@Suite("PatternTransport+Keys: who sounds the keyboard's notes")
struct PatternTransportKeysTests {
    @Test("without a JACK keyboard the keys do not sound themselves and no sound is given to the playback")
    func alsaKeys() throws {
        let t = try PatternTransport(
            song: Song(name: "k", patterns: [SongPattern(name: "A")]), route: AudioRoute(device: "null"), sampleRate: 48000)
        try t.openSound()
        #expect(!t.keysSoundThemselves)
        var asked: [Int] = []
        for track in TrackKind.allCases {
            try t.soundKeys(track: track, accentVelocity: 100) { key in
                asked.append(key)
                return true
            }
        }
        // Not even asked which keys: the editor's auditions play them.
        #expect(asked.isEmpty)
        #expect(t.sync.locked { $0.keysSent } == nil)
        try t.stop()
    }
}
