import Glibc

/// One thing for the engine to do at an exact frame, from a song.
public struct SongEvent: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// `instrument`: on the track's instrument slot, else on its version-1 timbre.
        case noteOn(track: TrackKind, pitch: Int, gain: Float, id: UInt32, instrument: Bool)
        case noteOff(id: UInt32)
        case drum(key: Int, gain: Float, kit: Instrument.Kit)
    }
    public var frame: UInt64
    public var action: Action
    /// The global step (segments counted) it belongs to.
    public var step: Int

    public var isNoteOff: Bool { if case .noteOff = action { return true } else { return false } }

    /// The order events are handed to the engine in: by frame, and on one frame note-offs first,
    /// so a repeated or legato note re-attacks instead of being silenced. The sequencer, live
    /// playback and offline renders all sort with it.
    public static func playOrder(_ a: SongEvent, _ b: SongEvent) -> Bool {
        a.frame != b.frame ? a.frame < b.frame : (a.isNoteOff && !b.isNoteOff)
    }
}

/// A note that plays, on the engine's frame clock.
public struct SongSpan: Sendable, Equatable {
    public var hit: SongHit
    public var on: UInt64
    public var off: UInt64
}

/// Turns a song's timeline into frame-exact engine events (the formula is `SongTimeline`'s),
/// computed from each segment's start frame and never accumulated inside a segment.
public struct SongSequencer: Sendable {
    public private(set) var timeline: SongTimeline
    public let sampleRate: Double
    /// Frame of each laid-out segment's start, counted from the music's first frame.
    private var starts: [UInt64]
    /// The engine frame of the music's first frame (moved by `restart` after a pause).
    private var origin: Int64
    private var nextNoteID: UInt32 = 1

    public init(song: Song, sampleRate: Double, loops: Int? = 1, seed: UInt64? = nil, startFrame: UInt64 = 0) {
        timeline = SongTimeline(song: song, loops: loops, seed: seed)
        self.sampleRate = sampleRate
        starts = [0]
        origin = Int64(startFrame)
    }

    public var song: Song { timeline.song }
    public var totalSteps: Int? { timeline.totalSteps }

    func framesPerStep(_ seg: SongSegment) -> Double { sampleRate * 60.0 / (seg.bpm * 4.0) }

    /// Frames per step of the segment holding global step k (past the end: the last one's).
    public mutating func framesPerStep(atStep k: Int) -> Double {
        let i = timeline.segmentIndex(ofStep: k) ?? max(0, timeline.segments.count - 1)
        return timeline.segment(i).map(framesPerStep) ?? sampleRate * 60.0 / (song.bpm * 4.0)
    }

    /// The start frame of segment i (laid out as needed).
    public mutating func startFrame(ofSegment i: Int) -> UInt64 {
        while starts.count <= i {
            let n = starts.count - 1
            guard let seg = timeline.segment(n) else { return starts[n] }
            starts.append(starts[n] + UInt64((Double(seg.steps) * framesPerStep(seg) + 0.5).rounded(.down)))
        }
        return starts[i]
    }

    /// Frame of a position (steps from the start of segment i).
    /// A position before the music (a step counted back from a restart) never goes below frame 0.
    public mutating func frame(segment i: Int, position: Double) -> UInt64 {
        let seg = timeline.segment(i)!
        let offset = Int64((position * framesPerStep(seg) + 0.5).rounded(.down))
        return UInt64(max(0, origin + Int64(startFrame(ofSegment: i)) + offset))
    }

    private func engineFrame(_ musical: UInt64) -> UInt64 { UInt64(max(0, origin + Int64(musical))) }

    /// Moves the music so that global step k starts on `frame` (resume after a pause).
    public mutating func restart(step k: Int, atFrame frame: UInt64) {
        let at = self.frame(ofStep: k)
        origin += Int64(frame) - Int64(at)
    }

