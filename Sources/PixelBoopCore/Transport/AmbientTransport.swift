/// Live playback of ambient music: owns the device, the generator and the crossfader; pauses and
/// resumes with a fade, crossfades to another preset, fades out at the end of the requested
/// duration or on request, notices a lost device and reopens it. Commands drive it from their
/// loop (`tick`, then wait `secondsUntilDue`); they keep only arguments, keys and the view. The
/// music itself is generated on the audio thread, and the one thing due at a time, the end fade
/// of `duration`, is started by a `SchedulingThread` of the transport's own, so a command loop
/// blocked in a terminal write neither stops the music nor lets it overrun its duration.
///
/// Thread safety: `@unchecked Sendable` because every stored `var` is touched only inside
/// `sync.locked` (the command's thread and the scheduling thread); the audio runs on the
/// playback's C++ I/O thread (fades, pauses and status are lock-free requests to it).
public final class AmbientTransport: @unchecked Sendable {
    public enum State: Equatable, Sendable {
        case ready   // created, not started
        case playing
        case paused
        case fadingOut   // the end of the duration, or a requested stop, is fading
        case finished   // the fade has been played and the device closed
        case waitingForDevice   // the device went away (`deviceError`); `reopenDevice` resumes
        case stopped   // closed without a fade (stopped while there was no device)
    }

    /// Preset changes crossfade over this long, at the same loudness.
    public static let crossfadeSeconds = 2.0
    /// A requested stop (q, Ctrl-C, SIGTERM) fades this fast: quick, yet without a click.
    public static let stopFadeSeconds = 0.02
    /// Pausing and resuming fade over this long.
    public static let pauseFadeSeconds = 0.25
    /// How often a lost device is worth trying again.
    public static let reopenInterval = 1.0

    public var state: State { sync.locked { _state } }
    /// The pause switch. It outlives a fade-out and a lost device: what was paused stays paused.
    public var isPaused: Bool { sync.locked { _isPaused } }
    /// The preset last chosen (shown at once; its crossfade may still wait for the running one).
    public var preset: AmbientPreset { sync.locked { _preset } }
    public let seed: UInt64
    /// Seconds to play before the end fade (nil: until stopped).
    public let duration: Double?
    /// Why the device was given up, while `waitingForDevice`.
    public var deviceError: AudioError? { sync.locked { _deviceError } }
    /// The rate the device granted, at which the music is generated.
    public let sampleRate: Double

    private let sync = SchedulingThread()
    private var _state = State.ready
    private var _isPaused = false
    private var _preset: AmbientPreset
    private var _deviceError: AudioError?

    private let route: AudioRoute
    private let gainDB: Double
    private var playback: AudioPlayback
    private let mixer: AmbientCrossfader
    /// The generator of `playingPreset`: the one heard, or fading in.
    private var engine: AmbientEngine
    private var pendingPreset: AmbientPreset?
    private var stateBeforeLoss = State.playing

    /// Opens the device (the music is generated at the rate it grants) and prepares the first
    /// preset. Throws `deviceUnavailable` when the device cannot open.
    public convenience init(
        preset: AmbientPreset, seed: UInt64, device: String, sampleRate: Double = 44100, gainDB: Double = 0,
        duration: Double? = nil
    ) throws(AudioError) {
        try self.init(
            preset: preset, seed: seed, route: AudioRoute(device: device), sampleRate: sampleRate, gainDB: gainDB,
            duration: duration)
    }

    /// As above, on any route (an ALSA PCM or a JACK client, whose server sets the rate).
    public init(
        preset: AmbientPreset, seed: UInt64, route: AudioRoute, sampleRate: Double = 44100, gainDB: Double = 0,
        duration: Double? = nil
    ) throws(AudioError) {
        playback = try AudioPlayback(route: route, sampleRate: sampleRate, channels: AmbientEngine.channels)
        playback.gainDB = gainDB
        engine = try AmbientEngine(preset: preset, seed: seed, sampleRate: playback.sampleRate, maxBlockFrames: 4096)
        // Preset changes crossfade inside one stream: no device reopen, no gap.
        mixer = try AmbientCrossfader(first: engine)
        self.sampleRate = playback.sampleRate
        _preset = preset
        self.seed = seed
        self.duration = duration
        self.route = route
        self.gainDB = gainDB
    }

