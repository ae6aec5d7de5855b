import Glibc

/// A sung or hummed line turned into notes on the grid (`boop transcribe`): the voice tracker's
/// voiced frames grouped into notes, each note's pitch taken from its held part and snapped to a
/// scale or the nearest semitone, its start and end put on steps of a tempo.
///
/// A note starts where the voice starts after a gap, or where a sung legato line settles on
/// another pitch (the pitch, smoothed over 70 ms, more than 0.7 semitone from the note held and
/// staying there for 60 ms: a scoop into a note or a vibrato of half a semitone does not split
/// it). Notes shorter than 80 ms (a blip, a consonant) are left out. The pitch is the median of
/// the note's second half of voiced frames (past a scoop), which is the centre of a vibrato; a
/// note too short for its scoop to arrive is taken where the scoop was going (`heldPitch`).
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
                notes.append(
                    HeardNote(
                        start: start, end: end,
                        midi: Transcriber.heldPitch(part.map { 69 + 12 * log2($0.frequency / 440) }, seconds: end - start),
                        level: Transcriber.level(samples, from: start, to: end, rate: rate)))
            }
        }
        return notes
    }

    /// A glide through a note's last third smaller than this is no glide (the tracker's wobble),
    /// and a line that turns back by more than this is no glide either (a vibrato turns back).
    static let glideSemitones = 0.1
    /// A note held shorter than this may end before its scoop arrives: a scoop of 30 to 60 ms
    /// (its time constant) still has 8 % of its depth left after 150 ms at the slowest. A longer
    /// note has arrived by its second half, and a glide through its end is the next note of a
    /// legato line coming (split only once it is 0.7 semitone away), not where this one was going.
    static let unsettledSeconds = 0.15

    /// The pitch a note is held at, from its voiced frames in time order (fractional MIDI): the
    /// median of its second half, which is past a scoop and the centre of a vibrato. A short note
    /// whose scoop never arrives (under `unsettledSeconds`) is heard where it was going: its thirds
    /// still move one way through the last (by 0.1 semitone or more), its second half never turns
    /// back nor leaps, and its pitch is its last third's carried on by one more such step. The
    /// pitch of a short glide is heard near its end, not at its mean (d'Alessandro, Rosset and Rossi
    /// 1998); a 94 ms note scooped from 130 cents under with a 55 ms time constant is still 23 cents
    /// under at its last sample, while its second half's median is 45 under, a semitone low once
    /// the tracker's smear adds 5 more. On 120 simulated four-bar takes (scripts/voice_synth.py:
    /// 2,358 notes, scoops of 50 to 150 cents over 30 to 60 ms) the median of the second half put
    /// 27 notes a semitone off, all of them one step long; this rule puts 1.
    static func heldPitch(_ semis: [Double], seconds: Double) -> Double {
        let held = Array(semis.dropFirst(semis.count / 2))
        let centre = median(held)
        let third = semis.count / 3
        guard third >= 2, seconds < unsettledSeconds else { return centre }
        let a = median(Array(semis.prefix(third)))
        let b = median(Array(semis[third..<(2 * third)]))
        let c = median(Array(semis.suffix(third)))
        let up: Double = c > b ? 1 : -1
        guard (b - a) * up > 0, (c - b) * up >= glideSemitones else { return centre }
        // Smoothed over three frames (one frame's wobble is the tracker's), the furthest the held
        // half reached against where it is: a vibrato comes back by twice its depth.
        var furthest = -Double.infinity
        for i in held.indices {
            let v = median(Array(held[max(0, i - 1)...min(held.count - 1, i + 1)])) * up
            furthest = max(furthest, v)
            if furthest - v > glideSemitones { return centre }
        }
        // A step of more than 0.3 semitone in one 10 ms frame is no glide but the next note of a
        // legato line arriving (the split follows once it has stayed 60 ms).
        for (x, y) in zip(held, held.dropFirst()) where abs(y - x) > 0.3 { return centre }
        return c + (c - b)
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
