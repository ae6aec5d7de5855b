import Glibc

/// The four tracks of a PixelBoop pattern, each with its own timbre.
public enum TrackKind: String, Codable, Sendable, CaseIterable, Comparable {
    case melody, chords, bass, rhythm

    public static func < (a: TrackKind, b: TrackKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A pattern is a one-pattern song: a version-1 pattern file (DESIGN.md, "Pattern files") is read
/// into one (`PieceFile`), played, rendered and edited as every song is, and written back in its
/// own form (`version1FileData`) while it says nothing a version-1 file cannot.
extension Song {
    /// The tempi a pattern or song may have.
    public static let bpmRange: ClosedRange<Double> = Limits.tempoBPM
    /// The lengths a version-1 file may give its pattern.
    public static let version1Lengths = [8, 16, 24, 32]

    /// A one-pattern song: its name and tempo, and pattern "A" of `length` steps holding `tracks`
    /// (empty tracks left out).
    public init(name: String, bpm: Double = 120, length: Int = 16, tracks: [TrackKind: [SongNote]] = [:]) {
        self.init(
            name: name, bpm: bpm,
            patterns: [SongPattern(name: "A", length: length, tracks: tracks.filter { !$0.value.isEmpty })])
    }

    /// What a version-1 file of the song holds, as that file sounds: the name, the tempo and the
    /// first pattern's length and notes, marked (`Version1Origin`) with the tracks the file lists:
    /// `present` (an empty one too), by default those with notes.
    public init(version1 song: Song, present: [TrackKind]? = nil) {
        let first = song.patterns.first ?? SongPattern(name: "A")
        self.init(name: song.name, bpm: song.bpm, length: first.length, tracks: first.tracks)
        let listed = present ?? first.tracks.filter { !$0.value.isEmpty }.map(\.key)
        version1 = Version1Origin(tracks: TrackKind.allCases.filter { listed.contains($0) })
    }

    /// Duration of one step in seconds at the song's tempo.
    public var stepSeconds: Double { 60.0 / (bpm * 4.0) }

    /// The first pattern as a version-1 file, the bytes a version-1 save has always written:
    /// pretty-printed JSON with sorted keys, the song's name and tempo, empty tracks left out,
    /// notes in step order. It always parses with the strict loader back to the same music.
    public func version1FileData() throws -> Bytes {
        let pattern = patterns.first ?? SongPattern(name: "A")
        var tracks: [String: Any] = [:]
        for (kind, notes) in pattern.tracks where !notes.isEmpty {
            tracks[kind.rawValue] = notes.sorted { ($0.step, $0.pitch) < ($1.step, $1.pitch) }.map { n -> [String: Any] in
                ["step": n.step, "pitch": n.pitch, "velocity": n.velocity.rawValue, "length": n.length]
            }
        }
        let top: [String: Any] = ["name": name, "bpm": bpm, "length": pattern.length, "tracks": tracks]
        guard let text = JSONText.encode(top, escapeSlashes: false, pretty: true) else {
            throw PatternError(.invalid, "\(name): the tempo \(bpm) cannot be written as JSON")
        }
        return Bytes((text + "\n").utf8)
    }

    /// The pitched notes that cannot sound at `sampleRate` (at or above half of it): the engine
    /// skips them, so `render` and `play` warn with one line rather than drop them silently.
    /// Rhythm keys are drum sounds, not pitches, and are never above Nyquist.
    public func notesAboveNyquist(sampleRate: Double, reference: Double = 440) -> [(
        pattern: String, track: TrackKind, index: Int, note: SongNote, hz: Double
    )] {
        var found: [(pattern: String, track: TrackKind, index: Int, note: SongNote, hz: Double)] = []
        for pattern in patterns {
            for kind in TrackKind.allCases where kind != .rhythm {
                for (i, note) in pattern.notes(kind).enumerated() {
                    let hz = Pitch.frequency(midi: Double(note.pitch), reference: reference)
                    if hz >= sampleRate / 2 { found.append((pattern.name, kind, i, note, hz)) }
                }
            }
        }
        return found
    }
}
