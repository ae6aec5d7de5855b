import CAudioEngine
import Glibc

/// A note of a song's pattern: a pattern note plus its groove (DESIGN.md, "Song files").
public struct SongNote: Sendable, Equatable {
    public var step: Int
    public var pitch: Int
    public var velocity: Velocity
    public var length: Int
    /// Percent chance (0...100) that the note plays on a pass, drawn from the song's seed.
    public var probability: Int
    /// "a:b", "FILL", "PRE", "NEI", each may be negated with "!" (nil: every pass).
    public var condition: Condition?
    /// Hits inside the note's step (1: a plain note; 2...4: a ratchet).
    public var ratchet: Int
    /// Micro-timing: how far the note sounds from its step, in steps (-0.5 ..< 0.5; a played part
    /// recorded at a quantize strength under 100 % keeps what was played). The grid shows the note
    /// on its step; the timeline, and so `render`, `play` and the `.mid`, play it at step + offset.
    public var offset: Double
    public static let offsets = -0.5..<0.5
    public static let probabilities = Limits.ints(BOOP_LIMIT_NOTE_PROBABILITY)
    public static let ratchets = Limits.ints(BOOP_LIMIT_NOTE_RATCHET)

    /// A trig condition, as an Elektron box has them (DESIGN.md, "Song files"): `a:b` plays on the
    /// a-th of every b passes; FILL while the chain entry is a fill; PRE when the latest earlier
    /// note on the track with a condition of its own (a:b, FILL or a probability) played; NEI the
    /// same on the track above (chords look at melody, bass at chords, rhythm at bass); `!` plays
    /// exactly when the condition does not.
    public struct Condition: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable {
            case ratio
            case fill = "FILL"
            case previous = "PRE"
            case neighbour = "NEI"
        }
        public var kind: Kind
        public var a: Int
        public var b: Int
        public var negated: Bool
        public init(a: Int, b: Int, negated: Bool = false) {
            (kind, self.a, self.b, self.negated) = (.ratio, a, b, negated)
        }
        public init(_ kind: Kind, negated: Bool = false) {
            (self.kind, a, b, self.negated) = (kind, 1, 1, negated)
        }
        /// Whether pass `pass` (0-based count of the pattern's passes) is the a-th of every b
        /// (before negation; a ratio's own test).
        public func passes(_ pass: Int) -> Bool { pass % b == a - 1 }

        /// As the file writes it: "1:2", "!3:4", "FILL", "!PRE".
        public var text: String { (negated ? "!" : "") + (kind == .ratio ? "\(a):\(b)" : kind.rawValue) }

        /// Reads `text` ("1:2", "!NEI", ...); nil for anything else.
        public init?(text: String) {
            let negated = text.hasPrefix("!")
            let body = negated ? String(text.dropFirst()) : text
            if let kind = Kind(rawValue: body), kind != .ratio {
                self.init(kind, negated: negated)
                return
            }
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), 1 <= a, a <= b, b <= 64 else { return nil }
            self.init(a: a, b: b, negated: negated)
        }

        /// True for a condition decided by the note itself (a:b, FILL), which PRE and NEI look back at.
        var isOwn: Bool { kind == .ratio || kind == .fill }
    }

    public init(
        step: Int, pitch: Int, velocity: Velocity = .normal, length: Int = 1, probability: Int = 100,
        condition: Condition? = nil, ratchet: Int = 1, offset: Double = 0
    ) {
        self.step = step
        self.pitch = pitch
        self.velocity = velocity
        self.length = length
        self.probability = probability
        self.condition = condition
        self.ratchet = ratchet
        self.offset = offset
    }
}

/// One pattern of a song: up to 64 steps, its own swing.
public struct SongPattern: Sendable, Equatable {
    public static let lengths = Limits.ints(BOOP_LIMIT_PATTERN_STEPS)
    public var name: String
    public var length: Int
    /// Percent (50...75); nil: the song's.
    public var swing: Double?
    public var tracks: [TrackKind: [SongNote]]
    /// `"track_lengths"`: a track that loops its own number of steps (1...64) under the pattern's
    /// (polymeter, as an Elektron track in its own scale); absent: the pattern's length. The
    /// track's steps run on through the repeats of its chain entry (a 12-step bass under a
    /// 16-step pattern repeated 3 times plays its 12 steps 4 times), on the pattern's grid: swing
    /// and ratchets fall on the grid's steps as ever.
    public var trackLengths: [TrackKind: Int] = [:]

