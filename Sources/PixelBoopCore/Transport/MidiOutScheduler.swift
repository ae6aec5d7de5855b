/// One MIDI message for the output, on the engine's frame clock.
struct MidiOutMessage: FrameStamped {
    enum Kind: Equatable {
        case songPosition(UInt16)
        case start, resume, clock, stop
        case noteOff(id: UInt32, channel: UInt8, key: UInt8)
        case noteOn(id: UInt32, channel: UInt8, key: UInt8, velocity: UInt8)
        /// A channel's setup (Program Change, volume, pan) before a run's first note.
        case setup([UInt8])
    }
    var frame: UInt64
    var kind: Kind

    /// On one frame: position and Start/Continue, then the channels' setup, then the clock, then
    /// note-offs, then note-ons.
    var rank: Int {
        switch kind {
        case .songPosition, .start, .resume: return 0
        case .setup: return 1
        case .clock, .stop: return 2
        case .noteOff: return 3
        case .noteOn: return 4
        }
    }
}

/// The sequencer's notes (and MIDI clock) for a MIDI output, as the `.mid` export writes them:
/// each track on its channel (1, 2, 3, 10), its velocities and gates; a note-off before a note-on
/// on the same frame; a note struck again on a key still sounding ends the earlier one there
/// (MIDI cannot hold two). With `clock`, 24 clocks per quarter note: clock k after an anchor (the
/// start, or the step where a tempo change takes effect) on frame anchor + round(k x rate x 60 /
/// (bpm x 24)), Start before the first step, Song Position and Continue on resuming, Stop on the
/// frame the last requested loop ends.
/// The messages wait in the one `EventScheduler` until they fall before the horizon.
/// Not thread-safe: the transport's lock guards it.
struct MidiOutScheduler {
    let clock: Bool
    private var queue = EventScheduler<MidiOutMessage>()
    private var sounding: [UInt16: UInt32] = [:]   // channel << 8 | key -> the note sounding there
    private var nextNoteID: UInt32 = 0xE000_0000
    /// The step whose first frame gets Start (0) or Song Position + Continue (a resumed step).
    private var announce: (step: Int, resume: Bool)?
    /// The frame whose note-ons have had their keys cleared (see `cutBeforeOns`).
    private var cutFrame: UInt64?
    /// A version-2 song's channel setup, as its `.mid` has it (`MidiFileWriter.setup`): sent on the
    /// first step of every run, so the gear plays each track with its program, level and pan.
    private let setup: [[UInt8]]
    private var setupDue = false

    init(clock: Bool, song: Song? = nil) {
        self.clock = clock
        if let song, song.version1 == nil {
            setup = MidiFileWriter.tracks(of: song).flatMap { MidiFileWriter.setup($0, of: song) }
        } else {
            setup = []
        }
    }

    var nextFrame: UInt64? { queue.nextFrame }

    /// Forgets everything queued and sounding (the output's panic ended those notes).
    mutating func reset() {
        queue.removeAll()
        sounding.removeAll()
        announce = nil
        setupDue = false
        cutFrame = nil
    }

    /// Start goes before `step` (the first of a run); with `resume`, Song Position + Continue.
    /// The channels' setup goes before it too.
    mutating func announce(step: Int, resume: Bool) {
        announce = clock ? (step, resume) : nil
        setupDue = !setup.isEmpty
    }

    /// Lock held: the MIDI of a song's `steps` (their notes, as the .mid export has them), and
    /// its clock: six per step, straight (unswung), at each chain entry's own tempo.
    mutating func add(_ spans: [SongSpan], steps: Range<Int>, song: inout SongSequencer) {
        var added: [MidiOutMessage] = []
        if setupDue, let first = steps.first {
            setupDue = false
            let frame = song.frame(ofStep: first)
            added += setup.map { MidiOutMessage(frame: frame, kind: .setup($0)) }
        }
        for s in spans where Limits.midiNote.contains(s.hit.pitch) {
            let ch = MidiFileWriter.channel(s.hit.track)
            let key = UInt8(s.hit.pitch)
            nextNoteID &+= 1   // ids of the output's own
            let id = nextNoteID
            added.append(
                .init(
                    frame: s.on, kind: .noteOn(id: id, channel: ch, key: key, velocity: MidiFileWriter.velocity(s.hit.velocity))))
            added.append(.init(frame: s.off, kind: .noteOff(id: id, channel: ch, key: key)))
        }
        if clock {
            for k in steps {
                guard let (si, seg) = song.segment(ofStep: k) else { continue }
                added += announced(step: k, frame: song.frame(ofStep: k))
                for c in 0..<6 {
                    let frame = song.frame(segment: si, position: Double(k - seg.firstStep) + Double(c) / 6)
                    added.append(.init(frame: frame, kind: .clock))
                }
            }
        }
        merge(added)
    }

