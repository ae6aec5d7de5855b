import CAudioEngine
import Glibc

/// What ALSA granted when the playback device was opened.
public struct PlaybackInfo: Sendable, Equatable {
    /// "FLOAT_LE", "S32_LE" or "S16_LE": the sample format the device takes.
    public let format: String
    public let sampleRate: Double
    public let channels: Int
    public let periodFrames: Int
    /// What is kept queued at first: period x periods (the largest part of the output latency).
    public let bufferFrames: Int
    /// True when the I/O thread runs at a real-time priority (known after `start`).
    public let realtime: Bool
    /// "SCHED_FIFO", "rtkit" or "normal" (known after `start`).
    public let priority: String
    /// The most adaptive buffering may grow the buffer to (equal to `bufferFrames` when fixed).
    public let deviceBufferFrames: Int

    /// The starting latency in seconds.
    public var bufferSeconds: Double { Double(bufferFrames) / sampleRate }

    /// One line for -v: format, rate, period, latency and scheduling.
    public func describe(device: String) -> String {
        let scheduling =
            switch priority {
            case "SCHED_FIFO": "SCHED_FIFO"
            case "rtkit": "real-time priority from rtkit"
            default: "normal priority (neither SCHED_FIFO nor rtkit permitted)"
            }
        let growth =
            deviceBufferFrames > bufferFrames
            ? String(cFormat: ", adaptive up to %.0f ms", Double(deviceBufferFrames) / sampleRate * 1000) : ", fixed"
        return String(
            cFormat: "device %@: %@, %.0f Hz, %d ch, period %d frames, buffer %d frames (%.2f ms%@), %@",
            device, format, sampleRate, channels, periodFrames, bufferFrames, bufferSeconds * 1000, growth, scheduling)
    }
}

/// Counters of the running I/O thread. Read atomically; any thread.
public struct PlaybackStats: Sendable, Equatable {
    /// Frames handed to ALSA so far.
    public let framesWritten: UInt64
    /// Frames written but not yet heard (snd_pcm_delay), as last measured.
    public let delayFrames: Int64
    public let xruns: UInt64
    public let suspends: UInt64
    public let running: Bool
    /// Why the I/O thread stopped on its own (nil while running or after a normal stop).
    public let error: AudioError?
    /// Times the device took nothing for longer than its buffer and then resumed (a slow or
    /// stopped server, a sink waking up), and the longest such stall.
    public var stalls: UInt64 = 0
    public var longestStallSeconds: Double = 0
    /// What is kept queued now, and how often adaptive buffering grew it.
    public var latencyFrames: Int = 0
    public var latencyGrowths: Int = 0
    /// Times the process was found to have been stopped (SIGSTOP, a debugger) and the stream was
    /// picked up again: time not running never counts against the device.
    public var resumes: UInt64 = 0

    /// One line for -v at the end of playback.
    public func summary(sampleRate: Double) -> String {
        String(
            cFormat:
                "played %llu frames, xruns %llu, suspends %llu, stalls %llu (longest %.2f s), latency %d frames (%.2f ms, grown %d times)",
            framesWritten, xruns, suspends, stalls, longestStallSeconds, latencyFrames,
            Double(latencyFrames) / sampleRate * 1000, latencyGrowths)
            + (resumes > 0 ? ", resumed after stops: \(resumes)" : "")
    }
}

/// ALSA playback: a C++ I/O thread that pulls audio from an engine and writes it to a PCM.
///
/// Swift never runs on the I/O thread; it only starts and stops it and reads atomics. The
/// device is opened by `init` (so a missing device fails early with `deviceUnavailable`) and
/// closed by `stop` or `deinit`. Not `Sendable`: one control thread owns it.
public final class AudioPlayback {
    let handle: OpaquePointer
    /// Where the sound goes.
    public let route: AudioRoute
    /// The ALSA PCM name, or "jack:<client>".
    /// (ALSA with `mute` opens no PCM: "none", a timer keeps the time.)
    public var device: String {
        route.backend == .jack ? "jack:\(route.clientName)" : route.mute ? "none (a timer, no sound)" : route.device
    }
    private var keepAlive: [AnyObject] = []
    private var started = false

    /// Opens `device` for `channels` interleaved channels at (or near) `sampleRate`.
    /// `periodFrames` x `periods` is the requested device buffer (default 128 x 3).
    /// `adaptive` keeps more audio queued when xruns come in a burst (up to 50 ms).
    public convenience init(
        device: String = "default", sampleRate: Double, channels: Int, periodFrames: Int = 128,
        periods: Int = 3, adaptive: Bool = true
    ) throws(AudioError) {
        try self.init(
            route: AudioRoute(device: device), sampleRate: sampleRate, channels: channels,
            periodFrames: periodFrames, periods: periods, adaptive: adaptive)
    }

