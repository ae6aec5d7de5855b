import CAudioEngine
import Glibc

/// One channel message as the synth received it, on the server's frame clock.
public struct MidiEvent: Sendable, Equatable, CustomStringConvertible {
    public let frame: UInt64
    public let status: UInt8
    public let data1: UInt8
    public let data2: UInt8

    /// 1-based, as musicians count channels.
    public var channel: Int { Int(status & 0x0F) + 1 }

    public var description: String {
        let note = NoteName(midi: Int(data1))
        let what: String
        switch status & 0xF0 {
        case 0x90 where data2 > 0: what = "note-on \(note) velocity \(data2)"
        case 0x90, 0x80: what = "note-off \(note)"
        case 0xA0: what = "aftertouch \(note) \(data2)"
        case 0xB0: what = "control \(data1) = \(data2)"
        case 0xC0: what = "program \(data1)"
        case 0xD0: what = "channel pressure \(data1)"
        default: what = "pitch bend \((Int(data2) << 7 | Int(data1)) - 8192)"
        }
        return "frame \(frame)  ch \(channel)  \(what)"
    }
}

/// Counters of a running synth; read atomically from the engine.
public struct LiveSynthStats: Sendable, Equatable {
    public let messages: UInt64
    public let malformedBytes: UInt64
    public let ignored: UInt64
    public let notesHeld: Int
    public let voices: Int
    /// The last note started: 1-based channel and MIDI key.
    public let lastNote: (channel: Int, key: Int)?
    public let xruns: UInt64
    public let frames: UInt64
    /// Set once the server went away.
    public let lost: Bool
    /// ALSA: events played after their frame (the I/O thread woke more than a period late).
    public var late: UInt64 = 0

    public static func == (a: LiveSynthStats, b: LiveSynthStats) -> Bool {
        a.messages == b.messages && a.malformedBytes == b.malformedBytes && a.ignored == b.ignored
            && a.notesHeld == b.notesHeld && a.voices == b.voices && a.lastNote?.channel == b.lastNote?.channel
            && a.lastNote?.key == b.lastNote?.key && a.xruns == b.xruns && a.frames == b.frames && a.lost == b.lost
    }
}

/// The ALSA side of a live synth: the PCM it plays through and the period, which is also the delay
/// between a sequencer event's arrival and its frame.
public struct LiveSynthAlsa: Sendable {
    public var device: String
    public var sampleRate: Double
    public var periodFrames: Int

    /// The engine's defaults (`boop_synth_config_default`, their one source).
    public static let defaultSampleRate = LiveSynth.defaultConfig().sample_rate
    public static let defaultPeriodFrames = Int(LiveSynth.defaultConfig().period_frames)

    public init(
        device: String = "default", sampleRate: Double = LiveSynthAlsa.defaultSampleRate,
        periodFrames: Int = LiveSynthAlsa.defaultPeriodFrames
    ) {
        self.device = device
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
    }
}

/// boop as a live instrument. On JACK: a client with a MIDI input and two audio outputs, each MIDI
/// event applied on its own frame in the server's process callback. On ALSA (`alsa` given): the
/// PCM, and a sequencer client whose events are placed one period after their arrival. Used from
/// one control thread.
public final class LiveSynth {
    private let handle: OpaquePointer
    public let backend: AudioBackend

    public static let bendRange: ClosedRange<Double> = BOOP_SYNTH_BEND_RANGE_MIN...BOOP_SYNTH_BEND_RANGE_MAX
    /// MIDI channels as people number them.
    public static let channels = 1...Int(BOOP_MIDI_CHANNELS)
    /// The engine's defaults (`boop_synth_config_default`, their one source).
    public static let defaultPolyphony = Int(defaultConfig().voices)
    public static let defaultBendRange = defaultConfig().bend_range

    static func defaultConfig() -> boop_synth_config {
        var config = boop_synth_config()
        boop_synth_config_default(&config)
        return config
    }

