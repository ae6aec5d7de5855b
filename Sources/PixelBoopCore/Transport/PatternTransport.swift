import FoundationEssentials
import Glibc

/// Live playback of a song (a version-1 pattern is a one-pattern song): owns the engine and the
/// device, queues frame-stamped events a little ahead of the engine's clock (lookahead scheduling,
/// so a late wake-up of the control thread never moves a note), pauses, resumes, changes tempo or
/// the song at a step, reports what
/// the listener hears, and stops with a fade. Its events go through the one `EventScheduler`,
/// flushed by a `SchedulingThread` of its own, so a command's loop blocked in a terminal write
/// or a slow redraw never delays a note. Commands call `tick` to learn of the end and of a lost
/// device, and wait `secondsUntilDue` for that; they keep only arguments, keys and the view.
///
/// Thread safety: `@unchecked Sendable` because every stored `var` is touched only inside
/// `sync.locked` (the command's thread and the scheduling thread share it); the audio runs on the
/// engine's C++ I/O thread, which takes no lock (the engine's event queue is lock-free, and its
/// one producer is whoever holds the lock).
public final class PatternTransport: @unchecked Sendable {
    public enum State: Equatable, Sendable {
        case ready   // created, not started
        case playing
        case paused
        case finished   // the requested loops have been heard
        case stopped   // faded out and closed
    }

    public var state: State { sync.locked { _state } }
    var _state = State.ready
    /// What plays: the song's timeline on the engine's frame clock.
    var sequencer: SongSequencer
    let sync = SchedulingThread()   // internal, as engine, playback, midi and mix: the +Mix extension
    let engine: AudioEngine
    var playback: AudioPlayback
    /// What `reopenDevice` opens again: the same route and buffer at the same rate.
    private let reopenSettings: (route: AudioRoute, periodFrames: Int, periods: Int, adaptive: Bool, gainDB: Double)
    var pending: EventScheduler<SongEvent>
    /// The sequencer's MIDI, when the route has a MIDI output (JACK `--midi-out`).
    var midi: MidiOutScheduler?
    /// `--sync jack` or `--sync midi`: the JACK transport or a MIDI clock starts, stops, places and
    /// times the music (+Sync, +Clock); `stepLimit` then bounds the steps queued.
    let following: Bool
    var clockFollower: MidiClockFollower?
    var stepLimit: Int?
    var nextStep = 0
    /// Steps handed to the engine so far (for tests).
    var scheduledSteps: Int { sync.locked { nextStep } }
    /// The events as handed to the engine, kept only when a test sets it (not nil).
    var scheduledLog: [SongEvent]?
    private var pausedAtStep = 0
    /// Each track's instrument and level for auditions and the keyboard (the editor's song; empty:
    /// the version-1 timbres).
    var mix: [TrackKind: Instrument] = [:]
    /// What a JACK keyboard's notes sound with, as last given to the playback (nil after each open).
    var keysSent: KeysSound?
    /// JACK: the editor's keyboard, whose notes the playback's midi_in feeds (kept for a reopen).
    let midiKeys: MidiKeyboard?
    /// What the scheduling thread could not queue (not back-pressure), reported by `tick`.
    private var schedulingError: AudioError?
    /// Steps to play before finishing (nil: loop until stopped).
    public let totalSteps: Int?
    public let sampleRate: Double
    /// The first step's frame and when it was queued: for the trigger-to-output latency.
    public var startFrame: UInt64 { sync.locked { _startFrame } }
    private var _startFrame: UInt64 = 0
    /// The engine's clock when the first step was queued (`start`).
    private var queuedAtFrame: UInt64 = 0

    /// Opens the device (the engine runs at the rate ALSA grants) and prepares the engine.
    /// `loops` nil plays until stopped. Throws `deviceUnavailable` (69) when the device cannot open.
    public convenience init(
        pattern: Pattern, device: String, sampleRate: Double = 44100, voices: Int = 8,
        periodFrames: Int = 128, periods: Int = 3, adaptive: Bool = true, gainDB: Double = 0,
        loops: Int? = nil
    ) throws(AudioError) {
        try self.init(
            song: Song(version1: pattern), route: AudioRoute(device: device), sampleRate: sampleRate, voices: voices,
            periodFrames: periodFrames, periods: periods, adaptive: adaptive, gainDB: gainDB, loops: loops)
    }

