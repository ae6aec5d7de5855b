import CAudioEngine

/// `play --sync jack`: the music follows the JACK transport, as Hydrogen and seq66 do. The
/// process callback reports each change with the engine frame of the cycle it was seen in
/// (`boop_transport_event`); this side, on the scheduling thread, re-anchors the sequencer there.
///
/// Position comes from the transport frame: at the tempo in force, step k lies on transport frame
/// floor(k x rate x 60 / (bpm x 4) + 0.5), so the music's time zero is the transport's frame 0.
/// When the transport rolls from frame F, seen on engine frame E, the first step at or after F,
/// k0 on transport frame T0, is played on engine frame E + (T0 - F), and step k on
/// E + (T0 - F) + floor((k - k0) x rate x 60 / (bpm x 4) + 0.5): the sequencer's own formula,
/// anchored there. The tempo is the timebase master's BBT tempo when it gives one, else the
/// pattern's; a change while rolling takes effect from the next step to be queued. Stop pauses
/// (queued notes dropped, note-offs and Stop sent); a move while rolling starts over from there.
/// The transport is read only once a cycle has passed, so a step due within the first moments
/// after the start (the scheduling thread's poll, `transportPollSeconds`, and the cycle) is
/// skipped rather than played late: with the MIDI output's lookahead every later one is exact.
extension PatternTransport {
    /// How often the scheduling thread looks for transport changes while following.
    static let transportPollSeconds = 0.005

    /// Lock held: `start` when following: the sound opens, the music waits for the transport.
    func waitForTransport() throws(AudioError) {
        try openSoundLocked()
        _state = .paused
    }

    /// Lock held: acts on the transport changes reported since the last call.
    func followTransport() throws(AudioError) {
        guard following, _state != .stopped, _state != .ready else { return }
        while let e = playback.nextTransportEvent() {
            switch e.kind {
            case BOOP_TRANSPORT_ROLLING:
                try halt()
                roll(from: e)
            case BOOP_TRANSPORT_STOPPED:
                try halt()
            case BOOP_TRANSPORT_TEMPO:
                if e.bpm > 0 && _state == .playing { _sequencer.setBPM(Self.clampBPM(e.bpm), fromStep: nextStep) }
            default:
                try followClock(e)
            }
        }
    }

    static func clampBPM(_ bpm: Double) -> Double {
        min(max(bpm, Pattern.bpmRange.lowerBound), Pattern.bpmRange.upperBound)
    }

    /// Lock held: what a pause does: the queued events dropped, the sound faded, every MIDI note ended.
    func halt() throws(AudioError) {
        guard _state == .playing else { return }
        pending.removeAll()
        try engine.cancelPending(fade: 0.01)
        midiPanic()
        _state = .paused
    }

    /// Lock held: the transport rolls from `e.transport_frame`, seen at engine frame `e.engine_frame`.
    private func roll(from e: boop_transport_event) {
        if e.bpm > 0 { _sequencer.setBPM(Self.clampBPM(e.bpm), fromStep: nextStep) }
        let perStep = _sequencer.framesPerStep
        let f = Double(e.transport_frame)
        let at = { (k: Int) -> Double in (Double(k) * perStep + 0.5).rounded(.down) }
        var k = max(0, Int((f / perStep).rounded(.down)))
        while at(k) < f { k += 1 }
        while k > 0 && at(k - 1) >= f { k -= 1 }
        let startEngine = e.engine_frame + UInt64(at(k) - f)
        // Steps the engine has already rendered past (the transport started before it was seen).
        var skip = 0
        let clock = engine.frameClock
        while startEngine + UInt64((Double(skip) * perStep + 0.5).rounded(.down)) < clock { skip += 1 }
        _sequencer.restart(step: k, atFrame: startEngine)
        nextStep = k + skip
        midi?.announce(step: nextStep, resume: nextStep != 0)
        _state = .playing
    }
}