    public init(
        name: String, length: Int = 16, swing: Double? = nil, tracks: [TrackKind: [SongNote]] = [:],
        trackLengths: [TrackKind: Int] = [:]
    ) {
        self.name = name
        self.length = length
        self.swing = swing
        self.tracks = tracks
        self.trackLengths = trackLengths
    }

    public func notes(_ kind: TrackKind) -> [SongNote] { tracks[kind] ?? [] }

    /// The steps track `kind` loops: its own length, else the pattern's.
    public func length(of kind: TrackKind) -> Int { trackLengths[kind] ?? length }
}

/// One entry of the song chain: a pattern played `repeats` times, at `bpm` when it names one.
public struct ChainEntry: Sendable, Equatable {
    public static let transposeRange = Limits.ints(BOOP_LIMIT_CHAIN_TRANSPOSE)
    public var pattern: String
    public var repeats: Int
    public var bpm: Double?
    /// Semitones every pitched note of the entry moves by (the rhythm track's keys are drums and
    /// stay), as a tracker's per-entry transpose.
    public var transpose: Int
    /// `"fill": true`: the entry is a fill (its FILL notes play, its !FILL notes rest).
    public var fill: Bool
    public init(pattern: String, repeats: Int = 1, bpm: Double? = nil, transpose: Int = 0, fill: Bool = false) {
        self.pattern = pattern
        self.repeats = repeats
        self.bpm = bpm
        self.transpose = transpose
        self.fill = fill
    }
}

/// A track's sound and place in the mix.
public struct Instrument: Sendable, Equatable {
    // Voice and Kit: the engine's lists (Engine/Instrument+Palette.swift).
    /// nil: the track's own voice of version 1 (its timbre, unchanged); a voice or any envelope
    /// or filter field selects the instrument voices.
    public var voice: Voice?
    public var kit: Kit = .gm
    public var width = 0.5
    public var attack: Double?
    public var decay: Double?
    public var sustain: Double?
    public var release: Double?
    public var cutoff: Double?
    public var resonance: Double?
    public var level = 1.0
    public var pan = 0.0
    public var mute = false
    public var solo = false

    public init() {}

    /// True when the track plays its version-1 timbre (no voice and no sound field given).
    public var isClassic: Bool {
        voice == nil && attack == nil && decay == nil && sustain == nil && release == nil && cutoff == nil
            && resonance == nil && pan == 0
    }

    /// The voice a pitched track plays: the one named, else the one nearest its classic timbre.
    public func resolvedVoice(for kind: TrackKind) -> Voice {
        if let voice { return voice }
        switch kind {
        case .melody, .rhythm: return .sine
        case .chords: return .triangle
        case .bass: return .saw
        }
    }

    /// The envelope and filter a field left out takes: a classic track's timbre when the voice is
    /// its own, else the voice's (the engine's list holds each voice's: a bell rings down, a pad
    /// swells, the rest open and quick).
    public func sound(for kind: TrackKind) -> Sound {
        let d: Sound
        switch (voice, kind) {
        case (nil, .melody): d = (0.01, 0, 1, 0.15, 2000, 0.7071)
        case (nil, .chords): d = (0.04, 0, 1, 0.3, 2500, 0.7071)
        case (nil, .bass): d = (0.005, 0, 1, 0.1, 900, 1.1)
        default: d = resolvedVoice(for: kind).defaultSound
        }
        return (
            attack ?? d.attack, decay ?? d.decay, sustain ?? d.sustain, release ?? d.release, cutoff ?? d.cutoff,
            resonance ?? d.resonance
        )
    }

