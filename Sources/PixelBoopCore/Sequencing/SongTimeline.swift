import Glibc

/// One note that plays: its track, pitch and loudness, and where it sits in its chain entry, in
/// steps from the entry's start (swing and ratchets included). Frames (audio) and ticks (MIDI)
/// are both computed from these positions, so the two exports hold the same notes.
public struct SongHit: Sendable, Equatable {
    public var track: TrackKind
    public var pitch: Int
    public var velocity: Velocity
    /// The segment (chain entry played once) it belongs to.
    public var segment: Int
    /// The global step (all segments counted) it starts on.
    public var step: Int
    public var onPosition: Double
    /// Normal and accent notes: the gate, in steps from the onset (0.8 of the note, or of a
    /// ratchet hit). Sustain: nil, the note ends at `endPosition`.
    public var gateSteps: Double?
    public var endPosition: Double
}

/// A chain entry as it is played: its pattern from `firstStep` (global) for `steps` steps at `bpm`.
public struct SongSegment: Sendable, Equatable {
    public var entry: Int
    public var pattern: Int
    public var firstStep: Int
    public var steps: Int
    public var bpm: Double
    public var swing: Double
    /// How many times the pattern was played before this segment (for conditions and the seed).
    public var firstPass: Int
}

/// The song laid out in time: the chain (times `loops`, or for ever when nil) as segments, each
/// a pattern repeated and counted from its own start, and every note that plays, decided by the
/// seed. The one formula: step k of a segment (k counted from the segment's start, swing applied
/// to odd steps of the pattern: position k - 1 + 2 x swing / 100) starts on frame
/// `start + floor(position x rate x 60 / (bpm x 4) + 0.5)`; the next segment starts on the frame
/// of the step after the last.
public struct SongTimeline: Sendable {
    public let song: Song
    public let loops: Int?
    public let seed: UInt64
    private var patternIndex: [String: Int] = [:]
    public private(set) var segments: [SongSegment] = []
    private var passes: [Int]
    /// The chain as laid out, played `runs` times (nil: for ever): the song's, or for a version-1
    /// pattern its one entry repeated `loops` times as one segment (one unbroken run of steps).
    private let chain: [ChainEntry]
    private let runs: Int?
    /// How many steps the earliest note sounds before its step (0, or a negative micro-timing
    /// offset's size): a step's notes are all known that much before the step starts.
    public let earlySteps: Double

    public init(song: Song, loops: Int? = 1, seed: UInt64? = nil) {
        self.song = song
        self.loops = loops
        self.seed = seed ?? song.seed
        for (i, p) in song.patterns.enumerated() { patternIndex[p.name] = i }
        passes = [Int](repeating: 0, count: song.patterns.count)
        earlySteps = -min(0, song.patterns.lazy.flatMap { $0.tracks.values.joined() }.map(\.offset).min() ?? 0)
        if song.version1 != nil, song.chain.count == 1, var only = song.chain.first {
            only.repeats *= loops ?? SongTimeline.endlessRepeats
            (chain, runs) = ([only], loops == nil ? nil : 1)
        } else {
            (chain, runs) = (song.chain, loops)
        }
    }

    /// Repeats of an endless version-1 pattern's one segment: more than any playing lasts, few
    /// enough that no frame overflows.
    static let endlessRepeats = 1 << 32

    /// Segments in the whole piece (nil: endless).
    public var segmentCount: Int? { runs.map { $0 * chain.count } }

    /// Steps in the whole piece (nil: endless).
    public var totalSteps: Int? {
        guard let runs else { return nil }
        let once = chain.reduce(0) { $0 + song.patterns[patternIndex[$1.pattern]!].length * $1.repeats }
        return once * runs
    }

    /// Lays out segments up to index `i` (lazily, so an endless song costs only what was played).
    @discardableResult
    public mutating func segment(_ i: Int) -> SongSegment? {
        if let count = segmentCount, i >= count { return nil }
        while segments.count <= i {
            let n = segments.count
            let entry = chain[n % chain.count]
            let p = patternIndex[entry.pattern]!
            let pattern = song.patterns[p]
            let first = segments.last.map { $0.firstStep + $0.steps } ?? 0
            segments.append(
                SongSegment(
                    entry: n % chain.count, pattern: p, firstStep: first, steps: pattern.length * entry.repeats,
                    bpm: entry.bpm ?? song.bpm, swing: pattern.swing ?? song.swing, firstPass: passes[p]))
            passes[p] += entry.repeats
        }
        return segments[i]
    }

    /// The segment holding global step k (laid out as needed); nil past the end.
    public mutating func segmentIndex(ofStep k: Int) -> Int? {
        while segments.last.map({ k >= $0.firstStep + $0.steps }) ?? true {
            guard segment(segments.count) != nil else { return nil }
        }
        var (a, b) = (0, segments.count - 1)
        while a < b {
            let m = (a + b) / 2
            if segments[m].firstStep + segments[m].steps <= k { a = m + 1 } else { b = m }
        }
        return a
    }

    /// Position of local step k of a segment (steps from its start), swing applied to odd steps.
    public static func position(_ k: Int, length: Int, swing: Double) -> Double {
        ((k % length) & 1) == 1 ? Double(k - 1) + 2 * swing / 100 : Double(k)
    }