    /// Opens `route`: an ALSA PCM as above, or a JACK client (the server's rate and buffer size
    /// win over `sampleRate` and the period settings; see `info`).
    public init(
        route: AudioRoute, sampleRate: Double, channels: Int, periodFrames: Int = 128,
        periods: Int = 3, adaptive: Bool = true, gainDB: Double = 0, midiKeys: MidiKeyboard? = nil
    ) throws(AudioError) {
        try AudioPlayback.check(sampleRate: sampleRate)
        try AudioPlayback.check(channels: channels)
        guard Limits.periodFrames.contains(periodFrames) else {
            throw AudioError.invalidConfiguration("period \(periodFrames) frames: expected \(Limits.text(Limits.periodFrames))")
        }
        guard Limits.periods.contains(periods) else {
            throw AudioError.invalidConfiguration("periods \(periods): expected \(Limits.text(Limits.periods))")
        }
        var config = boop_playback_config()
        boop_playback_config_default(&config)
        // Every source played passes the engine's output stage: the user's gain, then the
        // true-peak limiter (the gain can change later through `gainDB`).
        config.output = try OutputStage.config(gainDB: gainDB)
        config.period_frames = UInt32(periodFrames)
        config.periods = UInt32(periods)
        config.adaptive = adaptive ? 1 : 0
        config.backend = route.backend.cValue
        config.connect = route.connect && !route.mute ? 1 : 0
        config.midi_out = route.midiOut ? 1 : 0
        config.mute = route.mute ? 1 : 0
        config.follow_transport = route.followTransport ? 1 : 0
        config.follow_midi_clock = route.followMidiClock ? 1 : 0
        // JACK: a port midi_in whose notes the keyboard takes (its queue is shared, so it outlives us).
        config.midi_keys = route.backend == .jack ? midiKeys?.handle : nil
        let purpose = "playback at \(Int(sampleRate)) Hz, \(channels) channel(s)"
        if let refused = route.memoryRefused(purpose, beforeOpening: true) { throw refused }
        var out: OpaquePointer?
        var why = [CChar](repeating: 0, count: 256)
        let status = route.device.withCString { name -> boop_status in
            route.clientName.withCString { client -> boop_status in
                config.device = name
                config.client_name = client
                return boop_playback_open_why(&config, sampleRate, UInt32(channels), &out, &why, why.count)
            }
        }
        guard status == BOOP_OK, let out else {
            if status == BOOP_ERROR_DEVICE_UNAVAILABLE {
                throw route.openFailure(purpose, reason: String(cBuffer: why))
            }
            throw AudioError.from(status, "opening \(route) for playback")
        }
        self.handle = out
        self.route = route
        self.gainDB = gainDB
    }

    deinit {
        boop_playback_destroy(handle)
    }

    /// What was negotiated.
    public var info: PlaybackInfo {
        let i = boop_playback_get_info(handle)
        return PlaybackInfo(
            format: i.format.map { String(cString: $0) } ?? "",
            sampleRate: i.sample_rate, channels: Int(i.channels),
            periodFrames: Int(i.period_frames), bufferFrames: Int(i.buffer_frames),
            realtime: i.realtime_scheduling != 0,
            priority: i.priority == BOOP_PRIORITY_FIFO ? "SCHED_FIFO" : i.priority == BOOP_PRIORITY_RTKIT ? "rtkit" : "normal",
            deviceBufferFrames: Int(i.device_buffer_frames))
    }

    /// The granted sample rate; render at this rate.
    public var sampleRate: Double { boop_playback_get_info(handle).sample_rate }

    public var stats: PlaybackStats {
        let s = boop_playback_get_stats(handle)
        let error: AudioError?
        switch s.error {
        case BOOP_OK: error = nil
        case BOOP_ERROR_DEVICE_LOST where route.backend == .jack:
            error = .deviceLost("the JACK server shut down or dropped \(route)")
        case BOOP_ERROR_DEVICE_LOST:
            error = .deviceLost(
                "\(route) is gone (ALSA reported it disconnected, or it took no audio for \(BOOP_PLAYBACK_WATCHDOG_SECONDS) s of running time)"
            )
        default: error = AudioError.from(s.error, "playback on \(route)")
        }
        var stats = PlaybackStats(
            framesWritten: s.frames_written, delayFrames: s.delay_frames, xruns: s.xruns,
            suspends: s.suspends, running: s.running != 0, error: error)
        stats.stalls = s.stalls
        stats.longestStallSeconds = s.longest_stall_seconds
        stats.latencyFrames = Int(s.latency_frames)
        stats.latencyGrowths = Int(s.latency_growths)
        stats.resumes = s.resumes
        return stats
    }