    /// Opens the client `clientName` with ports midi_in, out_1, out_2 (nothing sounds until `start`).
    /// `voices` maps 1-based channels to voices; the ones not given keep the default map. The
    /// sound passes the engine's output stage: `gainDB`, then the true-peak limiter.
    public init(
        clientName: String = "boop", connect: Bool = true, polyphony: Int = LiveSynth.defaultPolyphony,
        bendRange: Double = LiveSynth.defaultBendRange,
        voices: [Int: SynthVoice] = [:], alsa: LiveSynthAlsa? = nil, gainDB: Double = 0, lookahead: Bool = true,
        tuning: ScalaTuning? = nil, mpe: MpeZones = MpeZones()
    ) throws(AudioError) {
        var config = boop_synth_config()
        boop_synth_config_default(&config)
        config.output = try OutputStage.config(gainDB: gainDB)
        backend = alsa == nil ? .jack : .alsa
        if let alsa {
            config.backend = BOOP_BACKEND_ALSA
            config.sample_rate = alsa.sampleRate
            config.period_frames = UInt32(clamping: alsa.periodFrames)
        }
        config.connect = connect ? 1 : 0
        config.voices = UInt32(clamping: polyphony)
        config.bend_range = bendRange
        withUnsafeMutableBytes(of: &config.channel_voice) { raw in
            let slots = raw.bindMemory(to: Int32.self)
            for (channel, voice) in voices where LiveSynth.channels.contains(channel) { slots[channel - 1] = voice.cValue }
        }
        var out: OpaquePointer?
        var why = [CChar](repeating: 0, count: 256)
        let status = clientName.withCString { name in
            (alsa?.device ?? "default").withCString { device in
                config.client_name = name
                config.device = device
                return boop_synth_open_why(&config, &out, &why, why.count)
            }
        }
        guard status == BOOP_OK, let out else {
            let reason = String(cBuffer: why)
            if !reason.isEmpty {
                let what = alsa != nil ? reason : "JACK client '\(OneLine.escape(clientName))': \(reason)"
                throw status == BOOP_ERROR_DEVICE_UNAVAILABLE ? .deviceUnavailable(what) : .from(status, what)
            }
            throw AudioError.from(status, "JACK client \(clientName) with a MIDI input (is a JACK server running?)")
        }
        handle = out
        do {
            try configure(voices: voices, lookahead: lookahead, tuning: tuning)
            if mpe.lower > 0 || mpe.upper > 0 {
                try AudioError.check(boop_synth_set_mpe(out, Int32(mpe.lower), Int32(mpe.upper)), "--mpe")
            }
        } catch {
            boop_synth_destroy(out)
            throw error
        }
    }

    /// Before start: the song sounds of the channels that play a song's instrument, the look-ahead.
    private func configure(voices: [Int: SynthVoice], lookahead: Bool, tuning: ScalaTuning?) throws(AudioError) {
        for (channel, voice) in voices.sorted(by: { $0.key < $1.key }) where LiveSynth.channels.contains(channel) {
            guard var sound = voice.sound else { continue }
            try AudioError.check(boop_synth_set_channel_sound(handle, UInt32(channel - 1), &sound), "channel \(channel)'s sound")
        }
        try AudioError.check(boop_synth_set_lookahead(handle, lookahead ? 1 : 0), "--lookahead")
        if let tuning {
            let handle = self.handle
            try AudioError.check(try tuning.withHandle { boop_synth_set_tuning(handle, $0) }, "--scl")
        }
    }

    /// JACK: out of the server's graph while the process is stopped (Ctrl-Z), and back with its
    /// links; the notes that sounded are gone. ALSA: nothing.
    public func suspend() { _ = boop_synth_suspend(handle) }
    public func resume() throws(AudioError) {
        try AudioError.check(boop_synth_resume(handle), "activating the JACK client again")
    }

    deinit { boop_synth_destroy(handle) }

    public var sampleRate: Double { boop_synth_sample_rate(handle) }
    public var bufferFrames: Int { Int(boop_synth_buffer_frames(handle)) }
    /// The frames the output stage's look-ahead delays the sound: a note sounds this much after
    /// the frame its event was applied on (JACK reports it as the ports' latency).
    public var outputLatencyFrames: Int { Int(boop_synth_output_latency_frames(handle)) }
    /// The MIDI input's full port name, e.g. `boop:midi_in`.
    public var midiPort: String { String(cString: boop_synth_midi_port(handle)) }

