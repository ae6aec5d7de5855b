/// What a `VoiceNoteEvent` says.
public enum VoiceNoteKind: Sendable, Equatable {
    case on(key: Int, velocity: Int)
    case off(key: Int)
    /// 14-bit pitch bend, 8192 = none.
    case bend(Int)
}

/// What the voice tells a MIDI instrument, decided at an analysed frame.
public struct VoiceNoteEvent: Sendable, Equatable {
    /// The capture frame at which the decision became possible (the analysed window's end).
    public var frame: Int
    public var kind: VoiceNoteKind

    public init(frame: Int, kind: VoiceNoteKind) {
        self.frame = frame
        self.kind = kind
    }
}

/// The live note segmenter (`boop listen --midi-out`): pitch estimates, one per hop, turned into
/// note-on, pitch bend and note-off as they arrive, by `NoteRule`.
///
/// A note starts once `confirmFrames` voiced estimates in a row agree within a semitone: its key is
/// the nearest semitone of the latest, and a bend first (so the note starts at the sung pitch).
/// While it sounds, the bend follows the pitch's distance from the key (clamped to `bendRange`).
/// A gap in the voice up to `NoteRule.gapSeconds` holds the note (a breath, a dropout); a longer one
/// ends it. A legato move more than `NoteRule.splitSemitones` from the pitch held (the median of the
/// note so far, so a scoop or a vibrato does not count), lasting `settleSeconds`, or a voice
/// coming back after a gap that far away, starts a new note. A scoop at the start stays in the
/// note's bend, not in its key.
public struct VoiceSegmenter: Sendable {
    public let hopSeconds: Double
    public var bendRange: Double
    public var confirmFrames = 2
    /// Voiced estimates a note waits for before its note-on (0: `confirmFrames` only): past a
    /// scoop, the key is that of the note as held (`VoiceMidiConfig.settle`).
    public var settleFrames = 0
    /// The legato split's confirmation (shorter than the transcriber's: the note is live).
    public var settleSeconds = 0.04

    /// The key sounding, if any.
    public private(set) var key: Int?
    private var candidate: [Double] = []
    private var history: [Double] = []
    private var unvoiced = 0
    private var away = 0
    private var lastBend = -1
    private var noteVelocity = 64
    /// Held notes remember this much of their pitch for the median (seconds).
    static let memorySeconds = 0.3

    public init(hopSeconds: Double, bendRange: Double = 2) {
        self.hopSeconds = hopSeconds
        self.bendRange = bendRange
    }

    /// One estimate: `midi` (fractional MIDI, nil when unvoiced) and the level (dBFS) of the frame
    /// that ends at capture frame `frame`. The events decided there, in order.
    public mutating func push(frame: Int, midi: Double?, level: Double) -> [VoiceNoteEvent] {
        guard let midi else { return silence(frame: frame) }
        if key == nil || unvoiced > 0 {
            candidate.append(midi)
            let needed = max(confirmFrames, settleFrames)
            if candidate.count > needed { candidate.removeFirst() }
            // The last `confirmFrames` agree: a scoop before them does not hold the note back.
            let latest = candidate.suffix(confirmFrames)
            guard candidate.count >= needed, let lo = latest.min(), let hi = latest.max(), hi - lo <= 1
            else { return key != nil ? gap(frame: frame) : [] }
            candidate = []
            let resumed = key != nil
            unvoiced = 0
            // A voice coming back near the note held goes on with it (a breath inside a note).
            if resumed, abs(midi - held) < NoteRule.splitSemitones { return follow(frame: frame, midi: midi) }
            return start(frame: frame, midi: midi, velocity: Self.velocity(level))
        }
        return follow(frame: frame, midi: midi)
    }

    /// The end of the input: a note still sounding ends at `frame`.
    public mutating func finish(frame: Int) -> [VoiceNoteEvent] {
        defer { reset() }
        return key.map { [VoiceNoteEvent(frame: frame, kind: .off(key: $0))] } ?? []
    }