    // The engine's ranges (CAudioEngineLimits.h), which boop_engine_set_instrument checks too.
    public static let levelRange = Limits.doubles(BOOP_LIMIT_TRACK_LEVEL)
    public static let panRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_PAN)
    public static let secondsRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_ATTACK)
    public static let decayRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_DECAY)
    public static let releaseRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_RELEASE)
    public static let sustainRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_SUSTAIN)
    public static let cutoffRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_CUTOFF)
    public static let resonanceRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_RESONANCE)
    public static let widthRange = Limits.doubles(BOOP_LIMIT_INSTRUMENT_WIDTH)
}

/// A version-2 file: patterns, a chain, instruments and groove (DESIGN.md, "Song files").
public struct Song: Sendable, Equatable {
    public static let maxPatterns = Limits.ints(BOOP_LIMIT_SONG_PATTERNS).upperBound
    public static let maxChain = Limits.ints(BOOP_LIMIT_SONG_CHAIN).upperBound
    public static let swingRange = Limits.doubles(BOOP_LIMIT_SONG_SWING)
    public static let repeatRange = Limits.ints(BOOP_LIMIT_CHAIN_REPEATS)

    public var name: String
    public var bpm: Double
    public var swing: Double
    public var seed: UInt64
    public var instruments: [TrackKind: Instrument]
    /// In the order written in the file.
    public var patterns: [SongPattern]
    /// The order the patterns play in (the file's `song`, or every pattern once in written order).
    public var chain: [ChainEntry]
    /// Set when the song was read from a version-1 pattern file (`PieceFile`): nil for a song.
    public var version1: Version1Origin?
    /// `"tuning"`: the Scala files every pitched note is tuned by (nil: 12-tone equal, A4 = 440 Hz).
    public var tuning: SongTuning?
    /// `"scale": "A minor"`: the key the song is written in, which the editor's scale lock takes
    /// when it opens (`--scale` overrides it) and `S` sets; it changes no sound.
    public var scale: Scale?

    /// A song's tuning: the paths as the file writes them (relative to the song's folder) and the
    /// key frequencies read from them.
    public struct SongTuning: Sendable, Equatable {
        public var scl: String
        public var kbm: String?
        public var keys: ScalaTuning
        public init(scl: String, kbm: String?, keys: ScalaTuning) {
            self.scl = scl
            self.kbm = kbm
            self.keys = keys
        }
    }

    /// What a version-1 pattern file sounded like before it was read as a one-pattern song, kept so
    /// it still renders the same bytes: one channel, its loops one unbroken run of steps (each
    /// step's frame counted from the first, never from a loop's rounded start), and in a `.mid`
    /// every track the file lists (an empty one too) without a mix's volume and pan.
    public struct Version1Origin: Sendable, Equatable {
        /// The tracks the file lists, in track order.
        public var tracks: [TrackKind]
        public init(tracks: [TrackKind]) { self.tracks = tracks }
    }

    public init(
        name: String, bpm: Double = 120, swing: Double = 50, seed: UInt64 = 0,
        instruments: [TrackKind: Instrument] = [:], patterns: [SongPattern], chain: [ChainEntry]? = nil
    ) {
        self.name = name
        self.bpm = bpm
        self.swing = swing
        self.seed = seed
        self.instruments = instruments
        self.patterns = patterns
        self.chain = chain ?? patterns.map { ChainEntry(pattern: $0.name) }
    }

    public func pattern(named name: String) -> SongPattern? { patterns.first { $0.name == name } }

    public func instrument(_ kind: TrackKind) -> Instrument { instruments[kind] ?? Instrument() }

    /// Whether a track sounds: not muted, and soloed when any track is.
    public func isAudible(_ kind: TrackKind) -> Bool {
        let soloing = TrackKind.allCases.contains { instrument($0).solo }
        let inst = instrument(kind)
        return !inst.mute && (!soloing || inst.solo)
    }

    /// The song as `--pattern NAME` plays it: that pattern alone, once per loop.
    public func looping(pattern name: String) -> Song? {
        guard pattern(named: name) != nil else { return nil }
        var song = self
        song.chain = [ChainEntry(pattern: name)]
        return song
    }
}