    /// The frame of the source's timeline that the listener hears now: frames written minus the
    /// device's delay, never negative.
    public var audibleFrame: UInt64 {
        let s = boop_playback_get_stats(handle)
        let audible = Int64(bitPattern: s.frames_written) - s.delay_frames
        return audible > 0 ? UInt64(audible) : 0
    }

    /// The longest a stop waits for its fade to be heard. A device that holds more than this
    /// (PulseAudio's idle null sink reports half a second and more) is closed with the rest still
    /// in it: a stop must feel immediate, and the fade has then long passed the engine.
    public static let stopWaitLimit = 0.5

    /// Sleeps until the listener hears `frame` of the source's timeline, the device fails, or
    /// `limit` seconds pass; each nap is the time still missing, so it wakes when the frame is due.
    public func waitUntilHeard(frame: UInt64, sampleRate: Double, limit: Double = AudioPlayback.stopWaitLimit) {
        let deadline = Timestamp().addingTimeInterval(limit)
        while Timestamp() < deadline && stats.error == nil {
            let heard = audibleFrame
            if heard >= frame { return }
            Threads.sleep(seconds: min(max(Double(frame - heard) / sampleRate, 0.001), limit))
        }
    }

    /// True while the I/O thread runs (false before start, after stop, or after a device loss).
    public var isRunning: Bool { boop_playback_get_stats(handle).running != 0 }

    /// A descriptor that becomes readable once the audio stopped (the device lost, the JACK server
    /// gone, or stopped): a command's loop sleeps on it beside the keys (LiveLoop.endedDescriptor),
    /// so a lost device wakes it at once and nothing asks `stats` on a timer. Owned by the
    /// playback (never close or read it); -1 when the system gave none.
    public var endedDescriptor: Int32 { boop_playback_ended_fd(handle) }

    /// Starts pulling from a C++ source. `keepAlive` is retained until `stop` (or deinit) so the
    /// object behind `source.context` outlives the I/O thread.
    internal func start(source inner: boop_source, keepAlive: AnyObject) throws(AudioError) {
        if started { throw AudioError.alreadyStreaming("playback on \(route) is already running") }
        // The playback runs the engine's output stage on whatever it plays (gain, then limiter).
        let status = boop_playback_start(handle, inner)
        guard status == BOOP_OK else {
            if status == BOOP_ERROR_INVALID_ARGUMENT {
                throw AudioError.invalidConfiguration(
                    "source with \(inner.channels) channel(s) at \(inner.sample_rate) Hz for \(route) opened with \(info.channels)"
                )
            }
            throw AudioError.from(status, "starting playback on \(route)")
        }
        self.keepAlive = [keepAlive]
        started = true
    }

    /// The gain before the output limiter, in dB (`OutputStage.gainRange`, values outside it are
    /// held to it): set it before `start`, or change it while playing (it glides over 20 ms).
    public var gainDB: Double = 0 {
        didSet {
            let held = gainDB.isNaN ? 0 : min(max(gainDB, OutputStage.gainRange.lowerBound), OutputStage.gainRange.upperBound)
            _ = boop_playback_set_gain_db(handle, held)
        }
    }

    /// The deepest limiter gain reduction since the last call, in dB (0: not limiting).
    public func takeLimiterReductionDB() -> Double { Double(boop_playback_take_reduction_db(handle)) }

    /// Plays an engine. The engine's channel count must match the device's, and it should run at
    /// `sampleRate` (the granted rate).
    public func start(engine: AudioEngine) throws(AudioError) {
        try start(source: engine.renderSource, keepAlive: engine)
    }

    /// Stops the I/O thread and closes the device. With `drain`, what the device holds is played
    /// out first (bounded by the buffer length; never hangs on a dead device).
    public func stop(drain: Bool = false) {
        boop_playback_stop(handle, drain ? 1 : 0)
        keepAlive = []
    }
}

extension AudioPlayback {
    /// Throws `invalidConfiguration` unless a device stream (playback or capture) may run at
    /// `sampleRate`.
    static func check(sampleRate: Double) throws(AudioError) {
        guard sampleRate.isFinite, EngineConfiguration.sampleRateRange.contains(sampleRate) else {
            throw AudioError.invalidConfiguration("sample rate \(sampleRate) Hz: expected \(Limits.text(Limits.sampleRate))")
        }
    }

    /// Throws `invalidConfiguration` unless a device stream may have `channels` channels.
    static func check(channels: Int) throws(AudioError) {
        guard Limits.deviceChannels.contains(channels) else {
            throw AudioError.invalidConfiguration("channels \(channels): expected \(Limits.text(Limits.deviceChannels))")
        }
    }
}
