import Foundation
import Testing

@testable import PixelBoopCore

/// boop links no Foundation; what it took from it is its own (Support/). These tests hold each
/// replacement to what Foundation gives for the same input, Foundation being linked here only.
@Suite struct FoundationParityTests {
    @Test("parts(separatedBy:) and includes(_:) answer as components(separatedBy:) and contains(_:)")
    func partsAsComponents() {
        let texts = ["", "..", "C4..C6", "C4..", "..C6", "a...b", "a....b", "ä..ö", "no separator", ": x: y", "é: :é"]
        for text in texts {
            for separator in ["..", ": ", "x", "é"] {
                #expect(text.parts(separatedBy: separator) == text.components(separatedBy: separator), "\(text) \(separator)")
                #expect(text.includes(separator) == text.contains(separator), "\(text) \(separator)")
            }
        }
    }

    @Test("a file's name without folder and extension is URL's")
    func stemAsURL() {
        for path in ["/x/Song.json", "a.b.json", "noext", "/tmp/My_Own.json", "dir/name.json", "ünï.json", "a b.json"] {
            let url = URL(fileURLWithPath: path)
            #expect(PathText.lastComponent(PathText.deletingExtension(path)) == url.deletingPathExtension().lastPathComponent)
            #expect(PathText.lastComponent(path) == url.lastPathComponent)
        }
    }

    @Test("Timestamp keeps Date's arithmetic, now and distantPast")
    func timestampAsDate() {
        let before = Date().timeIntervalSince1970
        let now = Timestamp().timeIntervalSince1970
        let after = Date().timeIntervalSince1970
        #expect(before <= now + 1e-6 && now <= after + 1e-6)
        #expect(Timestamp.distantPast.timeIntervalSince1970 == Date.distantPast.timeIntervalSince1970)
        let t = Timestamp(timeIntervalSince1970: 1_800_000_000.25)
        #expect(t.addingTimeInterval(1.5).timeIntervalSince(t) == 1.5)
        #expect(t < t.addingTimeInterval(0.001))
        #expect(DateText.iso8601(t) == "2027-01-15T08:00:00.250Z")
    }

    @Test("a version-1 pattern file is the bytes JSONEncoder wrote (pretty, sorted, slashes as typed)")
    func patternFileAsEncoder() throws {
        let patterns = [
            Song(name: "a/b \"q\" é", bpm: 120, length: 16),
            Song(
                name: "x", bpm: 97.5, length: 8,
                tracks: [
                    .melody: [SongNote(step: 0, pitch: 60), SongNote(step: 3, pitch: 72, velocity: .accent, length: 2)],
                    .rhythm: [SongNote(step: 1, pitch: 36, velocity: .sustain)]
                ])
        ]
        for p in patterns {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let expected = Array(try encoder.encode(EncodedVersion1(p))) + [0x0A]
            let written = try p.version1FileData()
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))")
        }
    }
}

/// A version-1 file as the Codable pattern of earlier releases encoded it: the name, tempo and
/// length, and each track's notes (step, pitch, velocity, length), empty tracks left out.
private struct EncodedVersion1: Encodable {
    struct Note: Encodable {
        let step: Int
        let pitch: Int
        let velocity: Velocity
        let length: Int
    }
    let name: String
    let bpm: Double
    let length: Int
    let tracks: [String: [Note]]

    init(_ song: Song) {
        let p = song.patterns[0]
        name = song.name
        bpm = song.bpm
        length = p.length
        var tracks: [String: [Note]] = [:]
        for (kind, notes) in p.tracks where !notes.isEmpty {
            tracks[kind.rawValue] = notes.map { Note(step: $0.step, pitch: $0.pitch, velocity: $0.velocity, length: $0.length) }
        }
        self.tracks = tracks
    }
}
