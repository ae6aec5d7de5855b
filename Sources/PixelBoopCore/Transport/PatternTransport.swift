import Foundation

/// Live playback of a pattern: owns the engine and the device, queues frame-stamped events a
/// little ahead of the engine's clock (lookahead scheduling, so a late wake-up of the control
/// thread never moves a note), pauses, resumes, changes tempo or pattern at a step, reports what
/// the listener hears, and stops with a fade. Commands drive it from their loop (`tick`, then
/// wait `secondsUntilDue`); they keep only arguments, keys and the view.
///
/// Thread safety: one control thread; the audio runs on the engine's C++ I/O thread.
public final class PatternTransport {
    public enum State: Equatable, Sendable {
        case ready   // created, not started
        case playing
        case paused
        case finished   // the requested loops have been heard
        case stopped   // faded out and closed
    }

    public private(set) var state = State.ready
    public private(set) var sequencer: Sequencer
    private let engine: AudioEngine
    private var playback: AudioPlayback
    /// What `reopenDevice` opens again: the same route and buffer at the same rate.
    private let reopenSettings: (route: AudioRoute, periodFrames: Int, periods: Int, adaptive: Bool, gainDB: Double)
    private let lookahead: UInt64
    private var pending: [SequencerEvent] = []
    private var nextStep = 0
    private var pausedAtStep = 0
    /// Steps to play before finishing (nil: loop until stopped).
    public let totalSteps: Int?
    /// The first step's frame and when it was queued: for the trigger-to-output latency.
    public private(set) var startFrame: UInt64 = 0
    private var startedAt = Date()

    /// Opens the device (the engine runs at the rate ALSA grants) and prepares the engine.
    /// `loops` nil plays until stopped. Throws `deviceUnavailable` (69) when the device cannot open.
    public convenience init(
        pattern: Pattern, device: String, sampleRate: Double = 44100, voices: Int = 8,
        periodFrames: Int = 128, periods: Int = 3, adaptive: Bool = true, gainDB: Double = 0,
        loops: Int? = nil
    ) throws(AudioError) {
        try self.init(
            pattern: pattern, route: AudioRoute(device: device), sampleRate: sampleRate, voices: voices,
            periodFrames: periodFrames, periods: periods, adaptive: adaptive, gainDB: gainDB, loops: loops)
    }