    /// The notes of global steps `steps` that play (probability, conditions and seed decided), in
    /// step order.
    public mutating func hits(forSteps steps: Range<Int>) -> [SongHit] {
        var out: [SongHit] = []
        var k = steps.lowerBound
        while k < steps.upperBound, let si = segmentIndex(ofStep: k) {
            let seg = segments[si]
            let end = min(steps.upperBound, seg.firstStep + seg.steps)
            for g in k..<end { appendHits(ofStep: g - seg.firstStep, segment: si, into: &out) }
            k = end
        }
        return out
    }

    /// A track of its own length counts its own steps and passes from the segment's start (a
    /// condition's passes are the track's loops, counted on from the pattern's earlier passes).
    private func appendHits(ofStep local: Int, segment si: Int, into out: inout [SongHit]) {
        let seg = segments[si]
        let pattern = song.patterns[seg.pattern]
        let length = pattern.length
        let transpose = chain[seg.entry].transpose
        for kind in TrackKind.allCases where song.isAudible(kind) {
            let own = pattern.length(of: kind)
            let s = local % own
            let pass = seg.firstPass + local / own
            let shift = kind == .rhythm ? 0 : transpose
            for (index, note) in pattern.notes(kind).enumerated() where note.step == s {
                guard plays(note, index, kind, pass: pass, segment: si, local: local) else { continue }
                // Micro-timing moves the whole note; nothing sounds before the music's first frame.
                let grid = SongTimeline.position(local, length: length, swing: seg.swing)
                let on = si == 0 ? max(0, grid + note.offset) : grid + note.offset
                let end = SongTimeline.position(local + note.length, length: length, swing: seg.swing) + (on - grid)
                let r = note.ratchet
                for j in 0..<r {
                    let span = (end - on) / Double(r)
                    let hitOn = on + Double(j) * span
                    out.append(
                        SongHit(
                            track: kind, pitch: note.pitch + shift, velocity: note.velocity, segment: si,
                            step: seg.firstStep + local, onPosition: hitOn,
                            gateSteps: note.velocity == .sustain ? nil : 0.8 * (r == 1 ? Double(note.length) : span),
                            endPosition: j == r - 1 ? end : on + Double(j + 1) * span))
                }
            }
        }
    }

    /// Whether a note plays on this pass: its condition (PRE and NEI looking back at the notes
    /// before it), then its probability.
    private func plays(_ note: SongNote, _ index: Int, _ kind: TrackKind, pass: Int, segment si: Int, local: Int) -> Bool {
        guard let c = note.condition, !c.isOwn else { return decides(note, index, kind, pass: pass, segment: si) }
        let track =
            c.kind == .previous
            ? kind
            : TrackKind.allCases.firstIndex(of: kind).flatMap { i in
                i > 0 ? TrackKind.allCases[i - 1] : nil
            }
        // The track above has played its notes of this step already; this track, those before this one.
        let earlier = track.map { latest(on: $0, segment: si, local: local, before: $0 == kind ? index : Int.max) } ?? false
        return earlier != c.negated && chance(note, index, kind, pass: pass, segment: si)
    }

    /// A note's own decision: an a:b or FILL condition, and its probability.
    private func decides(_ note: SongNote, _ index: Int, _ kind: TrackKind, pass: Int, segment si: Int) -> Bool {
        if let c = note.condition {
            let held = c.kind == .fill ? chain[segments[si].entry].fill : c.passes(pass)
            if held == c.negated { return false }
        }
        return chance(note, index, kind, pass: pass, segment: si)
    }

    private func chance(_ note: SongNote, _ index: Int, _ kind: TrackKind, pass: Int, segment si: Int) -> Bool {
        note.probability >= 100
            || SongTimeline.draw(seed: seed, pattern: segments[si].pattern, pass: pass, track: kind, note: index)
                < Double(note.probability)
    }

    /// Whether the latest note before (segment si, local step, note index `before`) on `track`
    /// that decides for itself (an a:b or FILL condition, or a probability) played; false when
    /// there is none. Segments without such a note are passed over whole.
    private func latest(on track: TrackKind, segment si: Int, local: Int, before: Int) -> Bool {
        var (s, l, bound) = (si, local, before)
        while s >= 0 {
            let seg = segments[s]
            let pattern = song.patterns[seg.pattern]
            let own = pattern.length(of: track)
            let deciding = pattern.notes(track).enumerated().filter { n in
                n.element.condition.map(\.isOwn) ?? (n.element.probability < 100)
            }
            if !deciding.isEmpty {
                while l >= 0 {
                    let step = l % own
                    if let last = deciding.last(where: { $0.element.step == step && $0.offset < bound }) {
                        return decides(last.element, last.offset, track, pass: seg.firstPass + l / own, segment: s)
                    }
                    (l, bound) = (l - 1, Int.max)
                }
            }
            s -= 1
            (l, bound) = (s >= 0 ? segments[s].steps - 1 : 0, Int.max)
        }
        return false
    }

    /// A number in [0, 100) fixed by the seed, the pattern, its pass and the note: a note's fate
    /// never depends on what else was drawn, so `play` and `render` agree note for note.
    static func draw(seed: UInt64, pattern: Int, pass: Int, track: TrackKind, note: Int) -> Double {
        var x = seed &* 0x9E37_79B9_7F4A_7C15
        for part in [UInt64(pattern), UInt64(pass), UInt64(TrackKind.allCases.firstIndex(of: track)!), UInt64(note)] {
            x = splitMix(x ^ part)
        }
        return Double(x >> 11) / Double(1 << 53) * 100
    }

    /// One SplitMix64 step from state v: `SeededGenerator`'s, the one generator on the Swift side.
    static func splitMix(_ v: UInt64) -> UInt64 {
        var generator = SeededGenerator(seed: v)
        return generator.next()
    }
}