    public func start() throws(AudioError) {
        let status = boop_synth_start(handle)
        guard status == BOOP_OK else { throw AudioError.from(status, "activating the JACK client") }
    }

    /// Connects another client's MIDI output port to the synth's input.
    public func connectMidi(from port: String) throws(AudioError) {
        let status = boop_synth_connect_midi(handle, port)
        guard status == BOOP_OK else {
            // A name no port has is the user's (64); a port that will not connect, the device's (69).
            let message =
                backend == .alsa
                ? "--midi \(port): no ALSA sequencer source of that client:port or name (see boop devices)"
                : "--midi-connect \(port): no JACK MIDI output port of that name or holding it (see boop devices)"
            if status == BOOP_ERROR_INVALID_ARGUMENT { throw .invalidConfiguration(message) }
            throw .deviceUnavailable("\(backend == .alsa ? "--midi" : "--midi-connect") \(port): the port would not connect")
        }
    }

    public func fadeOut(seconds: Double) { _ = boop_synth_fade_out(handle, seconds) }

    /// Fades out over `seconds` and returns once the fade has been rendered on the server's (or
    /// device's) clock, plus one period and 10 ms, or after `limit` seconds, or when the sound
    /// system is lost. It sleeps for the frames still to come instead of polling.
    public func fadeOutAndWait(seconds: Double, limit: Double = 1) {
        let rate = sampleRate
        let target = stats.frames + UInt64((seconds + 0.01) * rate) + UInt64(bufferFrames)
        fadeOut(seconds: seconds)
        let deadline = Timestamp().addingTimeInterval(limit)
        while Timestamp() < deadline {
            let s = stats
            if s.frames >= target || s.lost { return }
            Threads.sleep(seconds: min(max(Double(target - s.frames) / rate, 0.001), limit))
        }
    }

    public var stats: LiveSynthStats {
        let s = boop_synth_get_stats(handle)
        return LiveSynthStats(
            messages: s.messages, malformedBytes: s.malformed_bytes, ignored: s.ignored, notesHeld: Int(s.notes_held),
            voices: Int(s.voices), lastNote: s.last_note < 0 ? nil : (Int(s.last_note >> 8) + 1, Int(s.last_note & 0x7F)),
            xruns: s.xruns, frames: s.frames, lost: s.error != BOOP_OK, late: s.late)
    }

    /// The next message received since the last call (for -v), oldest first.
    public func nextEvent() -> MidiEvent? {
        var e = boop_midi_event()
        guard boop_synth_next_event(handle, &e) != 0 else { return nil }
        return MidiEvent(frame: e.frame, status: e.status, data1: e.data1, data2: e.data2)
    }

    /// Messages left out of the `nextEvent` log because the reader fell behind (they were played).
    public var loggedDropped: UInt64 { boop_synth_log_dropped(handle) }

    public func stop() { boop_synth_stop(handle) }

    /// A descriptor readable once the sound stopped by itself (the device lost, the server gone):
    /// the command's loop sleeps on it (LiveLoop.endedDescriptor). Owned by the synth; -1 if none.
    public var endedDescriptor: Int32 { boop_synth_ended_fd(handle) }

    /// Records what is played to `path` (.wav, .flac, .ogg, or .mid for the messages); before `start`.
    public func record(to path: String) throws(AudioError) {
        let status = boop_synth_record(handle, path)
        guard status == BOOP_OK else {
            throw AudioError.from(status, "--record \(path): \(String(cString: boop_synth_record_error(handle)))")
        }
    }

    /// After `stop`: renames the recording into place (nothing appears under its name on failure).
    /// Returns the frames or messages the writer could not keep up with (a gap in the file).
    @discardableResult
    public func finishRecording(path: String) throws(AudioError) -> UInt64 {
        let status = boop_synth_finish_record(handle)
        guard status == BOOP_OK else {
            throw AudioError.from(status, "--record \(path): \(String(cString: boop_synth_record_error(handle)))")
        }
        return boop_synth_record_dropped(handle)
    }
}
