import Glibc

extension PatternTransport {
    /// Everything of the transport that changes, shared by the command's thread and the scheduling
    /// thread and reachable only through the lock box (`sync`). Its methods run with the lock held.
    struct Shared {
        let engine: AudioEngine
        let sampleRate: Double
        /// Steps to play before finishing (nil: loop until stopped).
        let totalSteps: Int?
        /// `--sync jack` or `--sync midi`: the JACK transport or a MIDI clock starts, stops, places
        /// and times the music (+Sync, +Clock); `stepLimit` then bounds the steps queued.
        let following: Bool
        /// JACK: the editor's keyboard, whose notes the playback's midi_in feeds (kept for a reopen).
        let midiKeys: MidiKeyboard?
        /// What `reopen` opens again: the same route and buffer at the same rate.
        let reopenSettings: (route: AudioRoute, periodFrames: Int, periods: Int, adaptive: Bool, gainDB: Double)

        var state = State.ready {
            // What was heard is counted up to every change of course (a pause, a resume, the end).
            willSet { countHeard() }
        }
        /// Frames of the music heard so far, pauses left out, counted up to `heardThrough`.
        var heardFrames: UInt64 = 0
        var heardThrough: UInt64 = 0
        /// What plays: the song's timeline on the engine's frame clock.
        var sequencer: SongSequencer
        var playback: AudioPlayback
        var pending: EventScheduler<SongEvent>
        /// The sequencer's MIDI, when the route has a MIDI output (JACK `--midi-out`).
        var midi: MidiOutScheduler?
        var clockFollower: MidiClockFollower?
        var stepLimit: Int?
        var nextStep = 0
        /// The events as handed to the engine, kept only when a test sets it (not nil).
        var scheduledLog: [SongEvent]?
        var pausedAtStep = 0
        /// Each track's instrument and level for auditions and the keyboard (the editor's song;
        /// empty: the version-1 timbres).
        var mix: [TrackKind: Instrument] = [:]
        /// What a JACK keyboard's notes sound with, as last given to the playback (nil after each open).
        var keysSent: KeysSound?
        /// Channel 10's own sound as last given (nil: none; it sounds as the other channels).
        var drumKeysSent: KeysSound??
        /// What the scheduling thread could not queue (not back-pressure), reported by `tick`.
        var schedulingError: AudioError?
        /// The first step's frame, and the engine's clock when it was queued (`start`).
        var startFrame: UInt64 = 0
        var queuedAtFrame: UInt64 = 0
        var nextAuditionID = PatternTransport.auditionIDs
        /// Audition releases, through the same scheduler with no lookahead: each is sent (to the
        /// immediate lane, stamped now) once the engine's clock has reached the end of its gate.
        var auditions = EventScheduler<AuditionRelease>()
        var soundOpen = false
        /// Under -v: latency growths already announced.
        var announcedGrowths = 0
        /// The metronome's gain while it clicks (a live recording), nil while silent.
        var click: Float?
        /// The engine frame of the last count-in's first click.
        var countInAt: UInt64?

        init(
            engine: AudioEngine, sampleRate: Double, totalSteps: Int?, following: Bool, midiKeys: MidiKeyboard?,
            reopenSettings: (route: AudioRoute, periodFrames: Int, periods: Int, adaptive: Bool, gainDB: Double),
            sequencer: SongSequencer, playback: AudioPlayback, pending: EventScheduler<SongEvent>,
            midi: MidiOutScheduler?, clockFollower: MidiClockFollower?
        ) {
            self.engine = engine
            self.sampleRate = sampleRate
            self.totalSteps = totalSteps
            self.following = following
            self.midiKeys = midiKeys
            self.reopenSettings = reopenSettings
            self.sequencer = sequencer
            self.playback = playback
            self.pending = pending
            self.midi = midi
            self.clockFollower = clockFollower
        }
    }
}

extension PatternTransport.Shared {
    typealias State = PatternTransport.State

    mutating func start(countInBeats: Int = 0) throws(AudioError) {
        guard state == .ready else { return }
        if following { return try waitForTransport() }
        queuedAtFrame = engine.frameClock
        startFrame = queuedAtFrame + UInt64(0.02 * sampleRate)
        nextStep = 0
        clearPending()
        if countInBeats > 0 { countIn(beats: countInBeats) }
        sequencer.restart(step: 0, atFrame: startFrame)
        midi?.announce(step: 0, resume: false)
        try schedule()
        try openSound()
        state = .playing
    }

    mutating func openSound() throws(AudioError) {
        guard !soundOpen else { return }
        try playback.start(engine: engine)
        soundOpen = true
    }

    /// The scheduling thread's step: queues what is due, releases auditions whose gate is over,
    /// and returns the seconds until the next of those is due (nil once stopped).
    mutating func scheduleDue() -> Double? {
        if state == .stopped { return nil }
        guard playback.stats.error == nil, schedulingError == nil else { return SchedulingThread.maxSleepSeconds }
        do {
            try releaseAuditions()
            try followTransport()
            if state == .playing { try schedule() }
        } catch {
            schedulingError = error
        }
        return secondsUntilScheduling()
    }

