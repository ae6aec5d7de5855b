import Glibc

/// Live playback of a song (a version-1 pattern is a one-pattern song): owns the engine and the
/// device, queues frame-stamped events a little ahead of the engine's clock (lookahead scheduling,
/// so a late wake-up of the control thread never moves a note), pauses, resumes, changes tempo or
/// the song at a step, reports what the listener hears, and stops with a fade. Its events go
/// through the one `EventScheduler`, flushed by a `SchedulingThread` of its own, so a command's
/// loop blocked in a terminal write or a slow redraw never delays a note. Commands call `tick` to
/// learn of the end and of a lost device, and wait `secondsUntilDue` for that; they keep only
/// arguments, keys and the view.
///
/// Thread safety: everything that changes is in `Shared`, reachable only through the lock box
/// `sync` (the command's thread and the scheduling thread share it), so the compiler keeps it; the
/// transport itself holds only constants and is `Sendable` without exception. The audio runs on
/// the engine's C++ I/O thread, which takes no lock (the engine's event queue is lock-free, and its
/// one producer is whoever holds the lock).
public final class PatternTransport: Sendable {
    public enum State: Equatable, Sendable {
        case ready   // created, not started
        case playing
        case paused
        case finished   // the requested loops have been heard
        case stopped   // faded out and closed
    }

    /// The shared state, behind its lock (internal: the extensions and the tests use it).
    let sync: SchedulingBox<Shared>
    /// Steps to play before finishing (nil: loop until stopped).
    public let totalSteps: Int?
    public let sampleRate: Double

    public var state: State { sync.locked { $0.state } }
    /// Steps handed to the engine so far (for tests).
    var scheduledSteps: Int { sync.locked { $0.nextStep } }