    /// The first global step at or after `position` frames of the music's own time (frame 0 its
    /// first step, each entry at its own tempo, swing applied: the frames `render` writes), and
    /// that step's frame in that time: where a transport standing on `position` starts.
    public mutating func firstStep(atOrAfter position: UInt64) -> (step: Int, frame: UInt64) {
        let kept = origin
        defer { origin = kept }
        origin = 0
        var k = step(atFrame: position)
        while frame(ofStep: k) < position && totalSteps.map({ k < $0 }) ?? true { k += 1 }
        return (k, frame(ofStep: k))
    }

    /// The segment holding global step k, and its index (nil past the end).
    public mutating func segment(ofStep k: Int) -> (index: Int, segment: SongSegment)? {
        timeline.segmentIndex(ofStep: k).map { ($0, timeline.segments[$0]) }
    }

    /// Plays `newSong` from global step k on (an editor's change, heard from the next step to be
    /// queued): step k keeps its frame, the steps after it follow the new song's layout and tempo,
    /// and note ids go on counting so a note still sounding is never confused with a new one.
    public mutating func replaceSong(_ newSong: Song, fromStep k: Int, seed: UInt64? = nil) {
        take(prepared(newSong, seed: seed, near: k), fromStep: k)
    }

    /// `newSong` as `replaceSong` would play it, laid out as far as global step k: built apart, so
    /// whoever holds this sequencer under a lock need not wait for the layout (`take` is quick).
    public func prepared(_ newSong: Song, seed: UInt64? = nil, near k: Int) -> SongSequencer {
        var next = SongSequencer(song: newSong, sampleRate: sampleRate, loops: timeline.loops, seed: seed)
        _ = next.frame(ofStep: k)
        return next
    }

    /// Plays `next` (from `prepared`) from global step k on, as `replaceSong` describes.
    public mutating func take(_ next: SongSequencer, fromStep k: Int) {
        let at = frame(ofStep: k)
        var next = next
        next.restart(step: k, atFrame: at)
        next.nextNoteID = nextNoteID
        self = next
    }

    /// Plays on at `bpm` from global step k, which keeps its frame (a tempo key, a followed clock):
    /// the song's tempo, which a chain entry's own gives way to.
    public mutating func setBPM(_ bpm: Double, fromStep k: Int) {
        take(prepared(bpm: bpm, near: k), fromStep: k)
    }

    /// The song at `bpm`, as `setBPM` plays it, laid out as far as global step k (see `prepared`).
    public func prepared(bpm: Double, near k: Int) -> SongSequencer {
        var changed = song
        changed.bpm = bpm
        for i in changed.chain.indices { changed.chain[i].bpm = nil }
        return prepared(changed, seed: timeline.seed, near: k)
    }

    /// The first frame of global step k (swing applied); past the end, the end of the music.
    public mutating func frame(ofStep k: Int) -> UInt64 {
        guard let si = timeline.segmentIndex(ofStep: k) else {
            let n = timeline.segmentCount ?? 0
            return engineFrame(startFrame(ofSegment: n))
        }
        let seg = timeline.segments[si]
        let length = song.patterns[seg.pattern].length
        return frame(segment: si, position: SongTimeline.position(k - seg.firstStep, length: length, swing: seg.swing))
    }

    /// The frame by which step k's notes must be queued: its first frame, or earlier by the
    /// song's earliest micro-timing (a note played ahead of its step).
    public mutating func dueFrame(ofStep k: Int) -> UInt64 {
        let frame = self.frame(ofStep: k)
        guard timeline.earlySteps > 0 else { return frame }
        let ahead = UInt64((timeline.earlySteps * framesPerStep(atStep: k)).rounded(.up))
        return frame > ahead ? frame - ahead : 0
    }

