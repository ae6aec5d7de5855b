import Glibc

/// A voice sung into the editor while it records (`boop edit -C DEVICE`, `*`): the captured
/// samples turned into notes a stretch at a time by `Transcriber`'s rules (the same onsets,
/// pitches and ends as `boop transcribe`), each placed on the engine's frame clock.
///
/// Capture and playback run on clocks of their own; a capture frame c is taken to be engine frame
/// `c * ratio + shift`. The shift is first guessed from the wall clock (the newest sample heard
/// as it arrives, which is late by the capture's latency), then measured once: a click the loop
/// plays at a known engine frame (the count-in's first) is found where it comes back through the
/// system into the capture, which takes both the output's and the input's latency off at once.
/// Where it never comes back (headphones), the capture buffer's length is taken as the latency.
public struct VoiceTake: Sendable {
    public let captureRate: Double
    public let engineRate: Double
    private var samples: [Float] = []
    /// The capture frame of `samples[0]`, and the one after the newest sample.
    private var first = 0
    public private(set) var end = 0
    /// Engine frame of capture frame c: c * ratio + shift (nil before the first guess).
    public private(set) var shift: Double?
    /// How the shift was found: nil (guessed), or the capture latency it measured or assumed.
    public private(set) var latency: (seconds: Double, measured: Bool)?
    /// Capture frames before this are done with: notes starting there were taken. `lastOn`:
    /// where the last note taken began.
    private var done = 0
    private var lastOn = 0
    /// The last note taken: its key and its end (a capture frame).
    private var lastTaken: (key: Int, off: Int)?

    /// Samples kept: 30 s (the window a stretch of notes is taken from is far shorter).
    static let keptSeconds = 30.0
    /// A note is taken once its end lies this far before the newest sample (a note still sung is
    /// left for a later look): the tracker's decisions near the newest samples, with no future
    /// to look at, may still change, and a dropout there is not yet known to end the note.
    static let settledSeconds = 0.25
    /// A window reaches this far back before the first frame not done with, so a note's onset
    /// is seen with the silence before it.
    static let leadSeconds = 0.3

    public init(captureRate: Double, engineRate: Double) {
        self.captureRate = captureRate
        self.engineRate = engineRate
    }

    var ratio: Double { engineRate / captureRate }

    /// Captured samples in arrival order.
    public mutating func append(_ s: [Float]) {
        samples += s
        end += s.count
        let excess = samples.count - Int(VoiceTake.keptSeconds * captureRate)
        if excess > 0 {
            samples.removeFirst(excess)
            first += excess
            done = max(done, first)
        }
    }

    /// Until the latency is known: the newest sample arrived while the listener heard engine
    /// frame `heard`.
    public mutating func guess(heardNow heard: UInt64) {
        guard latency == nil else { return }
        // Each arrival is late by at least the capture's latency: the least late is the best.
        let guessed = Double(heard) - Double(end) * ratio
        shift = min(shift ?? guessed, guessed)
    }

    public enum Calibration: Equatable, Sendable {
        case found(seconds: Double)
        case waiting
        case missing
    }

    /// Looks for the click the loop played at engine frame `click` in the capture, from where the
    /// guess puts it up to `within` seconds later (the capture's latency). Found: the shift from
    /// it. Waiting: the capture has not reached that far yet. Missing: not heard back.
    public mutating func calibrate(clickAt click: UInt64, within: Double = 0.8) -> Calibration {
        guard let guessed = shift else { return .waiting }
        let expected = Int(((Double(click) - guessed) / ratio).rounded())
        let from = expected - Int(0.05 * captureRate)
        let to = expected + Int(within * captureRate)
        if end < to { return .waiting }
        let lo = max(first, from) - first
        let hi = min(end, to) - first
        guard lo < hi else { return .missing }
        let before = samples[max(0, lo - Int(0.2 * captureRate))..<lo]
        let noise = before.isEmpty ? 0 : (before.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(before.count)).squareRoot()
        let threshold = Float(max(0.01, 8 * noise))
        guard let hit = samples[lo..<hi].firstIndex(where: { abs($0) > threshold }) else { return .missing }
        let heardAt = first + hit
        shift = Double(click) - Double(heardAt) * ratio
        let seconds = Double(heardAt - expected) / captureRate
        latency = (seconds, true)
        return .found(seconds: seconds)
    }

    /// No click came back: the capture is taken to lag by `seconds` (its buffer).
    public mutating func assume(latency seconds: Double) {
        guard let guessed = shift, latency == nil else { return }
        shift = guessed - seconds * engineRate
        latency = (seconds, false)
    }

    /// Starts taking notes from the newest sample on (recording armed): what was sung before is
    /// not the take's.
    public mutating func startTake() { (done, lastOn) = (end, end) }

    /// A note as sung, on the engine's clock.
    public struct SungNote: Sendable, Equatable {
        public var on: UInt64
        public var off: UInt64
        public var midi: Double
        /// 1 ... 127 from its level (−6 dBFS RMS and above: 127; 3 a dB less each).
        public var velocity: Int
    }

    /// The notes sung since the last call whose ends are settled, in time order. Each look runs
    /// from before the last note taken, so a legato line is split where it was split before and
    /// its next note starts where the last one ended.
    public mutating func takeNotes(with transcriber: Transcriber) -> [SungNote] {
        guard let shift else { return [] }
        let from = max(first, min(done, lastOn) - Int(VoiceTake.leadSeconds * captureRate))
        guard end - from > Int(0.1 * captureRate),
            let heard = try? transcriber.notes(in: Array(samples[(from - first)...]), rate: captureRate)
        else { return [] }
        let settled = end - Int(VoiceTake.settledSeconds * captureRate)
        // A note found again may start a tracker hop or two (10 ms each) from where it was seen.
        let again = Int(0.025 * captureRate)
        let continuation = Int((NoteRule.gapSeconds + 0.02) * captureRate)
        var out: [SungNote] = []
        var pending = false
        for note in heard {
            let on = from + Int(note.start * captureRate)
            let off = from + Int(note.end * captureRate)
            if on < done - again { continue }
            if off >= settled {
                pending = true   // still sung: looked at again next time
                break
            }
            // The note just taken, found going on at its pitch after a dropout the new look did
            // not bridge (the tracker decides afresh near a window's edges): not a new note.
            if let last = lastTaken, last.key == Int(note.midi.rounded()), on - last.off <= continuation {
                (done, lastOn, lastTaken) = (max(done, off), on, (last.key, off))
                continue
            }
            let velocity = Int((127 + (note.level + 6) * 3).rounded())
            out.append(
                SungNote(
                    on: UInt64(max(0, Double(on) * ratio + shift)), off: UInt64(max(0, Double(off) * ratio + shift)),
                    midi: note.midi, velocity: Limits.clamp(velocity, to: Limits.midiVelocity)))
            (done, lastOn, lastTaken) = (max(done, off), on, (Int(note.midi.rounded()), off))
        }
        // Nothing under way: later looks start from the present.
        if !pending { (done, lastOn) = (max(done, settled), max(done, settled)) }
        return out
    }

    /// The pitch of the newest 60 ms (fractional MIDI), nil while nothing is sung: the status line's.
    public func pitchNow(tracker: PitchTracker) -> Double? {
        let n = Int(0.06 * captureRate)
        guard samples.count >= n else { return nil }
        let frames = tracker.track(Array(samples.suffix(n)))
        guard let f = frames.last(where: { $0.frequency > 0 })?.frequency else { return nil }
        return 69 + 12 * log2(f / 440)
    }
}
