/// Live playback of ambient music: owns the device, the generator and the crossfader; pauses and
/// resumes with a fade, crossfades to another preset, fades out at the end of the requested
/// duration or on request, notices a lost device and reopens it. Commands drive it from their
/// loop (`tick`, then wait `secondsUntilDue`); they keep only arguments, keys and the view.
///
/// Thread safety: one control thread; the audio runs on the playback's C++ I/O thread (fades,
/// pauses and status are lock-free requests to it).
public final class AmbientTransport {
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

    public private(set) var state = State.ready
    /// The pause switch. It outlives a fade-out and a lost device: what was paused stays paused.
    public private(set) var isPaused = false
    /// The preset last chosen (shown at once; its crossfade may still wait for the running one).
    public private(set) var preset: AmbientPreset
    public let seed: UInt64
    /// Seconds to play before the end fade (nil: until stopped).
    public let duration: Double?
    /// Why the device was given up, while `waitingForDevice`.
    public private(set) var deviceError: AudioError?

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
        self.preset = preset
        self.seed = seed
        self.duration = duration
        self.route = route
        self.gainDB = gainDB
    }

    /// The rate the device granted, at which the music is generated.
    public var sampleRate: Double { engine.sampleRate }
    public var info: PlaybackInfo { playback.info }
    public var stats: PlaybackStats { playback.stats }
    /// What the view shows: the generator being heard (or fading in).
    public var status: AmbientStatus { engine.status }
    /// The preset being heard (or fading in); `preset` once its crossfade has started.
    public var playingPreset: AmbientPreset { engine.preset }
    /// True while a crossfade runs or a chosen preset waits for one to end.
    public var isChangingPreset: Bool { mixer.isFading || pendingPreset != nil }

    /// The end fade of `duration`, and the music time at which it starts.
    private var endFade: (seconds: Double, start: Double)? {
        duration.map { d in
            let seconds = AmbientEngine.endFadeSeconds(duration: d)
            return (seconds, d - seconds)
        }
    }

    /// Starts the music.
    public func start() throws(AudioError) {
        guard state == .ready else { return }
        try playback.start(ambient: mixer)
        state = .playing
    }

    /// Pauses (the music stands still once faded) or resumes where it stood. Ignored once the
    /// music fades out or has ended.
    public func setPaused(_ paused: Bool) {
        guard state == .playing || state == .paused, paused != isPaused else { return }
        isPaused = paused
        state = paused ? .paused : .playing
        engine.setPaused(paused, fadeSeconds: AmbientTransport.pauseFadeSeconds)
        mixer.outgoing?.setPaused(paused, fadeSeconds: AmbientTransport.pauseFadeSeconds)
    }

    /// Chooses the bundled preset after the current one (the first after a preset file).
    @discardableResult
    public func next() -> AmbientPreset { step(by: 1) }

    /// Chooses the bundled preset before the current one.
    @discardableResult
    public func previous() -> AmbientPreset { step(by: AmbientPreset.bundled.count - 1) }

    private func step(by offset: Int) -> AmbientPreset {
        let all = AmbientPreset.bundled
        guard !all.isEmpty else { return preset }
        let index = all.firstIndex { $0.name == preset.name } ?? 0
        change(to: all[(index + offset) % all.count])
        return preset
    }

    /// Crossfades to `preset` over `crossfadeSeconds`, at the next `tick`. A change chosen during
    /// a crossfade waits for it to end; only the last one chosen meanwhile is played. Ignored once
    /// the music fades out or has ended.
    public func change(to preset: AmbientPreset) {
        guard state == .playing || state == .paused else { return }
        self.preset = preset
        pendingPreset = preset
    }

    /// Fades everything out over `fade` seconds; `tick` reports `finished` once it has been
    /// played. Without a device there is nothing to fade: the transport is `stopped` at once.
    public func requestStop(fade: Double = AmbientTransport.stopFadeSeconds) {
        switch state {
        case .playing, .paused:
            fadeOut(seconds: fade)
        case .ready, .waitingForDevice:
            playback.stop()
            state = .stopped
        case .fadingOut, .finished, .stopped:
            break
        }
    }

    private func fadeOut(seconds: Double) {
        engine.fadeOut(seconds: seconds)
        mixer.outgoing?.fadeOut(seconds: seconds)
        state = .fadingOut
    }

    /// The control loop's work: releases a piece that has faded out, starts a chosen preset's
    /// crossfade, begins the end fade of `duration`, closes the device once the fade-out has been
    /// heard (`finished`), and notices a lost device (`waitingForDevice`, with `deviceError`).
    /// Throws when the next preset cannot be generated.
    public func tick() throws(AudioError) {
        guard state == .playing || state == .paused || state == .fadingOut else { return }
        mixer.collect()
        if state != .fadingOut { try startPendingChange() }
        let status = engine.status
        if state != .fadingOut, let endFade, Double(status.frame) / sampleRate >= endFade.start {
            fadeOut(seconds: endFade.seconds)
        }
        if state == .fadingOut && status.finished && (mixer.outgoing?.status.finished ?? true) {
            playback.stop(drain: true)   // the fade is already in the device buffer: let it play
            state = .finished
            return
        }
        if let error = playback.stats.error {
            playback.stop()
            deviceError = error
            stateBeforeLoss = state
            state = .waitingForDevice
        }
    }

    private func startPendingChange() throws(AudioError) {
        guard let wanted = pendingPreset, !mixer.isFading else { return }
        pendingPreset = nil
        let next = try AmbientEngine(preset: wanted, seed: seed, sampleRate: sampleRate, maxBlockFrames: 4096)
        if isPaused { next.setPaused(true, fadeSeconds: 0) }
        try mixer.fade(to: next, seconds: AmbientTransport.crossfadeSeconds)
        engine = next
    }

    /// While `waitingForDevice`: tries once to open the device again at the same rate and, when it
    /// is back, resumes where the music stopped (the generator kept its place). False while it
    /// is still missing or offers another rate; throws when it opens but cannot start.
    public func reopenDevice() throws(AudioError) -> Bool {
        guard state == .waitingForDevice else { return false }
        guard let reopened = try? AudioPlayback(route: route, sampleRate: sampleRate, channels: AmbientEngine.channels),
            reopened.sampleRate == sampleRate
        else { return false }
        reopened.gainDB = gainDB
        try reopened.start(ambient: mixer)
        playback = reopened
        deviceError = nil
        state = stateBeforeLoss
        return true
    }

    /// How long the control loop may wait before `tick` is due (capped by `atMost`, for keys and
    /// a view): the end fade of `duration` starts on time even when nothing else wakes the loop.
    public func secondsUntilDue(atMost: Double = 0.05) -> Double {
        // A fade-out ends within moments: look again soon, so the device closes when it is over.
        if state == .fadingOut { return min(0.01, atMost) }
        guard state == .playing, let endFade else { return atMost }
        let wait = endFade.start - Double(engine.status.frame) / sampleRate
        return min(max(wait, 0.001), atMost)
    }
}