    /// As above, on any route (an ALSA PCM or a JACK client, whose server sets the rate). A song
    /// plays its chain `loops` times (for ever when nil), note for note as `render` with the same seed.
    public init(
        song: Song, route: AudioRoute, sampleRate: Double = 44100, voices: Int = 8,
        periodFrames: Int = 128, periods: Int = 3, adaptive: Bool = true, gainDB: Double = 0,
        loops: Int? = nil, midiClock: Bool = false, seed: UInt64? = nil, midiKeys: MidiKeyboard? = nil
    ) throws(AudioError) {
        self.midiKeys = midiKeys
        midi = route.midiOut ? MidiOutScheduler(clock: midiClock) : nil
        following = route.followTransport || route.followMidiClock
        clockFollower = route.followMidiClock ? MidiClockFollower() : nil
        // Stereo: every device and the plug layer take it; the voices sit in the centre.
        playback = try AudioPlayback(
            route: route, sampleRate: sampleRate, channels: 2,
            periodFrames: periodFrames, periods: periods, adaptive: adaptive, midiKeys: midiKeys)
        playback.gainDB = gainDB
        reopenSettings = (route, periodFrames, periods, adaptive, gainDB)
        let info = playback.info
        engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: info.sampleRate, voices: voices, maxBlockFrames: 4096, queueCapacity: 1 << 15, channels: 2))
        sequencer = SongSequencer(song: song, sampleRate: info.sampleRate, loops: loops, seed: seed)
        self.sampleRate = info.sampleRate
        // 40 ms ahead of the render clock (plus one buffer): far more than a control thread's
        // wake-up jitter, short enough that tempo changes feel immediate. With a MIDI output,
        // 200 ms: external gear must never get a late event, even from a machine under heavy
        // load (a tempo change then takes effect up to 200 ms later; pause and stop stay immediate).
        let ahead = route.midiOut ? 0.2 : 0.04
        pending = EventScheduler(lookahead: UInt64(ahead * info.sampleRate) + UInt64(info.bufferFrames))
        totalSteps = sequencer.totalSteps
        try engine.prepare(song: song, at: 0)
    }

    deinit { sync.end() }

    public var info: PlaybackInfo { sync.locked { playback.info } }
    /// The device's name for messages: the ALSA PCM, or "jack:<client>".
    public var device: String { sync.locked { playback.device } }
    public var stats: PlaybackStats { sync.locked { playback.stats } }
    public var droppedEvents: UInt64 { engine.droppedEvents }
    /// The deepest gain reduction of the output stage's limiter since the last call, in dB (0:
    /// it did nothing).
    public func takeLimiterReductionDB() -> Double { sync.locked { playback.takeLimiterReductionDB() } }
    /// The frame the listener hears now.
    public var audibleFrame: UInt64 { sync.locked { playback.audibleFrame } }
    /// The step the listener hears now (may be negative before the first).
    public var audibleStep: Int { sync.locked { stepLocked(atFrame: playback.audibleFrame) } }

    /// Starts the music a few milliseconds from now, so the first step is queued in time.
    public func start() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            guard _state == .ready else { return }
            if following { return try waitForTransport() }
            queuedAtFrame = engine.frameClock
            _startFrame = queuedAtFrame + UInt64(0.02 * sampleRate)
            nextStep = 0
            clearPending()
            restartLocked(step: 0, atFrame: _startFrame)
            midi?.announce(step: 0, resume: false)
            try schedule()
            try openSoundLocked()
            _state = .playing
        }
        startScheduling()
    }

    /// Starts the device without the music, so `audition` sounds at once (an editor before its
    /// first play). `start` does it when needed.
    public func openSound() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in try openSoundLocked() }
        startScheduling()
    }

    func openSoundLocked() throws(AudioError) {
        guard !soundOpen else { return }
        try playback.start(engine: engine)
        soundOpen = true
    }

    /// The scheduling thread, once the sound is open; it holds the transport only while it works.
    private func startScheduling() {
        sync.start(name: "boop pattern scheduler") { [weak self] in self?.scheduleDue() }
        sync.wake()
    }

    /// The scheduling thread's step (lock held): queues what is due, releases auditions whose
    /// gate is over, and returns the seconds until the next of those is due (nil once stopped).
    private func scheduleDue() -> Double? {
        if _state == .stopped { return nil }
        guard playback.stats.error == nil, schedulingError == nil else { return SchedulingThread.maxSleepSeconds }
        do {
            try releaseAuditions()
            try followTransport()
            if _state == .playing { try schedule() }
        } catch {
            schedulingError = error
        }
        return secondsUntilScheduling()
    }

    /// Lock held: seconds until the next step or pending event comes within the lookahead, or an
    /// audition's gate ends.
    private func secondsUntilScheduling() -> Double {
        let clock = engine.frameClock
        var wait = SchedulingThread.maxSleepSeconds
        if _state == .playing {
            // Held at `stepLimit` (a MIDI clock's next step not known yet), the 5 ms poll wakes it.
            let reach = heldAtStepLimit ? flushHorizon(pending.horizon(clock: clock)) : UInt64.max
            if totalSteps.map({ nextStep < $0 }) ?? true, !heldAtStepLimit {
                let due = frameLocked(ofStep: nextStep)
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
        return following ? min(wait, Self.transportPollSeconds) : wait
    }

    /// How often a lost device is worth trying again.
    public static let reopenInterval = 1.0

    /// After `tick` threw `deviceLost`: tries once to open the device again at the same rate and,
    /// when it is back, plays on where the engine stopped (the music's clock is the engine's,
    /// which stood still meanwhile). False while it is still missing or offers another rate;
    /// throws when it opens but cannot start.
    public func reopenDevice() throws(AudioError) -> Bool {
        let reopened = try sync.locked { () throws(AudioError) -> Bool in try reopenLocked() }
        if reopened { sync.wake() }
        return reopened
    }

    private func reopenLocked() throws(AudioError) -> Bool {
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
        try reopened.start(engine: engine)
        playback = reopened
        return true
    }

    /// Stops the loop but keeps the device open (an editor's stop): what was queued is discarded
    /// and what sounds fades within 20 ms. `start` plays again from the first step.
    public func stopLoop() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            guard _state == .playing || _state == .paused || _state == .finished else { return }
            clearPending()
            try engine.cancelPending(fade: 0.015)
            midiPanic()
            auditions.removeAll()
            _state = .ready
        }
    }

    /// The engine frame at which the last audition was queued (its first sample is in the block
    /// after it), for measuring tap-to-sound.
    public var frameClock: UInt64 { engine.frameClock }

    // Auditions number their notes apart from the sequencer's (which counts up from 1), and are
    // released by the scheduling thread when their gate is over, through the immediate lane too.
    static let auditionIDs: UInt32 = 0xF000_0000
    var nextAuditionID = PatternTransport.auditionIDs
    /// Audition releases, through the same scheduler with no lookahead: each is sent (to the
    /// immediate lane, stamped now) once the engine's clock has reached the end of its gate.
    var auditions = EventScheduler<AuditionRelease>()
    struct AuditionRelease: FrameStamped {
        let frame: UInt64
        let id: UInt32
    }
    private var soundOpen = false

    /// Once the first step has been heard: how far ahead of the engine's clock it was queued
    /// (`lead`) and the device's delay between the engine and the listener (`device`), in seconds,
    /// both counted in frames (the first step heard `lead + device` after it was queued). The
    /// wall clock is not used: the command loop may look long after the note sounded.
    public var measuredLatency: (lead: Double, device: Double)? {
        sync.locked {
            guard _state != .ready, playback.audibleFrame >= _startFrame else { return nil }
            let delay = max(playback.stats.delayFrames, 0)
            return (Double(_startFrame - queuedAtFrame) / sampleRate, Double(delay) / sampleRate)
        }
    }

    /// The command loop's part: notices the end of the requested loops, a lost device (thrown as
    /// `deviceLost`) and what the scheduling thread could not queue. The queuing itself is the
    /// scheduling thread's, so a late or blocked call never moves a note.
    public func tick() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            if let error = playback.stats.error { throw error }
            if let schedulingError { throw schedulingError }
            guard _state == .playing else { return }
            if let totalSteps, playback.audibleFrame >= frameLocked(ofStep: totalSteps) { _state = .finished }
        }
    }

    /// How long the command loop may sleep before `tick` has news: the end of the requested loops
    /// being heard (capped by `atMost`, for a view's refresh and the keys).
    public func secondsUntilDue(atMost: Double = 1.0 / 60) -> Double {
        sync.locked {
            guard _state == .playing, let totalSteps else { return atMost }
            let end = frameLocked(ofStep: totalSteps)
            let heard = playback.audibleFrame
            return min(max(end > heard ? Double(end - heard) / sampleRate : 0, 0.002), atMost)
        }
    }

    /// Lock held: queues every event of the steps that start before the horizon, in play order;
    /// with a MIDI output, their MIDI too.
    func schedule() throws(AudioError) {
        let ahead = pending.horizon(clock: engine.frameClock)
        var events: [SongEvent] = []
        let first = nextStep
        while sequencer.frame(ofStep: nextStep) < ahead, totalSteps.map({ nextStep < $0 }) ?? true,
            stepLimit.map({ nextStep < $0 }) ?? true
        {
            events.append(contentsOf: sequencer.events(forSteps: nextStep..<(nextStep + 1)))
            nextStep += 1
        }
        if !events.isEmpty { pending.add(events, order: SongEvent.playOrder) }
        let horizon = flushHorizon(ahead)
        try pending.flush(before: horizon) { event throws(AudioError) in
            try engine.schedule(event)
            scheduledLog?.append(event)
        }
        guard midi != nil else { return }
        if first < nextStep {
            midi!.add(sequencer.spans(forSteps: first..<nextStep), steps: first..<nextStep, song: &sequencer)
        }
        if first < nextStep, nextStep == totalSteps { midi!.end(atFrame: sequencer.frame(ofStep: nextStep)) }
        let playback = self.playback
        try midi!.flush(before: horizon) { bytes, frame throws(AudioError) in try playback.sendMidi(bytes, at: frame) }
    }

    /// Pauses (the queued events are discarded and the sound fades in 10 ms) or resumes on the
    /// step after the one heard when pausing.
    public func setPaused(_ paused: Bool) throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            switch (_state, paused) {
            case (.playing, true):
                _state = .paused
                // Never past what was queued: a device that drains faster than real time (a null
                // sink) can report a step that was never scheduled.
                pausedAtStep = min(stepLocked(atFrame: playback.audibleFrame) + 1, nextStep)
                clearPending()
                try engine.cancelPending(fade: 0.01)
                midiPanic()
            case (.paused, false):
                _state = .playing
                nextStep = pausedAtStep
                restartLocked(step: nextStep, atFrame: engine.frameClock + UInt64(0.01 * sampleRate))
                midi?.announce(step: nextStep, resume: true)
            default: break
            }
        }
        sync.wake()
    }

    /// Changes the tempo from the next step to be queued, within the tempo range (the whole song's:
    /// a chain entry's own tempo gives way to it).
    public func setBPM(_ bpm: Double) {
        sync.locked { sequencer.setBPM(Self.clampBPM(bpm), fromStep: nextStep) }
        sync.wake()
    }

    /// Lets the last releases ring up to `tail` seconds, fades everything out (<= 20 ms), waits
    /// until the device has played the fade, then closes. Returns the final statistics; throws
    /// `deviceLost` when the device went away.
    @discardableResult
    public func stop(tail: Double = 0) throws(AudioError) -> PlaybackStats {
        // Only the command's thread replaces `playback` (reopenDevice): it may use it unlocked here.
        let playback = sync.locked { self.playback }
        if sync.locked({ _state == .stopped }) { return playback.stats }
        if tail > 0 {
            // The tail ends when its time is up or the last voice has fallen silent.
            let end = engine.frameClock + UInt64(tail * sampleRate)
            waitForEngine(until: end, frame: { engine.frameClock }, limit: tail + 1) {
                engine.activeVoices > 0 && playback.stats.error == nil
            }
        }
        let fadeEnd = sync.locked { () -> UInt64 in
            clearPending()
            auditions.removeAll()
            _state = .stopped   // the scheduling thread ends at its next step
            try? engine.cancelPending(fade: 0.015)
            midiPanic()
            // An armed transport start holds the engine: let it run on to play the fade.
            if following { playback.armTransport(request: 0, frame: 0) }
            // The engine takes the 15 ms fade at the start of its next block (one period on, if a
            // block is being rendered now): heard once 20 ms past that have reached the listener.
            return engine.frameClock + UInt64(playback.info.periodFrames) + UInt64(0.02 * sampleRate)
        }
        sync.end()
        playback.waitUntilHeard(frame: fadeEnd, sampleRate: sampleRate)
        playback.waitForMidiPanic()
        let stats = playback.stats
        playback.stop(drain: false)
        if let error = stats.error { throw error }
        return stats
    }

    /// Sleeps until `frame()` reaches `target` (each nap the engine time still missing, so it
    /// wakes when the thing is due, not on a fixed interval; at most one device buffer, so
    /// `carryOn` going false is seen within one), or `limit` seconds have passed.
    private func waitForEngine(
        until target: UInt64, frame: () -> UInt64, limit: Double, carryOn: () -> Bool
    ) {
        let deadline = Date().addingTimeInterval(limit)
        let buffer = Double(info.bufferFrames) / sampleRate
        while carryOn() && Date() < deadline {
            let now = frame()
            if now >= target { return }
            let missing = Double(target - now) / sampleRate
            Threads.sleep(seconds: min(max(missing, 0.001), max(buffer, 0.001)))
        }
    }

    /// Under -v: the latency after adaptive growth, once per growth.
    private var announcedGrowths = 0
    public func takeLatencyGrowth() -> PlaybackStats? {
        sync.locked {
            let s = playback.stats
            guard s.latencyGrowths > announcedGrowths else { return nil }
            announcedGrowths = s.latencyGrowths
            return s
        }
    }
}