    /// The global step sounding at `frame` (the last starting at or before it; 0 before the first;
    /// past the end of the music, counted on at the last entry's tempo, as a finished run is heard).
    public mutating func step(atFrame frame: UInt64) -> Int {
        var si = 0
        while timeline.segment(si + 1) != nil && engineFrame(startFrame(ofSegment: si + 1)) <= frame { si += 1 }
        guard let seg = timeline.segment(si) else { return 0 }
        let end = engineFrame(startFrame(ofSegment: si + 1))
        if timeline.segment(si + 1) == nil && frame >= end {
            return seg.firstStep + seg.steps + Int(Double(frame - end) / framesPerStep(seg))
        }
        // From the straight-time estimate (a version-1 pattern is one long segment), then exact.
        var k = seg.firstStep
        let start = engineFrame(startFrame(ofSegment: si))
        if frame > start { k += min(seg.steps - 1, Int(Double(frame - start) / framesPerStep(seg))) }
        while k > seg.firstStep && self.frame(ofStep: k) > frame { k -= 1 }
        while k + 1 < seg.firstStep + seg.steps && self.frame(ofStep: k + 1) <= frame { k += 1 }
        return k
    }

    /// Every note of global steps `steps` that plays, with its first and last frame (drums: the
    /// gate the .mid export gives them), in step order: the engine's events and the MIDI output
    /// are both made from these.
    public mutating func spans(forSteps steps: Range<Int>) -> [SongSpan] {
        timeline.hits(forSteps: steps).map { hit in
            let on = frame(segment: hit.segment, position: hit.onPosition)
            let off: UInt64
            if let gate = hit.gateSteps {
                off = on + UInt64((gate * framesPerStep(timeline.segments[hit.segment])).rounded())
            } else {
                off = frame(segment: hit.segment, position: hit.endPosition)
            }
            return SongSpan(hit: hit, on: on, off: off)
        }
    }

    /// Every event of global steps `steps`, in engine order.
    public mutating func events(forSteps steps: Range<Int>) -> [SongEvent] {
        var out: [SongEvent] = []
        for span in spans(forSteps: steps) {
            let hit = span.hit
            let inst = song.instrument(hit.track)
            let gain = hit.velocity.gain * Float(inst.level)
            if hit.track == .rhythm {
                out.append(SongEvent(frame: span.on, action: .drum(key: hit.pitch, gain: gain, kit: inst.kit), step: hit.step))
                continue
            }
            let id = nextNoteID
            nextNoteID = nextNoteID == SongSequencer.lastNoteID ? 1 : nextNoteID + 1
            out.append(
                SongEvent(
                    frame: span.on,
                    action: .noteOn(track: hit.track, pitch: hit.pitch, gain: gain, id: id, instrument: !inst.isClassic),
                    step: hit.step))
            out.append(SongEvent(frame: span.off, action: .noteOff(id: id), step: hit.step))
        }
        out.sort(by: SongEvent.playOrder)
        return out
    }

    /// Note ids stay below the range the editor's auditions use.
    static let lastNoteID: UInt32 = 0xEFFF_FFFF
}

extension AudioEngine {
    /// Queues one song event: a pitched note on its track's voice, a drum on the kit.
    /// Under a song's `tuning` a note sounds at its key's frequency there; a key it leaves
    /// unmapped stays silent (its note-off then ends nothing).
    public func schedule(_ event: SongEvent, referencePitch: Double = 440, tuning: ScalaTuning? = nil) throws(AudioError) {
        switch event.action {
        case .noteOn(let track, let pitch, let gain, let id, let instrument):
            let hz = tuning.map { $0.hz(key: pitch) ?? 0 } ?? Pitch.frequency(midi: Double(pitch), reference: referencePitch)
            guard hz > 0, hz < sampleRate / 2 else { return }
            if instrument {
                try instrumentNoteOn(id: id, slot: track.instrumentSlot, frequency: hz, gain: gain, at: event.frame)
            } else {
                try noteOn(id: id, frequency: hz, gain: gain, at: event.frame, timbre: track.timbre ?? .melody)
            }
        case .noteOff(let id):
            try releaseNote(NoteID(rawValue: id), at: event.frame)
        case .drum(let key, let gain, let kit):
            if kit == .gm {
                try drumHit(key: key, gain: gain, at: event.frame)
            } else {
                try kitHit(kit, key: key, gain: gain, at: event.frame)
            }
        }
    }
}

extension TrackKind {
    /// The engine voice each track plays with.
    public var timbre: Timbre? {
        switch self {
        case .melody: return .melody
        case .chords: return .chords
        case .bass: return .bass
        case .rhythm: return nil
        }
    }
}