    deinit { sync.end() }

    public var info: PlaybackInfo { sync.locked { playback.info } }
    public var stats: PlaybackStats { sync.locked { playback.stats } }
    /// The playback's `AudioPlayback.endedDescriptor` (a new one after `reopenDevice`).
    public var endedDescriptor: Int32 { sync.locked { playback.endedDescriptor } }
    /// What the view shows: the generator being heard (or fading in).
    public var status: AmbientStatus { sync.locked { engine.status } }
    /// The preset being heard (or fading in); `preset` once its crossfade has started.
    public var playingPreset: AmbientPreset { sync.locked { engine.preset } }
    /// True while a crossfade runs or a chosen preset waits for one to end.
    public var isChangingPreset: Bool { sync.locked { mixer.isFading || pendingPreset != nil } }

    /// The end fade of `duration`, and the music time at which it starts.
    private var endFade: (seconds: Double, start: Double)? {
        duration.map { d in
            let seconds = AmbientEngine.endFadeSeconds(duration: d)
            return (seconds, d - seconds)
        }
    }

    /// Starts the music.
    public func start() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            guard _state == .ready else { return }
            try playback.start(ambient: mixer)
            _state = .playing
        }
        guard duration != nil else { return }
        sync.start(name: "boop ambient scheduler") { [weak self] in self?.scheduleDue() }
        sync.wake()
    }

    /// The scheduling thread's step (lock held): starts the end fade of `duration` on time and
    /// returns the seconds until it is due (nil once it has started or the music ended).
    private func scheduleDue() -> Double? {
        switch _state {
        case .fadingOut, .finished, .stopped: return nil
        case .ready, .waitingForDevice: return SchedulingThread.maxSleepSeconds
        case .playing, .paused: break
        }
        guard let endFade else { return nil }
        let now = Double(engine.status.frame) / sampleRate
        if now >= endFade.start {
            fadeOut(seconds: endFade.seconds)
            return nil
        }
        return endFade.start - now
    }

    /// Pauses (the music stands still once faded) or resumes where it stood. Ignored once the
    /// music fades out or has ended.
    public func setPaused(_ paused: Bool) {
        sync.locked {
            guard _state == .playing || _state == .paused, paused != _isPaused else { return }
            _isPaused = paused
            _state = paused ? .paused : .playing
            engine.setPaused(paused, fadeSeconds: AmbientTransport.pauseFadeSeconds)
            mixer.outgoing?.setPaused(paused, fadeSeconds: AmbientTransport.pauseFadeSeconds)
        }
        sync.wake()   // the end fade's time is music time, which a pause holds
    }

    /// Chooses the bundled preset after the current one (the first after a preset file).
    @discardableResult
    public func next() -> AmbientPreset { step(by: 1) }

    /// Chooses the bundled preset before the current one.
    @discardableResult
    public func previous() -> AmbientPreset { step(by: AmbientPreset.bundled.count - 1) }

    private func step(by offset: Int) -> AmbientPreset {
        sync.locked {
            let all = AmbientPreset.bundled
            guard !all.isEmpty else { return _preset }
            let index = all.firstIndex { $0.name == _preset.name } ?? 0
            changeLocked(to: all[(index + offset) % all.count])
            return _preset
        }
    }

    /// Crossfades to `preset` over `crossfadeSeconds`, at the next `tick`. A change chosen during
    /// a crossfade waits for it to end; only the last one chosen meanwhile is played. Ignored once
    /// the music fades out or has ended.
    public func change(to preset: AmbientPreset) {
        sync.locked { changeLocked(to: preset) }
    }

    private func changeLocked(to preset: AmbientPreset) {
        guard _state == .playing || _state == .paused else { return }
        _preset = preset
        pendingPreset = preset
    }

    /// Fades everything out over `fade` seconds; `tick` reports `finished` once it has been
    /// played. Without a device there is nothing to fade: the transport is `stopped` at once.
    public func requestStop(fade: Double = AmbientTransport.stopFadeSeconds) {
        sync.locked {
            switch _state {
            case .playing, .paused:
                fadeOut(seconds: fade)
            case .ready, .waitingForDevice:
                playback.stop()
                _state = .stopped
            case .fadingOut, .finished, .stopped:
                break
            }
        }
    }

    /// Lock held.
    private func fadeOut(seconds: Double) {
        engine.fadeOut(seconds: seconds)
        mixer.outgoing?.fadeOut(seconds: seconds)
        _state = .fadingOut
    }

    /// The control loop's work: releases a piece that has faded out, starts a chosen preset's
    /// crossfade, begins the end fade of `duration`, closes the device once the fade-out has been
    /// heard (`finished`), and notices a lost device (`waitingForDevice`, with `deviceError`).
    /// Throws when the next preset cannot be generated.
    public func tick() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in try tickLocked() }
    }

    private func tickLocked() throws(AudioError) {
        guard _state == .playing || _state == .paused || _state == .fadingOut else { return }
        mixer.collect()
        if _state != .fadingOut { try startPendingChange() }
        let status = engine.status
        // Normally the scheduling thread's; here too, so a tick right at the time never misses it.
        if _state != .fadingOut, let endFade, Double(status.frame) / sampleRate >= endFade.start {
            fadeOut(seconds: endFade.seconds)
        }
        if _state == .fadingOut && status.finished && (mixer.outgoing?.status.finished ?? true) {
            playback.stop(drain: true)   // the fade is already in the device buffer: let it play
            _state = .finished
            return
        }
        if let error = playback.stats.error {
            playback.stop()
            _deviceError = error
            stateBeforeLoss = _state
            _state = .waitingForDevice
        }
    }

    private func startPendingChange() throws(AudioError) {
        guard let wanted = pendingPreset, !mixer.isFading else { return }
        pendingPreset = nil
        let next = try AmbientEngine(preset: wanted, seed: seed, sampleRate: sampleRate, maxBlockFrames: 4096)
        if _isPaused { next.setPaused(true, fadeSeconds: 0) }
        try mixer.fade(to: next, seconds: AmbientTransport.crossfadeSeconds)
        engine = next
    }

    /// While `waitingForDevice`: tries once to open the device again at the same rate and, when it
    /// is back, resumes where the music stopped (the generator kept its place). False while it
    /// is still missing or offers another rate; throws when it opens but cannot start.
    public func reopenDevice() throws(AudioError) -> Bool {
        let reopened = try sync.locked { () throws(AudioError) -> Bool in try reopenLocked() }
        if reopened { sync.wake() }
        return reopened
    }

    private func reopenLocked() throws(AudioError) -> Bool {
        guard _state == .waitingForDevice else { return false }
        guard let reopened = try? AudioPlayback(route: route, sampleRate: sampleRate, channels: AmbientEngine.channels),
            reopened.sampleRate == sampleRate
        else { return false }
        reopened.gainDB = gainDB
        try reopened.start(ambient: mixer)
        playback = reopened
        _deviceError = nil
        _state = stateBeforeLoss
        return true
    }

    /// How long the control loop may wait before `tick` is due (capped by `atMost`, for keys and
    /// a view): the end fade of `duration` starts on time even when nothing else wakes the loop.
    public func secondsUntilDue(atMost: Double = 0.05) -> Double {
        sync.locked {
            // A fade-out ends within moments: look again soon, so the device closes when it is over.
            if _state == .fadingOut { return min(0.01, atMost) }
            guard _state == .playing, let endFade else { return atMost }
            let wait = endFade.start - Double(engine.status.frame) / sampleRate
            return min(max(wait, 0.001), atMost)
        }
    }
}
