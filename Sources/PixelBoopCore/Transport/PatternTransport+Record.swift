import Glibc

/// Where the music is at one engine frame, as a live recording places a note played there: the
/// step nearest the frame and how far from it the frame lies.
public struct PlayedPosition: Sendable, Equatable {
    public var entry: Int
    /// The pattern (an index in `Song.patterns`).
    public var pattern: Int
    /// Steps from the chain entry's start to the nearest step (a track takes it modulo its own
    /// length, so a polymeter track's notes land where its loop is).
    public var entryStep: Int
    /// The global step where this pass of the pattern began: tells one pass from the next.
    public var pass: Int
    /// From the nearest step's first frame to the frame, in steps (-0.5 ..< 0.5).
    public var offset: Double
    public var framesPerStep: Double
}

/// Live recording's part of the transport: a count-in, the metronome, and the position of a
/// played note.
extension PatternTransport {
    /// The metronome's sound: the 808's rim shot (a short 1.7 kHz tone, heard over any mix), the
    /// pattern's first step louder.
    static let clickKey = 37
    static let clickKit = Instrument.Kit(rawValue: "808")!

    /// Starts the music after `countInBeats` beats (quarter notes at the first entry's tempo) of
    /// metronome clicks, at the metronome's level, or at once when it is 0.
    public func start(countInBeats: Int) throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in try s.start(countInBeats: countInBeats) }
        try openSound()   // starts the scheduling thread, as `start` does
    }

    /// The metronome clicks on every beat (each fourth step of the pattern) at `gain` (0 ... 1),
    /// from the next step queued; nil silences it.
    public func setClick(_ gain: Float?) { sync.locked { $0.click = gain.map { min(1, max(0, $0)) } } }

    /// The engine frame of the last count-in's first click (nil: no count-in clicked), where a
    /// voice recording measures its capture's latency.
    public var countInClick: UInt64? { sync.locked { $0.countInAt } }

    /// The step nearest engine frame `frame` while the music plays (nil when stopped, before the
    /// first step by more than half a step, or past the end).
    public func position(atFrame frame: UInt64) -> PlayedPosition? {
        sync.locked { s in
            guard s.state == .playing else { return nil }
            return s.sequencer.position(atFrame: frame)
        }
    }

    /// The engine frame the listener heard when a note arrived at `arrivalNanoseconds`
    /// (CLOCK_MONOTONIC): the frame heard now, less the time since it arrived. For a keyboard on
    /// the ALSA sequencer, whose notes carry their arrival time and no frame.
    public func heardFrame(arrivalNanoseconds: UInt64) -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let now = UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
        let ago = Double(now > arrivalNanoseconds ? now - arrivalNanoseconds : 0) / 1e9
        let heard = audibleFrame
        let back = UInt64(ago * sampleRate)
        return heard > back ? heard - back : 0
    }
}

extension PatternTransport.Shared {
    /// The count-in's clicks before the first step, which moves on by as many beats.
    mutating func countIn(beats: Int) {
        let beat = 4 * sequencer.framesPerStep(atStep: 0)
        let gain = click ?? 0
        var clicks: [SongEvent] = []
        for i in 0..<beats where gain > 0 {
            let frame = startFrame + UInt64((Double(i) * beat).rounded())
            let accent: Float = i == 0 ? 1 : 0.6
            clicks.append(
                SongEvent(
                    frame: frame,
                    action: .drum(key: PatternTransport.clickKey, gain: gain * accent, kit: PatternTransport.clickKit),
                    step: 0))
        }
        countInAt = clicks.isEmpty ? nil : startFrame
        startFrame += UInt64((Double(beats) * beat).rounded())
        if !clicks.isEmpty { pending.add(clicks, order: SongEvent.playOrder) }
    }

    /// A click on global step k when it starts a beat of its pattern (the pattern's first step
    /// louder), at the step's frame.
    mutating func metronome(step k: Int, gain: Float, into events: inout [SongEvent]) {
        guard gain > 0, let (_, seg) = sequencer.segment(ofStep: k) else { return }
        let local = (k - seg.firstStep) % sequencer.song.patterns[seg.pattern].length
        guard local % 4 == 0 else { return }
        let accent: Float = local == 0 ? 1 : 0.6
        events.append(
            SongEvent(
                frame: sequencer.frame(ofStep: k),
                action: .drum(key: PatternTransport.clickKey, gain: gain * accent, kit: PatternTransport.clickKit),
                step: k))
    }
}

extension SongSequencer {
    /// The step nearest `frame` and how far the frame lies from it (see `PlayedPosition`).
    public mutating func position(atFrame frame: UInt64) -> PlayedPosition? {
        let k = step(atFrame: frame)
        let here = self.frame(ofStep: k)
        let next = self.frame(ofStep: k + 1)
        let nearest = frame >= here && frame - here >= (next > frame ? next - frame : 0) ? k + 1 : k
        if let totalSteps, nearest >= totalSteps { return nil }
        guard let (_, seg) = segment(ofStep: nearest) else { return nil }
        let perStep = framesPerStep(atStep: nearest)
        let offset = (Double(frame) - Double(self.frame(ofStep: nearest))) / perStep
        guard offset >= -0.5 && offset < 0.5 else { return nil }
        let length = song.patterns[seg.pattern].length
        let local = nearest - seg.firstStep
        return PlayedPosition(
            entry: seg.entry, pattern: seg.pattern, entryStep: local, pass: seg.firstStep + local / length * length,
            offset: offset, framesPerStep: perStep)
    }
}
