import Glibc

/// The ear-training player on PixelBoop's engine: a pure sine (the engine's TONE
/// timbre: 32-bit phase accumulator, no filter, 8 ms raised-cosine attack and release), the same
/// timbre for every note, tuned to the 2^-32 phase grid (better than 0.002 cent from A0 up).
///
/// `play` sends the note to the device (an ALSA PCM or a JACK client) through `AudioPlayback`;
/// the engine is created and the device started up front, so the first sample of a note leaves
/// the engine in the next render block (within one period of the call). Files are made by
/// `ToneRenderer`, from the same events on the same scheduler.
///
/// Notes played one after another never overlap: each note's envelope lies inside its
/// duration, and a note requested while another still sounds starts where that one ends.
///
/// It is a transport like the others: its events wait in the one `EventScheduler` and a
/// `SchedulingThread` queues each a short horizon before its frame, so a note's length never
/// depends on when a task or the command's loop wakes up.
///
/// `@unchecked Sendable`: every stored `var` is touched only inside `sync.locked` (the engine's
/// queue has one producer: whoever holds the lock).
public final class SineWaveNotePlayer: NotePlayer, @unchecked Sendable {
    public let route: AudioRoute
    public let sampleRate: Double
    /// Velocity gain before the engine's master gain of 0.3 (1.0: peaks at 0.3).
    public let gain: Float
    /// The engine timbre every note is played with: the pure sine (`tone`) unless a trainer asks
    /// for an instrument's (`train match --timbre`).
    public let timbre: Timbre
    /// Fade used by `stop()`.
    public static let stopFadeSeconds = 0.01

    let sync = SchedulingThread()
    let engine: AudioEngine
    private var nextID: UInt32 = 1
    // The playback, the frame where the last note ends, and a counter stop() bumps so waiting
    // play() calls know to return.
    let live: LiveState
    var lastEnd: UInt64 = 0
    var generation = 0
    // Events not yet handed to the engine, in frame order, flushed by the scheduling
    // thread (not the Swift concurrency pool, whose threads busy tasks can hold).
    var pending = EventScheduler<PendingEvent>(lookahead: 0)
    /// Onset and end frame of the last note played (for tests and diagnostics).
    private(set) var lastNoteFrames: (onset: UInt64, end: UInt64)?
    var closed = false

    struct PendingEvent: FrameStamped {
        let frame: UInt64
        let id: UInt32
        let frequency: Double?   // nil: note-off
    }

    /// A player on an ALSA device, started now so the first note sounds at once. Throws
    /// `AudioError.deviceUnavailable` when the device cannot be opened.
    /// `outputGainDB` is the gain before the output limiter (`OutputStage.gainRange`).
    public static func live(
        device: String = "default", sampleRate: Double = 44100, gain: Float = 1.0,
        periodFrames: Int = 128, periods: Int = 3,
        outputGainDB: Double = 0
    ) throws(AudioError) -> SineWaveNotePlayer {
        try live(
            route: AudioRoute(device: device), sampleRate: sampleRate, gain: gain, periodFrames: periodFrames,
            periods: periods, outputGainDB: outputGainDB)
    }

    /// As above, on any route (an ALSA PCM or a JACK client).
    public static func live(
        route: AudioRoute, sampleRate: Double = 44100, gain: Float = 1.0,
        periodFrames: Int = 128, periods: Int = 3,
        outputGainDB: Double = 0, timbre: Timbre = .tone
    ) throws(AudioError) -> SineWaveNotePlayer {
        try SineWaveNotePlayer(
            route: route, sampleRate: sampleRate, gain: gain,
            periodFrames: periodFrames, periods: periods, outputGainDB: outputGainDB, timbre: timbre)
    }