    public mutating func reset() {
        key = nil
        candidate = []
        history = []
        unvoiced = 0
        away = 0
        lastBend = -1
    }

    private mutating func silence(frame: Int) -> [VoiceNoteEvent] {
        candidate = []
        return gap(frame: frame)
    }

    /// A frame without a confirmed voice while a note sounds: the hold, then the note's end.
    private mutating func gap(frame: Int) -> [VoiceNoteEvent] {
        guard let key else { return [] }
        unvoiced += 1
        guard Double(unvoiced) * hopSeconds > NoteRule.gapSeconds else { return [] }
        reset()
        return [VoiceNoteEvent(frame: frame, kind: .off(key: key))]
    }

    private mutating func start(frame: Int, midi: Double, velocity: Int) -> [VoiceNoteEvent] {
        var out: [VoiceNoteEvent] = []
        if let key { out.append(VoiceNoteEvent(frame: frame, kind: .off(key: key))) }
        let newKey = Limits.clamp(Int(midi.rounded()), to: Limits.midiNote)
        key = newKey
        history = [midi]
        away = 0
        lastBend = -1
        if let bend = bend(midi) { out.append(VoiceNoteEvent(frame: frame, kind: .bend(bend))) }
        noteVelocity = velocity
        out.append(VoiceNoteEvent(frame: frame, kind: .on(key: newKey, velocity: velocity)))
        return out
    }

    private mutating func follow(frame: Int, midi sung: Double) -> [VoiceNoteEvent] {
        let before = held
        // An estimate an octave (or two) off the note held is the tracker's octave error, not a leap
        // within a legato line.
        let octaves = ((sung - before) / 12).rounded()
        let midi = octaves != 0 && abs(sung - before - 12 * octaves) < 0.6 ? sung - 12 * octaves : sung
        history.append(midi)
        let memory = max(1, Int((Self.memorySeconds / hopSeconds).rounded()))
        if history.count > memory { history.removeFirst(history.count - memory) }
        away = abs(smoothed - before) > NoteRule.splitSemitones ? away + 1 : 0
        if Double(away) * hopSeconds >= settleSeconds {
            let moved = Array(history.suffix(away))
            if Int(smoothed.rounded()) != key {
                // A legato note keeps the line's loudness: its velocity is the note before's.
                let out = start(frame: frame, midi: midi, velocity: noteVelocity)
                history = moved
                return out
            }
            history = moved
            away = 0
        }
        return bend(midi).map { [VoiceNoteEvent(frame: frame, kind: .bend($0))] } ?? []
    }

    /// The bend for `midi` against the key, when it moved from the last one sent (0.4 cent steps
    /// at ±2 semitones would flood the port for nothing).
    private mutating func bend(_ midi: Double) -> Int? {
        guard let key else { return nil }
        let value = Self.bendValue(midi - Double(key), range: bendRange)
        if lastBend >= 0, abs(value - lastBend) < 16 { return nil }
        lastBend = value
        return value
    }

    /// The pitch held: the median of the note's recent estimates.
    private var held: Double { Self.median(history) }
    /// The pitch now: the median of the last 5 estimates (a stray one does not count).
    private var smoothed: Double { Self.median(Array(history.suffix(5))) }

    /// 14-bit bend of `semitones` (clamped to ±range).
    public static func bendValue(_ semitones: Double, range: Double) -> Int {
        guard range > 0, semitones.isFinite else { return 8192 }
        let v = 8192 + (semitones / range * 8192).rounded()
        return Int(min(16383, max(0, v)))
    }

    /// Velocity from the level at the onset: −50 dBFS → 1, −6 dBFS and over → 127.
    public static func velocity(_ dbfs: Double) -> Int {
        let range = Limits.midiVelocity
        // Clamped as a Double: silence is -inf dBFS.
        return Int(min(Double(range.upperBound), max(Double(range.lowerBound), ((dbfs + 50) / 44 * 126 + 1).rounded())))
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
