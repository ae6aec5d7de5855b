import CAudioEngine

/// Where an incoming MIDI clock stands (`play --sync midi`). Not thread-safe: the transport's lock
/// guards it.
struct MidiClockFollower {
    /// The clocks of the song so far (6 a step): the next clock is `clock + 1`.
    var clock = -1
    /// Start or Continue seen: the next clock runs the music.
    var armed = false
    var running = false
    /// Engine frames of the latest clocks, up to `window + 1` of them.
    var recent: [UInt64] = []
    static let window = 24

    /// The period the clocks before a Start or Continue gave (a device sends clock while stopped):
    /// it stands for the intervals the run has not had yet, as the held engine's frames cannot be
    /// set against the ones before the hold.
    var carried: Double?
    /// The frame of the latest step's own clock.
    var stepFrame: UInt64 = 0

    /// Frames per clock: the mean of the last (up to 24) intervals, which a steady clock's frames
    /// (each rounded to a whole frame) give to within 1/24 frame; intervals not had yet count at
    /// the carried period.
    var period: Double? {
        let n = recent.count - 1
        if let carried, n < Self.window {
            guard n >= 1 else { return carried }
            return (carried * Double(Self.window - n) + Double(recent[n] - recent[0])) / Double(Self.window)
        }
        guard let first = recent.first, let last = recent.last, n >= 1 else { return nil }
        return Double(last - first) / Double(n)
    }

    /// A clock while stopped: only its period is kept (a gap of more than two clocks starts anew).
    mutating func idle(at frame: UInt64) {
        if let p = period, let last = recent.last, frame <= last || Double(frame - last) > 2.5 * p {
            recent.removeAll()
            carried = nil
        }
        for f in clocksArriving(at: frame) { append(f) }
    }

    mutating func append(_ frame: UInt64) {
        recent.append(frame)
        if recent.count > Self.window + 1 { recent.removeFirst() }
    }

    /// Start or Continue on `frame`: the period of the clocks before it, if they ran up to it.
    mutating func carryPeriod(to frame: UInt64) {
        if let p = period, let last = recent.last, frame >= last, Double(frame - last) <= 2 * p {
            carried = p
        } else {
            carried = nil
        }
        recent.removeAll()
    }

    /// The clocks a clock on `frame` stands for: itself, after the ones lost before it (a cycle
    /// the server ran without boop, an xrun, takes its MIDI with it), spread evenly over the gap,
    /// so the count and the period stay right.
    func clocksArriving(at frame: UInt64) -> [UInt64] {
        guard let p = period, let last = recent.last, frame > last else { return [frame] }
        let n = max(1, Int((Double(frame - last) / p).rounded()))
        return (1...n).map { last + UInt64((Double(frame - last) * Double($0) / Double(n)).rounded()) }
    }
}

/// `play --sync midi`: the music follows a MIDI clock arriving on `boop:midi_in` (24 a quarter
/// note, so 6 a step), with Start (from the beginning), Stop, Continue and Song Position Pointer.
/// The process callback stamps each message with its engine frame; here, on every sixth clock (a
/// step's own, step s on frame f), the tempo becomes the smoothed clock period P (the mean
/// interval of the last 24 clocks) and the sequencer is anchored there, so the next step, s + 1,
/// is queued for f + round(6 P): only one step ahead (`stepLimit`), so each step's frame is
/// predicted from the clock of the step before it. For a steady clock (clock k on round(k P0)),
/// each prediction is off by at most 0.5 (f's rounding) + 0.5 (the prediction's) + 6 |P - P0| with
/// |P - P0| <= 1/24: under 1.25 frames, so within 1 frame. A step's own clock is seen a cycle
/// after it arrives, so a run's first step is placed by the process thread instead: Start and
/// Continue hold the engine on frame A until the next clock, which releases it on its own frame;
/// here that step is queued for A and armed meanwhile (`prepareHeld`; armed too late, it is
/// skipped). The second step comes from the period of the clocks before Start (`carried`), or of
/// the run's first clocks. A clock lost in an xrun is counted from the gap it leaves
/// (`clocksArriving`).
extension PatternTransport.Shared {
    /// One message from midi_in.
    mutating func followClock(_ e: boop_transport_event) throws(AudioError) {
        guard var f = clockFollower else { return }
        defer { clockFollower = f }
        switch e.kind {
        case BOOP_TRANSPORT_START, BOOP_TRANSPORT_CONTINUE:
            try halt()
            if e.kind == BOOP_TRANSPORT_START { f.clock = -1 }
            f.armed = true
            f.running = false
            f.carryPeriod(to: e.engine_frame)
            if (f.clock + 1) % 6 == 0 {
                try prepareHeld(step: (f.clock + 1) / 6, atFrame: e.engine_frame, request: e.request, period: f.carried)
            }
        case BOOP_TRANSPORT_SONG_POSITION:
            if !f.running { f.clock = 6 * Int(e.song_position) - 1 }
        case BOOP_TRANSPORT_MIDI_STOP:
            try halt()
            f.running = false
            f.armed = false
            f.carried = nil
        case BOOP_TRANSPORT_CLOCK:
            try clockArrived(e, &f)
        default:
            break
        }
    }

