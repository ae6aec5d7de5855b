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

    /// Frames per clock: the mean of the last (up to 24) intervals, which a steady clock's frames
    /// (each rounded to a whole frame) give to within 1/24 frame.
    var period: Double? {
        guard let first = recent.first, let last = recent.last, recent.count >= 2 else { return nil }
        return Double(last - first) / Double(recent.count - 1)
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
/// |P - P0| <= 1/24: under 1.25 frames, so within 1 frame. A step's own clock is heard a cycle
/// after it arrives, so the first two steps of a run (the first has no clock before it, the second
/// no period yet) are skipped rather than played late. A clock lost in an xrun is counted from the
/// gap it leaves (`clocksArriving`).
extension PatternTransport {
    /// Lock held: one message from midi_in.
    func followClock(_ e: boop_transport_event) throws(AudioError) {
        guard var f = clockFollower else { return }
        defer { clockFollower = f }
        switch e.kind {
        case BOOP_TRANSPORT_START:
            try halt()
            f.clock = -1
            f.armed = true
        case BOOP_TRANSPORT_CONTINUE:
            try halt()
            f.armed = true
        case BOOP_TRANSPORT_SONG_POSITION:
            if !f.running { f.clock = 6 * Int(e.song_position) - 1 }
        case BOOP_TRANSPORT_MIDI_STOP:
            try halt()
            f.running = false
            f.armed = false
        case BOOP_TRANSPORT_CLOCK:
            if f.armed {
                f.armed = false
                f.running = true
                f.recent.removeAll()
            }
            guard f.running else { return }
            for frame in f.clocksArriving(at: e.engine_frame) {
                f.clock += 1
                f.recent.append(frame)
                if f.recent.count > MidiClockFollower.window + 1 { f.recent.removeFirst() }
                if f.clock % 6 == 0, let period = f.period { stepArrived(f.clock / 6, atFrame: frame, period: period) }
            }
        default:
            break
        }
    }

    /// Lock held: step `step`'s clock came on `frame`: the next step is placed from it.
    private func stepArrived(_ step: Int, atFrame frame: UInt64, period: Double) {
        _sequencer.setBPM(Self.clampBPM(sampleRate * 60 / (period * 24)), fromStep: step)
        _sequencer.restart(step: step, atFrame: frame)
        stepLimit = step + 2
        if _state != .playing {
            nextStep = step + 1
            midi?.announce(step: nextStep, resume: nextStep != 0)
            _state = .playing
        }
    }
}