    /// Lock held: with a clock, Stop on `frame`, where the music ends (the last requested loop's
    /// end), so a follower stops with the music rather than when the output is closed.
    mutating func end(atFrame frame: UInt64) {
        if clock { merge([.init(frame: frame, kind: .stop)]) }
    }

    /// Start, or Song Position and Continue, when `step` is the one announced.
    private mutating func announced(step s: Int, frame: UInt64) -> [MidiOutMessage] {
        guard let a = announce, a.step == s else { return [] }
        announce = nil
        if a.resume {
            return [.init(frame: frame, kind: .songPosition(UInt16(clamping: s & 0x3FFF))), .init(frame: frame, kind: .resume)]
        }
        return [.init(frame: frame, kind: .start)]
    }

    /// Stable: on a shared frame and rank, the order they were made in.
    private mutating func merge(_ added: [MidiOutMessage]) {
        queue.add(added) { a, b in (a.frame, a.rank) < (b.frame, b.rank) }
    }

    /// Lock held: hands the output every message before `horizon`, in order; a full queue keeps
    /// the rest for the next flush.
    mutating func flush(before horizon: UInt64, send: ([UInt8], UInt64) throws(AudioError) -> Void) throws(AudioError) {
        // Taken out while it flushes, so that delivering may change the keys sounding meanwhile.
        var pending = EventScheduler<MidiOutMessage>()
        swap(&pending, &queue)
        defer { swap(&pending, &queue) }
        let due = pending.due(before: horizon)
        var index = due.startIndex
        try pending.flush(before: horizon) { (m: MidiOutMessage) throws(AudioError) in
            if case .noteOn = m.kind, cutFrame != m.frame {
                try cutBeforeOns(due[index...].prefix { $0.frame == m.frame }, send)
                cutFrame = m.frame
            }
            try deliver(m, send)
            index += 1
        }
    }

    /// Before the first note-on of a frame: a note-off for every key one of its note-ons strikes
    /// again while it sounds, so that on this frame too every note-off precedes the note-ons.
    private mutating func cutBeforeOns(
        _ frame: ArraySlice<MidiOutMessage>, _ send: ([UInt8], UInt64) throws(AudioError) -> Void
    ) throws(AudioError) {
        for m in frame {
            if case .noteOn(_, let ch, let key, _) = m.kind, sounding[UInt16(ch) << 8 | UInt16(key)] != nil {
                try send([0x80 | ch, key, 0x40], m.frame)
                sounding[UInt16(ch) << 8 | UInt16(key)] = nil
            }
        }
    }

    private mutating func deliver(_ m: MidiOutMessage, _ send: ([UInt8], UInt64) throws(AudioError) -> Void) throws(AudioError) {
        switch m.kind {
        case .songPosition(let p): try send([0xF2, UInt8(p & 0x7F), UInt8(p >> 7)], m.frame)
        case .start: try send([0xFA], m.frame)
        case .resume: try send([0xFB], m.frame)
        case .clock: try send([0xF8], m.frame)
        case .stop: try send([0xFC], m.frame)
        case .setup(let bytes): try send(bytes, m.frame)
        case .noteOn(let id, let ch, let key, let velocity):
            let slot = UInt16(ch) << 8 | UInt16(key)
            if sounding[slot] != nil {
                try send([0x80 | ch, key, 0x40], m.frame)
                sounding[slot] = nil
            }
            try send([0x90 | ch, key, velocity], m.frame)
            sounding[slot] = id
        case .noteOff(let id, let ch, let key):
            let slot = UInt16(ch) << 8 | UInt16(key)
            guard sounding[slot] == id else { return }   // cut short by a later note on its key
            try send([0x80 | ch, key, 0x40], m.frame)
            sounding[slot] = nil
        }
    }
}
