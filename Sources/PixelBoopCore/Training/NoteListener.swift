import Glibc

/// Listening for one sung note, block by block (the live half of `train match`, kept apart from
/// the device so it can be fed a simulated singer). A stretch of sound ends after `gap` seconds
/// of silence; it is the attempt only when it holds a steady note (`SungNotes.stablePitch`: at
/// least 180 ms steady). Anything else — a cough, a breath, a word, a blip — is set aside and
/// listening goes on, so a noise before the note does not cost the attempt; the caller's time
/// limit ends it otherwise (`finish()`).
public final class NoteListener {
    public enum Event: Sendable, Equatable {
        /// Nothing heard yet (or only silence since the last burst).
        case quiet
        /// A sound in progress; its pitch when the live tracker has one for this block.
        case sound(hz: Double?)
        /// A stretch of sound ended with no steady note in it: set aside, still listening.
        case discarded
        /// The note: a steady pitch, followed by `gap` of silence.
        case note(SungPitch)
    }

    public let rate: Double
    /// Samples per block (10 ms).
    public let hop: Int
    private let gap: Double
    private let floor: Double
    private let needleTracker: PitchTracker
    private let noteTracker: PitchTracker
    private var hum: HumFilter
    private var pending: [Float] = []
    private var note: [Float] = []
    private var loudest = 0.0
    private var silentFrames = 0

    /// `noiseFloor`: the room's RMS (the quietest 10 ms heard before listening); a block counts
    /// as sound above 4 times that, above −50 dBFS, and above 3 % of the loudest block so far.
    public init(rate: Double, noiseFloor: Double = 0, gap: Double = 0.3) throws(AudioError) {
        self.rate = rate
        hop = max(1, Int(rate / 100))
        self.gap = gap
        floor = max(pow(10, -50.0 / 20), 4 * noiseFloor)
        needleTracker = try PitchTracker(sampleRate: rate, lag: 4)
        noteTracker = try PitchTracker(sampleRate: rate)
        hum = HumFilter(sampleRate: rate)
    }

    /// Takes the next captured samples (any count); the events of the whole blocks they complete,
    /// in order. After `.note` the rest is not looked at.
    public func feed(_ samples: [Float]) -> [Event] {
        pending += samples
        var events: [Event] = []
        var used = 0
        while pending.count - used >= hop {
            let event = block(Array(pending[used..<(used + hop)]))
            used += hop
            events.append(event)
            if case .note = event { break }
        }
        pending.removeFirst(used)
        return events
    }

    /// At the time limit: the sound in progress, if it holds a steady note.
    public func finish() -> SungPitch? {
        note.isEmpty ? nil : SungNotes.stablePitch(Array(note.dropLast(silentFrames)), tracker: noteTracker)
    }

    private func block(_ raw: [Float]) -> Event {
        let level = Self.rms(raw)
        let silent = level < max(floor, loudest * 0.03)
        // While nothing is heard the needle's filter rests (it settles within 40 ms of a sound).
        if note.isEmpty && silent { return .quiet }
        let filtered = hum.process(raw)
        loudest = max(loudest, level)
        note += raw
        silentFrames = silent ? silentFrames + hop : 0
        if Double(silentFrames) >= gap * rate {
            // Without the silence that ended it: under a drone that "silence" is the drone's
            // own steady pitch, which must not pass for the end of the held note.
            let sung = SungNotes.stablePitch(Array(note.dropLast(silentFrames)), tracker: noteTracker)
            note.removeAll(keepingCapacity: true)
            loudest = 0
            silentFrames = 0
            needleTracker.reset()
            return sung.map { .note($0) } ?? .discarded
        }
        return .sound(hz: silent ? nil : needle(filtered))
    }

    /// The live tracker's pitch for the newest window (4 frames late), nil when unvoiced.
    private var recent: [Float] = []
    private func needle(_ filtered: [Float]) -> Double? {
        recent += filtered
        if recent.count > needleTracker.windowFrames { recent.removeFirst(recent.count - needleTracker.windowFrames) }
        guard recent.count == needleTracker.windowFrames else { return nil }
        let f = recent.withUnsafeBufferPointer { needleTracker.push($0) }
        return f.flatMap { $0.frequency > 0 ? $0.frequency : nil }
    }

    static func rms(_ s: [Float]) -> Double {
        guard !s.isEmpty else { return 0 }
        return (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
    }
}