    /// As above, on any route (an ALSA PCM or a JACK client, whose server sets the rate).
    public init(
        pattern: Pattern, route: AudioRoute, sampleRate: Double = 44100, voices: Int = 8,
        periodFrames: Int = 128, periods: Int = 3, adaptive: Bool = true, gainDB: Double = 0,
        loops: Int? = nil
    ) throws(AudioError) {
        // Stereo: every device and the plug layer take it; the voices sit in the centre.
        playback = try AudioPlayback(
            route: route, sampleRate: sampleRate, channels: 2,
            periodFrames: periodFrames, periods: periods, adaptive: adaptive)
        playback.gainDB = gainDB
        reopenSettings = (route, periodFrames, periods, adaptive, gainDB)
        let info = playback.info
        engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: info.sampleRate, voices: voices, maxBlockFrames: 4096, queueCapacity: 1 << 15, channels: 2))
        sequencer = Sequencer(pattern: pattern, sampleRate: info.sampleRate)
        // 40 ms ahead of the render clock (plus one buffer): far more than a control thread's
        // wake-up jitter, short enough that tempo changes feel immediate.
        lookahead = UInt64(0.04 * info.sampleRate) + UInt64(info.bufferFrames)
        totalSteps = loops.map { $0 * pattern.length }
    }

    public var sampleRate: Double { sequencer.sampleRate }
    public var info: PlaybackInfo { playback.info }
    /// The device's name for messages: the ALSA PCM, or "jack:<client>".
    public var device: String { playback.device }
    public var stats: PlaybackStats { playback.stats }
    public var droppedEvents: UInt64 { engine.droppedEvents }
    /// The frame the listener hears now.
    public var audibleFrame: UInt64 { playback.audibleFrame }
    /// The step the listener hears now (may be negative before the first).
    public var audibleStep: Int { sequencer.step(atFrame: audibleFrame) }

    /// Starts the music a few milliseconds from now, so the first step is queued in time.
    public func start() throws(AudioError) {
        guard state == .ready else { return }
        startFrame = engine.frameClock + UInt64(0.02 * sampleRate)
        nextStep = 0
        pending.removeAll()
        sequencer.restart(step: 0, atFrame: startFrame)
        try schedule()
        try openSound()
        startedAt = Date()
        state = .playing
    }

    /// Starts the device without the music, so `audition` sounds at once (an editor before its
    /// first play). `start` does it when needed.
    public func openSound() throws(AudioError) {
        guard !soundOpen else { return }
        try playback.start(engine: engine)
        soundOpen = true
    }

    /// How often a lost device is worth trying again.
    public static let reopenInterval = 1.0

    /// After `tick` threw `deviceLost`: tries once to open the device again at the same rate and,
    /// when it is back, plays on where the engine stopped (the music's clock is the engine's,
    /// which stood still meanwhile). False while it is still missing or offers another rate;
    /// throws when it opens but cannot start.
    public func reopenDevice() throws(AudioError) -> Bool {
        guard soundOpen, playback.stats.error != nil else { return false }
        let s = reopenSettings
        guard
            let reopened = try? AudioPlayback(
                route: s.route, sampleRate: sampleRate, channels: 2, periodFrames: s.periodFrames,
                periods: s.periods, adaptive: s.adaptive),
            reopened.sampleRate == sampleRate
        else { return false }
        reopened.gainDB = s.gainDB
        playback.stop()
        try reopened.start(engine: engine)
        playback = reopened
        return true
    }

    /// Stops the loop but keeps the device open (an editor's stop): what was queued is discarded
    /// and what sounds fades within 20 ms. `start` plays again from the first step.
    public func stopLoop() throws(AudioError) {
        guard state == .playing || state == .paused || state == .finished else { return }
        pending.removeAll()
        try engine.cancelPending(fade: 0.015)
        auditions.removeAll()
        state = .ready
    }

    /// Sounds one note now, ahead of anything queued (tap-to-sound: the next engine block), for
    /// `gate` seconds; a drum for the rhythm track. Works whether or not the loop plays.
    public func audition(pitch: Int, track: TrackKind, velocity: Velocity, gate: Double = 0.25) throws(AudioError) {
        try openSound()
        if track == .rhythm {
            try engine.drumHit(key: pitch, velocity: velocity, at: AudioEngine.now)
            return
        }
        let id = nextAuditionID
        nextAuditionID = nextAuditionID == UInt32.max ? PatternTransport.auditionIDs : nextAuditionID + 1
        try engine.noteOn(
            id: id, frequency: Pitch.frequency(midi: Double(pitch)), gain: velocity.gain,
            at: AudioEngine.now, timbre: track.timbre ?? .melody)
        auditions.append((id, engine.frameClock + UInt64(gate * sampleRate)))
    }

    /// The engine frame at which the last audition was queued (its first sample is in the block
    /// after it), for measuring tap-to-sound.
    public var frameClock: UInt64 { engine.frameClock }

    // Auditions number their notes apart from the sequencer's (which counts up from 1), and are
    // released by the control loop when their gate is over, through the immediate lane too.
    private static let auditionIDs: UInt32 = 0xF000_0000
    private var nextAuditionID = PatternTransport.auditionIDs
    private var auditions: [(id: UInt32, offFrame: UInt64)] = []
    private var soundOpen = false

    private func releaseAuditions() throws(AudioError) {
        guard !auditions.isEmpty else { return }
        let clock = engine.frameClock
        while let first = auditions.first, first.offFrame <= clock {
            do {
                try engine.releaseNote(NoteID(rawValue: first.id), at: AudioEngine.now)
            } catch .queueFull {
                return   // the immediate lane is full this block: released on a later tick
            }
            auditions.removeFirst()
        }
    }

    /// Seconds from start() until the first note was heard, once it has been (trigger to output).
    public var measuredLatency: Double? {
        guard state != .ready, audibleFrame >= startFrame else { return nil }
        return Date().timeIntervalSince(startedAt) - Double(startFrame) / sampleRate
    }

    /// The control loop's work: queues what falls within the lookahead, notices the end of the
    /// requested loops and a lost device (thrown as `deviceLost`).
    public func tick() throws(AudioError) {
        if let error = playback.stats.error { throw error }
        try releaseAuditions()
        guard state == .playing else { return }
        try schedule()
        if let totalSteps, audibleFrame >= sequencer.frame(ofStep: totalSteps) { state = .finished }
    }

    /// How long the control loop may sleep before the next step must be queued (capped by
    /// `atMost`, for a view's refresh).
    public func secondsUntilDue(atMost: Double = 1.0 / 60) -> Double {
        guard state == .playing else { return atMost }
        if let totalSteps, nextStep >= totalSteps {
            // Everything is queued: the next thing due is hearing the end.
            let end = sequencer.frame(ofStep: totalSteps)
            let heard = audibleFrame
            return min(max(end > heard ? Double(end - heard) / sampleRate : 0, 0.002), atMost)
        }
        let due = sequencer.frame(ofStep: nextStep)
        let queueAt = due > lookahead ? due - lookahead : 0
        let clock = engine.frameClock
        let wait = queueAt > clock ? Double(queueAt - clock) / sampleRate : 0
        return min(max(wait, 0.001), atMost)
    }

    /// Queues every event of the steps that start before the horizon, in play order.
    private func schedule() throws(AudioError) {
        let horizon = engine.frameClock + lookahead
        var added = false
        while sequencer.frame(ofStep: nextStep) < horizon, totalSteps.map({ nextStep < $0 }) ?? true {
            pending.append(contentsOf: sequencer.events(forSteps: nextStep..<(nextStep + 1)))
            nextStep += 1
            added = true
        }
        if added { pending.sort(by: SequencerEvent.playOrder) }
        var sent = 0
        defer { pending.removeFirst(sent) }
        while sent < pending.count && pending[sent].frame < horizon {
            do {
                try engine.schedule(pending[sent])
            } catch .queueFull {
                return   // back-pressure: the rest stays pending for the next tick, never sent twice
            }
            sent += 1
        }
    }

    /// Pauses (the queued events are discarded and the sound fades in 10 ms) or resumes on the
    /// step after the one heard when pausing.
    public func setPaused(_ paused: Bool) throws(AudioError) {
        switch (state, paused) {
        case (.playing, true):
            state = .paused
            // Never past what was queued: a device that drains faster than real time (a null
            // sink) can report a step that was never scheduled.
            pausedAtStep = min(audibleStep + 1, nextStep)
            pending.removeAll()
            try engine.cancelPending(fade: 0.01)
        case (.paused, false):
            state = .playing
            nextStep = pausedAtStep
            sequencer.restart(step: nextStep, atFrame: engine.frameClock + UInt64(0.01 * sampleRate))
        default: break
        }
    }

    /// Changes the tempo from the next step to be queued, within the pattern's tempo range.
    public func setBPM(_ bpm: Double) {
        sequencer.setBPM(min(max(bpm, Pattern.bpmRange.lowerBound), Pattern.bpmRange.upperBound), fromStep: nextStep)
    }

    /// Plays `pattern` from the next step to be queued (an editor's change, heard within the lookahead).
    public func replacePattern(_ pattern: Pattern) {
        sequencer.replacePattern(pattern, fromStep: nextStep)
    }

    /// Lets the last releases ring up to `tail` seconds, fades everything out (<= 20 ms), waits
    /// until the device has played the fade, then closes. Returns the final statistics; throws
    /// `deviceLost` when the device went away.
    @discardableResult
    public func stop(tail: Double = 0) throws(AudioError) -> PlaybackStats {
        if state == .stopped { return playback.stats }
        if tail > 0 {
            let end = engine.frameClock + UInt64(tail * sampleRate)
            while engine.frameClock < end && engine.activeVoices > 0 && playback.stats.error == nil { usleep(4000) }
        }
        pending.removeAll()
        try? engine.cancelPending(fade: 0.015)
        let fadeEnd = engine.frameClock + UInt64(0.02 * sampleRate) + UInt64(playback.info.bufferFrames)
        let deadline = Date().addingTimeInterval(1)
        while playback.audibleFrame < fadeEnd && playback.stats.error == nil && Date() < deadline { usleep(2000) }
        let stats = playback.stats
        playback.stop(drain: false)
        state = .stopped
        if let error = stats.error { throw error }
        return stats
    }

    /// Under -v: the latency after adaptive growth, once per growth.
    private var announcedGrowths = 0
    public func takeLatencyGrowth() -> PlaybackStats? {
        let s = playback.stats
        guard s.latencyGrowths > announcedGrowths else { return nil }
        announcedGrowths = s.latencyGrowths
        return s
    }
}