    init(
        route: AudioRoute, sampleRate requested: Double, gain: Float, periodFrames: Int, periods: Int,
        outputGainDB: Double = 0, timbre: Timbre = .tone
    ) throws(AudioError) {
        guard Limits.eventGain.contains(Double(gain)) else {
            throw AudioError.invalidConfiguration("gain \(gain): expected \(Limits.text(Limits.eventGain))")
        }
        // Open the device first: the engine must run at the rate the device grants.
        let playback = try AudioPlayback(
            route: route, sampleRate: requested, channels: 1, periodFrames: periodFrames, periods: periods)
        let rate = playback.sampleRate
        playback.gainDB = outputGainDB
        self.route = route
        self.sampleRate = rate
        self.gain = gain
        self.timbre = timbre
        self.engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: rate, voices: 8, maxBlockFrames: 4096, queueCapacity: 4096, channels: 1))
        lookaheadFrames = UInt64(Self.lookaheadSeconds * rate)
        pending = EventScheduler(lookahead: lookaheadFrames)
        // Started now, rendering silence, so a note costs nothing but the next block.
        try playback.start(engine: engine)
        self.live = try LiveState(playback: playback)
    }

    deinit {
        sync.end()
        live.shutdown(drain: false)
    }

    /// The I/O thread's counters (xruns, frames written).
    public var playbackStats: PlaybackStats { live.stats }

    /// Frames the engine has rendered (the clock notes are scheduled on).
    public var engineFrameClock: UInt64 { engine.frameClock }

    /// The engine frame the listener hears now.
    public var audibleFrame: UInt64 { live.audibleFrame }

    /// Stops the device after what it holds has been heard (drain) or at once. The
    /// player cannot play afterwards.
    public func close(drain: Bool = true) {
        locked {
            closed = true
            pending.removeAll()
            live.shutdown(drain: drain)
        }
        sync.end()
        live.wake()
    }

    // MARK: NotePlayer

    public func play(frequency: Double, duration: Double) async throws {
        try Task.checkCancellation()
        try Self.validate(frequency: frequency, duration: duration, sampleRate: sampleRate)
        try await playLive(frequency: frequency, duration: duration)
    }

    public func stop() async throws {
        try stopNow()
    }

    /// `stop()` for synchronous callers (signal handling in the CLI).
    public func stopNow() throws {
        defer { live.wake() }   // a blocking play(_:) returns now
        try locked { () throws -> Void in
            generation += 1
            pending.removeAll()
            try engine.allNotesOff(at: nil, fade: Self.stopFadeSeconds)
            // The next note starts after the fade, so the two never overlap.
            // (Pending notes are cancelled, so this replaces whatever end they reserved.)
            lastEnd = engine.frameClock + lookaheadFrames + UInt64((Self.stopFadeSeconds * sampleRate).rounded(.up))
        }
    }

    func locked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try sync.locked(body)
    }

    func nextNoteID() -> UInt32 {
        defer { nextID = nextID == 0x3FFF_FFFF ? 1 : nextID + 1 }
        return nextID
    }

    // MARK: Live

    /// How far ahead of the engine's clock events are queued. The engine's queue is FIFO, so an
    /// event queued far ahead would hold back a later stop(); a short horizon keeps stop prompt
    /// (fade begins within this) while leaving the scheduler several periods of slack.
    static let lookaheadSeconds = 0.01

    /// `lookaheadSeconds` in frames (a copy of `pending.lookahead`, readable without the lock).
    let lookaheadFrames: UInt64

    private func playLive(frequency: Double, duration: Double) async throws {
        // Reserve a slot: now, or where the previous note ends if one still sounds. The onset
        // is queued at once when it is due (the next render block plays it); everything later
        // goes to the scheduler thread.
        let (end, myGeneration): (UInt64, Int) = try locked { () throws -> (UInt64, Int) in
            if closed { throw AudioError.deviceLost("the player was closed") }
            let onset = max(engine.frameClock, lastEnd)
            let end = onset + UInt64((duration * sampleRate).rounded())
            lastEnd = end
            lastNoteFrames = (onset, end)
            let id = nextNoteID()
            pending.append(contentsOf: [
                PendingEvent(frame: onset, id: id, frequency: frequency),
                PendingEvent(
                    frame: ToneSequence.releaseFrame(onset: onset, end: end, sampleRate: sampleRate),
                    id: id, frequency: nil)
            ])
            try flushPending()
            return (end, generation)
        }
        startScheduling()   // the scheduling thread recomputes its sleep for the new events
        do {
            _ = try await waitForClock(end, generation: myGeneration)
        } catch is CancellationError {
            try stopNow()
            throw CancellationError()
        }
    }

    /// Sleeps until the engine has rendered up to `frame`; false when stop() came first. Throws
    /// the device's error if playback died, CancellationError if the task was cancelled.
    private func waitForClock(_ frame: UInt64, generation myGeneration: Int) async throws -> Bool {
        while true {
            if locked({ generation != myGeneration }) { return false }
            if let error = live.failure { throw error }
            let now = engine.frameClock
            if now >= frame { return true }
            let remaining = Double(frame - now) / sampleRate
            // Sleep most of the way, then in short steps: wake-ups are late, never early.
            let nap = max(0.001, min(0.05, remaining - 0.003))
            try await Task.sleep(nanoseconds: UInt64(nap * 1e9))
        }
    }

    /// What the device reports.
    public var playbackDescription: String { live.description }

    // MARK: Shared

    static func validate(frequency: Double, duration: Double, sampleRate: Double) throws(AudioError) {
        try Pitch.validated(frequency)
        guard frequency < sampleRate / 2 else {
            throw AudioError.invalidFrequency(
                "\(Pitch.formatHz(frequency)) Hz: expected below half the sample rate (\(Pitch.formatHz(sampleRate / 2)) Hz)")
        }
        guard duration.isFinite, duration > 0, duration <= ToneSequence.durationRange.upperBound else {
            throw AudioError.invalidConfiguration(
                "duration \(duration) s: expected a positive number of seconds up to \(Limits.text(Limits.toneSeconds.upperBound))"
            )
        }
    }

    /// Sends one sequence event to an engine (tone k uses note id idBase + k).
    static func send(
        _ event: ToneSequence.Event, to engine: AudioEngine, gain: Float, timbre: Timbre = .tone,
        idBase: UInt32 = 1
    ) throws(AudioError) {
        let id = idBase &+ UInt32(truncatingIfNeeded: event.tone)
        switch event.kind {
        case .on(let frequency):
            try engine.noteOn(id: id, frequency: frequency, gain: gain, at: event.frame, timbre: timbre)
        case .off:
            try engine.releaseNote(NoteID(rawValue: id), at: event.frame)
        }
    }
}