    /// Opens the device (the engine runs at the rate ALSA grants) and prepares the engine.
    /// `loops` nil plays until stopped. Throws `deviceUnavailable` (69) when the device cannot open.
    public convenience init(
        pattern: Song, device: String, sampleRate: Double = 44100, voices: Int = 8,
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
        // Stereo: every device and the plug layer take it; the voices sit in the centre.
        let playback = try AudioPlayback(
            route: route, sampleRate: sampleRate, channels: 2,
            periodFrames: periodFrames, periods: periods, adaptive: adaptive, midiKeys: midiKeys)
        playback.gainDB = gainDB
        let info = playback.info
        let engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: info.sampleRate, voices: voices, maxBlockFrames: 4096, queueCapacity: 1 << 15, channels: 2))
        try engine.prepare(song: song, at: 0)
        let sequencer = SongSequencer(song: song, sampleRate: info.sampleRate, loops: loops, seed: seed)
        // 40 ms ahead of the render clock (plus one buffer): far more than a control thread's
        // wake-up jitter, short enough that tempo changes feel immediate. With a MIDI output,
        // 200 ms: external gear must never get a late event, even from a machine under heavy
        // load (a tempo change then takes effect up to 200 ms later; pause and stop stay immediate).
        let ahead = route.midiOut ? 0.2 : 0.04
        self.sampleRate = info.sampleRate
        totalSteps = sequencer.totalSteps
        sync = SchedulingBox(
            Shared(
                engine: engine, sampleRate: info.sampleRate, totalSteps: sequencer.totalSteps,
                following: route.followTransport || route.followMidiClock, midiKeys: midiKeys,
                reopenSettings: (route, periodFrames, periods, adaptive, gainDB), sequencer: sequencer,
                playback: playback,
                pending: EventScheduler(lookahead: UInt64(ahead * info.sampleRate) + UInt64(info.bufferFrames)),
                midi: route.midiOut ? MidiOutScheduler(clock: midiClock, song: song) : nil,
                clockFollower: route.followMidiClock ? MidiClockFollower() : nil))
    }

    deinit { sync.end() }

    public var info: PlaybackInfo { sync.locked { $0.playback.info } }
    /// The device's name for messages: the ALSA PCM, or "jack:<client>".
    public var device: String { sync.locked { $0.playback.device } }
    public var stats: PlaybackStats { sync.locked { $0.playback.stats } }
    /// The playback's `AudioPlayback.endedDescriptor` (a new one after `reopenDevice`).
    public var endedDescriptor: Int32 { sync.locked { $0.playback.endedDescriptor } }
    public var droppedEvents: UInt64 { sync.locked { $0.engine.droppedEvents } }
    /// The deepest gain reduction of the output stage's limiter since the last call, in dB (0:
    /// it did nothing).
    public func takeLimiterReductionDB() -> Double { sync.locked { $0.playback.takeLimiterReductionDB() } }
    /// The frame the listener hears now.
    public var audibleFrame: UInt64 { sync.locked { $0.playback.audibleFrame } }
    /// The step the listener hears now (may be negative before the first).
    public var audibleStep: Int { sync.locked { $0.sequencer.step(atFrame: $0.playback.audibleFrame) } }
    /// The first step's frame: for the trigger-to-output latency.
    public var startFrame: UInt64 { sync.locked { $0.startFrame } }
    /// Seconds of the music heard so far, pauses and a lost device's silence left out (MPRIS
    /// `Position`, which a desktop's progress bar shows against the length). Any thread.
    public var heardSeconds: Double {
        sync.locked { s in
            s.countHeard()
            return Double(s.heardFrames) / sampleRate
        }
    }

    /// Starts the music a few milliseconds from now, so the first step is queued in time.
    public func start() throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in try s.start() }
        startScheduling()
    }

    /// Starts the device without the music, so `audition` sounds at once (an editor before its
    /// first play). `start` does it when needed.
    public func openSound() throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in try s.openSound() }
        startScheduling()
    }

    /// The scheduling thread, once the sound is open; it holds the state only while it works.
    private func startScheduling() {
        sync.start(name: "boop pattern scheduler") { $0.scheduleDue() }
        sync.wake()
    }

    /// How often a lost device is worth trying again.
    public static let reopenInterval = 1.0

    /// After `tick` threw `deviceLost`: tries once to open the device again at the same rate and,
    /// when it is back, plays on where the engine stopped (the music's clock is the engine's,
    /// which stood still meanwhile). False while it is still missing or offers another rate;
    /// throws when it opens but cannot start.
    public func reopenDevice() throws(AudioError) -> Bool {
        let reopened = try sync.locked { (s: inout Shared) throws(AudioError) -> Bool in try s.reopen() }
        if reopened { sync.wake() }
        return reopened
    }

    /// Stops the loop but keeps the device open (an editor's stop): what was queued is discarded
    /// and what sounds fades within 20 ms. `start` plays again from the first step.
    public func stopLoop() throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in
            guard s.state == .playing || s.state == .paused || s.state == .finished else { return }
            s.clearPending()
            try s.engine.cancelPending(fade: 0.015)
            s.midiPanic()
            s.auditions.removeAll()
            s.state = .ready
        }
    }

    /// The engine frame at which the last audition was queued (its first sample is in the block
    /// after it), for measuring tap-to-sound.
    public var frameClock: UInt64 { sync.locked { $0.engine.frameClock } }

    // Auditions number their notes apart from the sequencer's (which counts up from 1), and are
    // released by the scheduling thread when their gate is over, through the immediate lane too.
    static let auditionIDs: UInt32 = 0xF000_0000
    struct AuditionRelease: FrameStamped {
        let frame: UInt64
        let id: UInt32
    }

    /// Once the first step has been heard: how far ahead of the engine's clock it was queued
    /// (`lead`) and the device's delay between the engine and the listener (`device`), in seconds,
    /// both counted in frames (the first step heard `lead + device` after it was queued). The
    /// wall clock is not used: the command loop may look long after the note sounded.
    public var measuredLatency: (lead: Double, device: Double)? {
        sync.locked { s in
            guard s.state != .ready, s.playback.audibleFrame >= s.startFrame else { return nil }
            let delay = max(s.playback.stats.delayFrames, 0)
            return (Double(s.startFrame - s.queuedAtFrame) / sampleRate, Double(delay) / sampleRate)
        }
    }

    /// The command loop's part: notices the end of the requested loops, a lost device (thrown as
    /// `deviceLost`) and what the scheduling thread could not queue. The queuing itself is the
    /// scheduling thread's, so a late or blocked call never moves a note.
    public func tick() throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in
            if let error = s.playback.stats.error { throw error }
            if let error = s.schedulingError { throw error }
            guard s.state == .playing else { return }
            if let totalSteps, s.playback.audibleFrame >= s.sequencer.frame(ofStep: totalSteps) { s.state = .finished }
        }
    }

    /// How long the command loop may sleep before `tick` has news: the end of the requested loops
    /// being heard (capped by `atMost`, for a view's refresh and the keys).
    public func secondsUntilDue(atMost: Double = 1.0 / 60) -> Double {
        sync.locked { s in
            guard s.state == .playing, let totalSteps else { return atMost }
            let end = s.sequencer.frame(ofStep: totalSteps)
            let heard = s.playback.audibleFrame
            return min(max(end > heard ? Double(end - heard) / sampleRate : 0, 0.002), atMost)
        }
    }

    /// Pauses (the queued events are discarded and the sound fades in 10 ms) or resumes on the
    /// step after the one heard when pausing.
    public func setPaused(_ paused: Bool) throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in try s.setPaused(paused) }
        sync.wake()
    }

    /// Changes the tempo from the next step to be queued, within the tempo range (the whole song's:
    /// a chain entry's own tempo gives way to it).
    /// Laid out before the lock is taken, as `playSong`.
    public func setBPM(_ bpm: Double) {
        let (current, from) = sync.locked { ($0.sequencer, $0.nextStep) }
        let next = current.prepared(bpm: Self.clampBPM(bpm), near: from)
        sync.locked { s in s.sequencer.take(next, fromStep: s.nextStep) }
        sync.wake()
    }

    /// Lets the last releases ring up to `tail` seconds, fades everything out (<= 20 ms), waits
    /// until the device has played the fade, then closes. Returns the final statistics; throws
    /// `deviceLost` when the device went away.
    @discardableResult
    public func stop(tail: Double = 0) throws(AudioError) -> PlaybackStats {
        // Only the command's thread replaces `playback` (reopenDevice), and the engine's clock and
        // voice count are atomic: both may be waited on here without the lock.
        let (playback, engine, stopped) = sync.locked { ($0.playback, $0.engine, $0.state == .stopped) }
        if stopped { return playback.stats }
        if tail > 0 {
            // The tail ends when its time is up or the last voice has fallen silent.
            let end = engine.frameClock + UInt64(tail * sampleRate)
            waitForEngine(until: end, frame: { engine.frameClock }, buffer: playback.info.bufferFrames, limit: tail + 1) {
                engine.activeVoices > 0 && playback.stats.error == nil
            }
        }
        let fadeEnd = sync.locked { s in s.fadeOut() }
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
        until target: UInt64, frame: () -> UInt64, buffer bufferFrames: Int, limit: Double, carryOn: () -> Bool
    ) {
        let deadline = Timestamp().addingTimeInterval(limit)
        let buffer = Double(bufferFrames) / sampleRate
        while carryOn() && Timestamp() < deadline {
            let now = frame()
            if now >= target { return }
            let missing = Double(target - now) / sampleRate
            Threads.sleep(seconds: min(max(missing, 0.001), max(buffer, 0.001)))
        }
    }

    /// Under -v: the latency after adaptive growth, once per growth.
    public func takeLatencyGrowth() -> PlaybackStats? {
        sync.locked { s in
            let stats = s.playback.stats
            guard stats.latencyGrowths > s.announcedGrowths else { return nil }
            s.announcedGrowths = stats.latencyGrowths
            return stats
        }
    }
}