    /// Seconds until the next step or pending event comes within the lookahead, or an audition's
    /// gate ends.
    private mutating func secondsUntilScheduling() -> Double {
        let clock = engine.frameClock
        var wait = SchedulingThread.maxSleepSeconds
        if state == .playing {
            // Held at `stepLimit` (a MIDI clock's next step not known yet), the 5 ms poll wakes it.
            let reach = heldAtStepLimit ? flushHorizon(pending.horizon(clock: clock)) : UInt64.max
            if totalSteps.map({ nextStep < $0 }) ?? true, !heldAtStepLimit {
                let due = sequencer.dueFrame(ofStep: nextStep)
                wait = min(
                    wait,
                    EventScheduler<SongEvent>.seconds(
                        from: clock, until: due > pending.lookahead ? due - pending.lookahead : 0, sampleRate: sampleRate))
            }
            if let next = pending.secondsUntilDue(clock: clock, sampleRate: sampleRate), pending.nextFrame! < reach {
                wait = min(wait, next)
            }
            if let next = midi?.nextFrame, next < reach {
                let due = next > pending.lookahead ? next - pending.lookahead + 1 : 0
                wait = min(wait, EventScheduler<SongEvent>.seconds(from: clock, until: due, sampleRate: sampleRate))
            }
        }
        if let gate = auditions.nextFrame {
            wait = min(wait, EventScheduler<SongEvent>.seconds(from: clock, until: gate, sampleRate: sampleRate))
        }
        return following ? min(wait, PatternTransport.transportPollSeconds) : wait
    }

    mutating func reopen() throws(AudioError) -> Bool {
        guard soundOpen, playback.stats.error != nil else { return false }
        // The lost device is closed before another opens. For JACK this is what keeps the process
        // alive: a client opened while one of a dead server is still open makes libjack reset its
        // process-wide state (freeing the old client under us), and closing the old one after
        // that tears down the new client's state too (jack_activate then crashed). Closing a
        // closed playback again does nothing, so every try may start here.
        playback.stop()
        let s = reopenSettings
        guard
            let reopened = try? AudioPlayback(
                route: s.route, sampleRate: sampleRate, channels: 2, periodFrames: s.periodFrames,
                periods: s.periods, adaptive: s.adaptive, midiKeys: midiKeys),
            reopened.sampleRate == sampleRate
        else { return false }
        reopened.gainDB = s.gainDB
        keysSent = nil   // a playback opened again forgets the keyboard's sound
        drumKeysSent = nil
        try reopened.start(engine: engine)
        playback = reopened
        return true
    }

    /// Queues every event of the steps that start before the horizon, in play order; with a MIDI
    /// output, their MIDI too.
    mutating func schedule() throws(AudioError) {
        let ahead = pending.horizon(clock: engine.frameClock)
        var events: [SongEvent] = []
        let first = nextStep
        while sequencer.dueFrame(ofStep: nextStep) < ahead, totalSteps.map({ nextStep < $0 }) ?? true,
            stepLimit.map({ nextStep < $0 }) ?? true
        {
            events.append(contentsOf: sequencer.events(forSteps: nextStep..<(nextStep + 1)))
            if let click { metronome(step: nextStep, gain: click, into: &events) }
            nextStep += 1
        }
        if !events.isEmpty { pending.add(events, order: SongEvent.playOrder) }
        let horizon = flushHorizon(ahead)
        let engine = self.engine
        let tuning = sequencer.song.tuning?.keys
        var log = scheduledLog
        defer { scheduledLog = log }
        try pending.flush(before: horizon) { event throws(AudioError) in
            try engine.schedule(event, tuning: tuning)
            log?.append(event)
        }
        guard midi != nil else { return }
        if first < nextStep {
            midi!.add(sequencer.spans(forSteps: first..<nextStep), steps: first..<nextStep, song: &sequencer)
        }
        if first < nextStep, nextStep == totalSteps { midi!.end(atFrame: sequencer.frame(ofStep: nextStep)) }
        let playback = self.playback
        try midi!.flush(before: horizon) { bytes, frame throws(AudioError) in try playback.sendMidi(bytes, at: frame) }
    }

    /// Counts what was heard since the last count, if the music was playing: the frames the device
    /// has played from the first step's frame on. Not yet started, nothing has been heard.
    mutating func countHeard() {
        guard state != .ready else { return (heardFrames, heardThrough) = (0, 0) }
        let frame = playback.audibleFrame
        if state == .playing {
            let from = max(heardThrough, startFrame)
            if frame > from { heardFrames += frame - from }
        }
        heardThrough = max(heardThrough, frame)
    }

    mutating func setPaused(_ paused: Bool) throws(AudioError) {
        switch (state, paused) {
        case (.playing, true):
            state = .paused
            // Never past what was queued: a device that drains faster than real time (a null
            // sink) can report a step that was never scheduled.
            pausedAtStep = min(sequencer.step(atFrame: playback.audibleFrame) + 1, nextStep)
            clearPending()
            try engine.cancelPending(fade: 0.01)
            midiPanic()
        case (.paused, false):
            state = .playing
            nextStep = pausedAtStep
            sequencer.restart(step: nextStep, atFrame: engine.frameClock + UInt64(0.01 * sampleRate))
            midi?.announce(step: nextStep, resume: true)
        default: break
        }
    }

    /// `stop`'s fade: nothing queued any more, everything sounding faded; returns the frame at
    /// which the fade has been heard.
    mutating func fadeOut() -> UInt64 {
        clearPending()
        auditions.removeAll()
        state = .stopped   // the scheduling thread ends at its next step
        try? engine.cancelPending(fade: 0.015)
        midiPanic()
        // An armed transport start holds the engine: let it run on to play the fade.
        if following { playback.armTransport(request: 0, frame: 0) }
        // The engine takes the 15 ms fade at the start of its next block (one period on, if a
        // block is being rendered now): heard once 20 ms past that have reached the listener.
        return engine.frameClock + UInt64(playback.info.periodFrames) + UInt64(0.02 * sampleRate)
    }

    /// Nothing queued any more (stop, pause, a new start).
    mutating func clearPending() { pending.removeAll() }

    /// Whether outside tempos (a JACK transport's, a MIDI clock's) move the music: a version-1
    /// pattern follows them; a song keeps the tempos its chain gives.
    var followsTempo: Bool { sequencer.song.version1 != nil }
}