    /// A Clock; the first after Start or Continue lands on the held engine frame.
    private mutating func clockArrived(_ e: boop_transport_event, _ f: inout MidiClockFollower) throws(AudioError) {
        if f.armed {
            f.armed = false
            f.running = true
            // Queued too late for the held frame (or not at all): the step is skipped as below.
            if e.prepared == 0 && state == .playing { try halt() }
        }
        guard f.running else { return f.idle(at: e.engine_frame) }
        for frame in f.clocksArriving(at: e.engine_frame) {
            f.clock += 1
            f.append(frame)
            let step = f.clock / 6
            if f.clock % 6 == 0 { f.stepFrame = frame }
            guard let period = f.period else { continue }
            if f.clock % 6 == 0 {
                stepArrived(step, atFrame: frame, period: period)
            } else if state == .playing && stepLimit == step + 1 && nextStep == step + 1
                && lastChance(due: f.stepFrame + UInt64(6 * period), period: period)
            {
                // A run started without a period: its second step, from the clocks so far.
                stepArrived(step, atFrame: f.stepFrame, period: period)
            }
        }
    }

    /// How far a flush may reach. The engine takes its events first in, first out, so
    /// one sent ahead of an earlier one holds that one back until its own frame. Following a MIDI
    /// clock only the steps up to `stepLimit` are queued; an event already pending past the next
    /// step still to come (a long note's note-off, with the MIDI output's 200 ms lookahead longer
    /// than a step) waits until that step is queued, a quarter step early to cover the prediction
    /// (the step comes from a later clock). Events due within the last-chance margin always go, so
    /// a clock that stops or slows leaves no note hanging.
    mutating func flushHorizon(_ horizon: UInt64) -> UInt64 {
        guard heldAtStepLimit else { return horizon }
        let next = Double(sequencer.frame(ofStep: nextStep)) - sequencer.framesPerStep(atStep: nextStep) / 4
        let soon = Double(engine.frameClock) + 2 * Double(playback.info.bufferFrames) + 0.01 * sampleRate
        return min(horizon, UInt64(max(next, soon, 0)))
    }

    /// The next step waits for a clock (queued up to `stepLimit`, more to come).
    var heldAtStepLimit: Bool {
        guard let stepLimit, nextStep >= stepLimit else { return false }
        return totalSteps.map { nextStep < $0 } ?? true
    }

    /// The next clock might be seen too late to queue a step due on `due`.
    private mutating func lastChance(due: UInt64, period: Double) -> Bool {
        let margin = 2 * Double(playback.info.bufferFrames) + 0.01 * sampleRate
        return Double(engine.frameClock) + period + margin >= Double(due)
    }

    /// Start or Continue held the engine on `frame` until the next clock: step `step`
    /// (and the one after it, when the clocks before gave a period) is queued there and armed. If
    /// the clock came first (the engine runs on past `frame`), the step is skipped.
    private mutating func prepareHeld(step: Int, atFrame frame: UInt64, request: UInt32, period: Double?) throws(AudioError) {
        guard engine.frameClock <= frame else { return }
        if let period { sequencer.setBPM(PatternTransport.clampBPM(sampleRate * 60 / (period * 24)), fromStep: step) }
        sequencer.restart(step: step, atFrame: frame)
        nextStep = step
        stepLimit = step + (period == nil ? 1 : 2)
        midi?.announce(step: step, resume: step != 0)
        state = .playing
        try schedule()
        playback.armTransport(request: request, frame: frame)
    }

    /// Step `step`'s clock came on `frame`: the next step is placed from it.
    private mutating func stepArrived(_ step: Int, atFrame frame: UInt64, period: Double) {
        sequencer.setBPM(PatternTransport.clampBPM(sampleRate * 60 / (period * 24)), fromStep: step)
        sequencer.restart(step: step, atFrame: frame)
        stepLimit = step + 2
        if state != .playing {
            nextStep = step + 1
            midi?.announce(step: nextStep, resume: nextStep != 0)
            state = .playing
        }
    }
}
