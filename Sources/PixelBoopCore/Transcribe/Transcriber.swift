import Glibc

/// A sung or hummed line turned into notes on the grid (`boop transcribe`): the voice tracker's
/// voiced frames grouped into notes, each note's pitch taken from its held part and snapped to a
/// scale or the nearest semitone, its start and end put on steps of a tempo.
///
/// A note starts where the voice starts after a gap, or where a sung legato line settles on
/// another pitch (the pitch, smoothed over 70 ms, more than 0.7 semitone from the note held and
/// staying there for 60 ms: a scoop into a note or a vibrato of half a semitone does not split
/// it). Notes shorter than 80 ms (a blip, a consonant) are left out. The pitch is the median of
/// the note's second half of voiced frames (past a scoop), which is the centre of a vibrato.
public struct Transcriber: Sendable {
    /// One note as heard, in seconds and fractional MIDI.
    public struct HeardNote: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var midi: Double
        public var level: Double   // RMS of the note, dBFS
    }

    public var bpm: Double = 120
    public var scale: Scale?
    /// Steps per beat: the grid's sixteenths.
    public static let stepsPerBeat = 4.0
    static let minimumSeconds = NoteRule.minimumSeconds
    static let gapSeconds = NoteRule.gapSeconds
    static let splitSemitones = NoteRule.splitSemitones
    static let settleSeconds = NoteRule.settleSeconds

    public init(bpm: Double = 120, scale: Scale? = nil) {
        self.bpm = bpm
        self.scale = scale
    }

    /// The notes heard in `samples`, in time order.
    public func notes(in samples: [Float], rate: Double) throws(AudioError) -> [HeardNote] {
        let tracker = try PitchTracker(sampleRate: rate, minFrequency: 60, maxFrequency: 1400)
        let frames = tracker.track(samples)
        let hop = Double(tracker.hopFrames) / rate
        var notes: [HeardNote] = []
        for run in voicedRuns(frames, hop: hop) {
            for part in legatoParts(run) {
                guard let first = part.first, let last = part.last else { continue }
                let start = Double(first.index) * hop
                let end = Double(last.index + 1) * hop
                guard end - start >= Transcriber.minimumSeconds else { continue }
                let held = part.dropFirst(Int(Double(part.count) * 0.5)).map { 69 + 12 * log2($0.frequency / 440) }
                notes.append(
                    HeardNote(
                        start: start, end: end, midi: Transcriber.median(held),
                        level: Transcriber.level(samples, from: start, to: end, rate: rate)))
            }
        }
        return notes
    }

    /// Runs of voiced frames, a gap of up to 30 ms bridged (a tracker's dropout inside a note).
    func voicedRuns(_ frames: [PitchTrackFrame], hop: Double) -> [[PitchTrackFrame]] {
        let bridge = Int((Transcriber.gapSeconds / hop).rounded())
        var runs: [[PitchTrackFrame]] = []
        var current: [PitchTrackFrame] = []
        var unvoiced = 0
        for f in frames {
            if f.frequency > 0 {
                current.append(f)
                unvoiced = 0
            } else {
                unvoiced += 1
                if unvoiced > bridge, !current.isEmpty {
                    runs.append(current)
                    current = []
                }
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// A voiced run split where the line settles on another pitch.
    func legatoParts(_ run: [PitchTrackFrame]) -> [[PitchTrackFrame]] {
        let semis = run.map { 69 + 12 * log2($0.frequency / 440) }
        let smooth = semis.indices.map { i in Transcriber.median(Array(semis[max(0, i - 3)...min(semis.count - 1, i + 3)])) }
        let settle = max(1, Int((Transcriber.settleSeconds / 0.01).rounded()))
        var parts: [[PitchTrackFrame]] = []
        var start = 0
        var i = 0
        while i < run.count {
            let held = Transcriber.median(Array(smooth[start...i]))
            let away = { (k: Int) in abs(smooth[k] - held) > Transcriber.splitSemitones }
            if i - start >= settle, i + settle <= run.count, (i..<(i + settle)).allSatisfy(away) {
                parts.append(Array(run[start..<i]))
                start = i
            }
            i += 1
        }
        parts.append(Array(run[start...]))
        return parts
    }

    /// The notes as a song: one pattern of `steps` steps per stretch of that many steps (A, B, C,
    /// …), the chain playing them in order, every note on `track` at the step its start falls
    /// nearest, its length the steps it lasts (at least one, cut at its pattern's end).
    public func song(_ heard: [HeardNote], name: String, steps: Int, track: TrackKind) -> Song {
        let stepSeconds = 60 / bpm / Transcriber.stepsPerBeat
        // Accents: notes 4 dB or more over the line's median level.
        let accentLevel = Transcriber.median(heard.map(\.level)) + 4
        var placed: [Int: [SongNote]] = [:]
        var lastStep = 0
        for note in heard {
            let step = Int((note.start / stepSeconds).rounded())
            let length = max(1, Int(((note.end - note.start) / stepSeconds).rounded()))
            let index = step / steps
            let inPattern = step - index * steps
            let rounded = Int(note.midi.rounded())
            let pitch = Limits.clamp(scale.map { $0.nearest(rounded) } ?? rounded, to: Limits.midiNote)
            let velocity: Velocity = note.level >= accentLevel ? .accent : .normal
            placed[index, default: []].append(
                SongNote(step: inPattern, pitch: pitch, velocity: velocity, length: min(length, steps - inPattern)))
            lastStep = max(lastStep, step)
        }
        let count = min(lastStep / steps + 1, Song.maxPatterns)
        let patterns = (0..<count).map { k in
            SongPattern(name: Transcriber.patternName(k), length: steps, tracks: placed[k].map { [track: $0] } ?? [:])
        }
        var song = Song(name: name, bpm: bpm, patterns: patterns)
        song.scale = scale   // the editor opens it with this scale lock
        return song
    }

    /// A, B, … Z, then A2, B2, …
    static func patternName(_ k: Int) -> String {
        let letter = String(UnicodeScalar(UInt8(65 + k % 26)))
        return k < 26 ? letter : letter + "\(k / 26 + 1)"
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func level(_ samples: [Float], from start: Double, to end: Double, rate: Double) -> Double {
        let a = max(0, min(samples.count, Int(start * rate)))
        let b = max(a, min(samples.count, Int(end * rate)))
        guard b > a else { return -120 }
        var sum = 0.0
        for i in a..<b { sum += Double(samples[i]) * Double(samples[i]) }
        return 10 * log10(max(sum / Double(b - a), 1e-12))
    }
}
