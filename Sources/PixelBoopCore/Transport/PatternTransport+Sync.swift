import CAudioEngine

extension PatternTransport {
    /// How often the scheduling thread looks for transport changes while following.
    static let transportPollSeconds = 0.005

    static func clampBPM(_ bpm: Double) -> Double {
        min(max(bpm, Song.bpmRange.lowerBound), Song.bpmRange.upperBound)
    }
}

/// `play --sync jack`: the music follows the JACK transport, as Hydrogen and seq66 do. The
/// process callback reports each change with the engine frame of the cycle it was seen in
/// (`boop_transport_event`); this side, on the scheduling thread, re-anchors the sequencer there.
///
/// Position comes from the transport frame: at the tempo in force, step k lies on transport frame
/// floor(k x rate x 60 / (bpm x 4) + 0.5), so the music's time zero is the transport's frame 0 (a
/// song: its chain's own time, each entry at its tempo, the frames `render` writes). The tempo of
/// a pattern is the timebase master's BBT tempo when it gives one, else the pattern's; a change
/// while rolling takes effect from the next step to be queued. A song keeps its entries' tempi.
///
/// boop is a slow-sync client, so no step of a run is skipped. The transport starting (or moved)
/// from frame F: the first step at or after F, k0 on transport frame T0, is queued for engine
/// frame A + (T0 - F), where A lies a cycle and 20 ms ahead of the engine (time for the pause's
/// fade), every step k on A + (Tk - F), Tk its transport frame; then (request, A) is
/// armed. The process thread renders up to A, holds the engine there and tells JACK it is ready;
/// the transport's frame F is the engine's A whenever it rolls. A roll boop did not prepare (the
/// transport already rolling when boop came, or a sync timeout) re-anchors on the frame it was seen
/// on, skipping what the engine has already rendered past. Stop pauses (queued notes dropped,
/// note-offs and Stop sent); the process thread keeps the MIDI output quiet from the cycle it saw
/// the stop in until `halt` has sent its panic and withdrawn the arm.
extension PatternTransport.Shared {
    /// `start` when following: the sound opens, the music waits for the transport.
    mutating func waitForTransport() throws(AudioError) {
        try openSound()
        state = .paused
    }

    /// Acts on the transport changes reported since the last call.
    mutating func followTransport() throws(AudioError) {
        guard following, state != .stopped, state != .ready else { return }
        while let e = playback.nextTransportEvent() {
            switch e.kind {
            case BOOP_TRANSPORT_STARTING:
                try halt()
                try prepare(e)
            case BOOP_TRANSPORT_ROLLING:
                guard e.prepared == 0 || state != .playing else { continue }
                try halt()
                roll(from: e)
            case BOOP_TRANSPORT_STOPPED:
                try halt()
            case BOOP_TRANSPORT_TEMPO:
                if e.bpm > 0 && state == .playing && followsTempo {
                    sequencer.setBPM(PatternTransport.clampBPM(e.bpm), fromStep: nextStep)
                }
            default:
                try followClock(e)
            }
        }
    }

    /// What a pause does: the queued events dropped, the sound faded, every MIDI note
    /// ended; an armed start withdrawn (after the cancel, so the engine never plays its events, and
    /// after the panic: the MIDI output, silent since the transport stopped, sends it and goes on).
    mutating func halt() throws(AudioError) {
        guard state == .playing else {
            // Nothing queued: the withdrawal only tells the process thread the stop was seen.
            if following { playback.armTransport(request: 0, frame: 0) }
            return
        }
        pending.removeAll()
        try engine.cancelPending(fade: 0.01)
        midiPanic()
        if following { playback.armTransport(request: 0, frame: 0) }
        state = .paused
    }

    /// The transport waits to start from `e.transport_frame`: the run is queued from an
    /// engine frame ahead, then armed (the process thread holds the engine there until it rolls).
    private mutating func prepare(_ e: boop_transport_event) throws(AudioError) {
        let at = engine.frameClock + UInt64(playback.info.bufferFrames) + UInt64(0.02 * sampleRate)
        anchor(transportFrame: e.transport_frame, bpm: e.bpm, atEngineFrame: at)
        state = .playing
        try schedule()
        playback.armTransport(request: e.request, frame: at)
    }

    /// The transport rolls from `e.transport_frame`, seen at engine frame `e.engine_frame`,
    /// without a prepared run: the steps the engine has already rendered past are skipped.
    private mutating func roll(from e: boop_transport_event) {
        anchor(transportFrame: e.transport_frame, bpm: e.bpm, atEngineFrame: e.engine_frame)
        let clock = engine.frameClock
        while sequencer.frame(ofStep: nextStep) < clock && totalSteps.map({ nextStep < $0 }) ?? true { nextStep += 1 }
        midi?.announce(step: nextStep, resume: nextStep != 0)
        state = .playing
    }

    /// Transport frame `transportFrame` is heard on engine frame `engine`: the first step
    /// at or after it is placed there (nextStep) and the music announced from it.
    private mutating func anchor(transportFrame: UInt32, bpm: Double, atEngineFrame engine: UInt64) {
        let f = UInt64(transportFrame)
        if bpm > 0 && followsTempo { sequencer.setBPM(PatternTransport.clampBPM(bpm), fromStep: nextStep) }
        let (k, t) = sequencer.firstStep(atOrAfter: f)
        sequencer.restart(step: k, atFrame: engine + (t - f))
        nextStep = k
        midi?.announce(step: nextStep, resume: nextStep != 0)
    }
}
