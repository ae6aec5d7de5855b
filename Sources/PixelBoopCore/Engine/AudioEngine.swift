import CAudioEngine

/// The voice a note is played with. Each pattern track has its own; `tone` is the pure sine of
/// the ear-training player.
public enum Timbre: Sendable, CaseIterable {
    case melody, chords, bass, tone

    var cValue: boop_timbre {
        switch self {
        case .melody: return BOOP_TIMBRE_MELODY
        case .chords: return BOOP_TIMBRE_CHORDS
        case .bass: return BOOP_TIMBRE_BASS
        case .tone: return BOOP_TIMBRE_TONE
        }
    }
}

/// Shape of an engine; changing any of these means creating a new engine.
public struct EngineConfiguration: Sendable, Equatable {
    /// The ranges the engine accepts, read from the C header (its one source).
    public static let sampleRateRange = Double(Limits.sampleRate.lowerBound)...Double(Limits.sampleRate.upperBound)
    public static let voicesRange = Limits.voices
    public static let blockFramesRange = Limits.blockFrames
    public static let queueCapacityRange = Limits.queueCapacity

    /// The first field out of the engine's range, named with what was expected; nil when valid.
    public var problem: String? {
        if !(sampleRate.isFinite && Self.sampleRateRange.contains(sampleRate)) {
            return "sample rate \(sampleRate) Hz: expected \(Limits.text(Limits.sampleRate))"
        }
        if !Self.voicesRange.contains(voices) { return "voices \(voices): expected \(Limits.text(Self.voicesRange))" }
        if !Self.blockFramesRange.contains(maxBlockFrames) {
            return "block of \(maxBlockFrames) frames: expected \(Limits.text(Self.blockFramesRange))"
        }
        if !Self.queueCapacityRange.contains(queueCapacity) {
            return "queue of \(queueCapacity) events: expected \(Limits.text(Self.queueCapacityRange))"
        }
        // Mono or stereo: "1 or 2" reads better than a range of two.
        if !Limits.channels.contains(channels) { return "channels \(channels): expected 1 or \(Limits.channels.upperBound)" }
        return nil
    }

    public var sampleRate: Double
    public var voices: Int
    public var maxBlockFrames: Int
    public var queueCapacity: Int
    public var channels: Int

    public init(
        sampleRate: Double = Limits.defaultValue(BOOP_LIMIT_ENGINE_RATE), voices: Int = Limits.defaultVoices,
        maxBlockFrames: Int = Int(Limits.defaultValue(BOOP_LIMIT_BLOCK_FRAMES)),
        queueCapacity: Int = Int(Limits.defaultValue(BOOP_LIMIT_QUEUE)),
        channels: Int = Int(Limits.defaultValue(BOOP_LIMIT_CHANNELS))
    ) {
        self.sampleRate = sampleRate
        self.voices = voices
        self.maxBlockFrames = maxBlockFrames
        self.queueCapacity = queueCapacity
        self.channels = channels
    }
}

/// Identifies a sounding note so it can be released.
public struct NoteID: Hashable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// The synthesis engine: a pool of voices rendered sample-accurately by C++.
///
/// One thread at a time drives an engine (it is the single producer of the engine's lock-free
/// event queue), so the class is deliberately not `Sendable`. Rendering happens either here
/// (`render(into:)`, offline) or on the ALSA I/O thread started by `AudioPlayback`, never both.
public final class AudioEngine {
    let handle: OpaquePointer
    public let configuration: EngineConfiguration
    // Ids from play()/triggerNote() live in the upper half so they never meet a sequencer's ids.
    private var nextNoteID: UInt32 = 0x8000_0000
    private var heldByPitch: [Int: [NoteID]] = [:]

    public init(configuration: EngineConfiguration = EngineConfiguration()) throws(AudioError) {
        if let problem = configuration.problem { throw AudioError.invalidConfiguration("engine: \(problem)") }
        var config = boop_engine_config()
        config.sample_rate = configuration.sampleRate
        config.voices = UInt32(clamping: configuration.voices)
        config.max_block_frames = UInt32(clamping: configuration.maxBlockFrames)
        config.queue_capacity = UInt32(clamping: configuration.queueCapacity)
        config.channels = UInt32(clamping: configuration.channels)
        var engine: OpaquePointer?
        let status = boop_engine_create(&config, &engine)
        guard status == BOOP_OK, let engine else {
            if status != BOOP_ERROR_INVALID_ARGUMENT {
                // Not the settings (they were checked above): memory refused, say by `ulimit -v`.
                throw AudioError.engineStartFailed(
                    "engine with \(configuration.sampleRate) Hz, \(configuration.voices) voices: "
                        + String(cString: boop_status_string(status)) + "; is memory limited (ulimit -v)?")
            }
            throw AudioError.invalidConfiguration(
                "engine with \(configuration.sampleRate) Hz, \(configuration.voices) voices, "
                    + "\(configuration.maxBlockFrames)-frame blocks, \(configuration.channels) channel(s): "
                    + String(cString: boop_status_string(status))
                    + " (rate \(Limits.text(Limits.sampleRate)), voices \(Limits.text(Limits.voices)),"
                    + " block \(Limits.text(Limits.blockFrames)), channels 1 or \(Limits.channels.upperBound))")
        }
        self.handle = engine
        self.configuration = configuration
    }

    deinit { boop_engine_destroy(handle) }

    public var sampleRate: Double { configuration.sampleRate }
    public var channels: Int { configuration.channels }
    /// Frames rendered so far; events scheduled at or before it apply at the next block start.
    public var frameClock: UInt64 { boop_engine_frame_clock(handle) }
    /// Tap-to-sound: marks `frame` (replacing another mark); the render that first takes the clock
    /// past it notes when it ended. Returns that time (CLOCK_MONOTONIC seconds), nil until then:
    /// ask again with the same frame to read it.
    @discardableResult
    public func mark(frame: UInt64) -> Double? {
        let ns = boop_engine_mark(handle, frame)
        return ns == 0 ? nil : Double(ns) / 1e9
    }
    public var activeVoices: Int { Int(boop_engine_active_voices(handle)) }
    public var droppedEvents: UInt64 { boop_engine_dropped_events(handle) }
    /// The frame of an event that sounds at once, ahead of everything queued (BOOP_FRAME_NOW):
    /// an audition while a pattern plays.
    public static let now = UInt64.max

    /// Peak |sample| of the last rendered block.
    public var peak: Float { boop_engine_peak(handle) }

    // MARK: Notes

    /// Starts a note of MIDI `pitch` (A4 = 69 = `reference` Hz) with `cents` of detune on frame
    /// `frame` (nil: as soon as possible).
    @discardableResult
    public func triggerNote(
        pitch: Int, velocity: Velocity = .normal, at frame: UInt64? = nil,
        timbre: Timbre = .melody, cents: Double = 0,
        reference: Double = 440
    ) throws(AudioError) -> NoteID {
        guard Limits.midiNote.contains(pitch) else {
            throw AudioError.invalidConfiguration("MIDI pitch \(pitch): expected \(Limits.text(Limits.midiNote))")
        }
        let hz = Pitch.frequency(midi: Double(pitch), cents: cents, reference: reference)
        let id = try play(frequency: hz, gain: velocity.gain, at: frame, timbre: timbre)
        heldByPitch[pitch, default: []].append(id)
        return id
    }

    /// Releases the oldest held note of MIDI `pitch` on `frame` (nil: as soon as possible).
    public func releaseNote(pitch: Int, at frame: UInt64? = nil) throws(AudioError) {
        guard var ids = heldByPitch[pitch], !ids.isEmpty else { return }
        let id = ids.removeFirst()
        heldByPitch[pitch] = ids.isEmpty ? nil : ids
        try releaseNote(id, at: frame)
    }

    /// Starts a note at an exact frequency in Hz.
    @discardableResult
    public func play(
        frequency: Double, gain: Float, at frame: UInt64? = nil,
        timbre: Timbre = .melody
    ) throws(AudioError) -> NoteID {
        guard frequency.isFinite, frequency > 0, frequency < sampleRate / 2 else {
            throw AudioError.invalidFrequency("\(frequency) Hz: expected above 0 and below \(sampleRate / 2) Hz at this rate")
        }
        let id = NoteID(rawValue: nextNoteID)
        nextNoteID &+= 1
        try AudioError.check(
            boop_engine_note_on(handle, frame ?? frameClock, id.rawValue, timbre.cValue, frequency, gain),
            "note on \(frequency) Hz")
        return id
    }

    /// Starts a note under a caller-chosen id (the sequencer numbers its own notes).
    public func noteOn(id: UInt32, frequency: Double, gain: Float, at frame: UInt64, timbre: Timbre) throws(AudioError) {
        guard frequency.isFinite, frequency > 0, frequency < sampleRate / 2 else {
            throw AudioError.invalidFrequency("\(frequency) Hz: expected above 0 and below \(sampleRate / 2) Hz at this rate")
        }
        try AudioError.check(boop_engine_note_on(handle, frame, id, timbre.cValue, frequency, gain), "note on \(frequency) Hz")
    }

    public func releaseNote(_ id: NoteID, at frame: UInt64? = nil) throws(AudioError) {
        try AudioError.check(boop_engine_note_off(handle, frame ?? frameClock, id.rawValue), "note off")
    }

    /// Strikes a General MIDI drum with a gain of its own (a song's velocity times the track's level).
    public func drumHit(key: Int, gain: Float, at frame: UInt64) throws(AudioError) {
        guard Limits.midiNote.contains(key) else {
            throw AudioError.invalidConfiguration("drum key \(key): expected \(Limits.text(Limits.midiNote))")
        }
        try AudioError.check(boop_engine_drum_hit(handle, frame, UInt32(key), gain), "drum hit")
    }

    /// Strikes a General MIDI drum (35 kick, 38 snare, 42 closed hat ...).
    public func drumHit(key: Int, velocity: Velocity = .normal, at frame: UInt64? = nil) throws(AudioError) {
        guard Limits.midiNote.contains(key) else {
            throw AudioError.invalidConfiguration("drum key \(key): expected \(Limits.text(Limits.midiNote))")
        }
        try AudioError.check(boop_engine_drum_hit(handle, frame ?? frameClock, UInt32(key), velocity.gain), "drum hit")
    }

    /// Fades everything that sounds to silence over `fade` seconds (`Limits.fadeSeconds`).
    public func allNotesOff(at frame: UInt64? = nil, fade: Double = 0.01) throws(AudioError) {
        heldByPitch.removeAll()
        try AudioError.check(boop_engine_all_notes_off(handle, frame ?? frameClock, fade), "all notes off")
    }

    /// Discards everything queued so far (even notes stamped in the future) and fades what sounds
    /// over `fade` seconds from the next block: pause and stop for a player that schedules ahead.
    public func cancelPending(fade: Double = 0.01) throws(AudioError) {
        heldByPitch.removeAll()
        try AudioError.check(boop_engine_cancel_pending(handle, fade), "cancel pending events")
    }

    // MARK: Offline render

    /// Renders `frames` interleaved frames into `buffer` (resized to fit), in engine-sized blocks.
    public func render(into buffer: inout [Float], frames: Int) throws(AudioError) {
        let channels = configuration.channels
        if buffer.count != frames * channels { buffer = [Float](repeating: 0, count: frames * channels) }
        let block = configuration.maxBlockFrames
        var status = BOOP_OK
        buffer.withUnsafeMutableBufferPointer { out in
            var done = 0
            while done < frames && status == BOOP_OK {
                let n = min(block, frames - done)
                status = boop_engine_render(handle, out.baseAddress! + done * channels, UInt32(n))
                done += n
            }
        }
        try AudioError.check(status, "render \(frames) frames")
    }

    /// Renders `frames` frames and returns them.
    public func render(frames: Int) throws(AudioError) -> [Float] {
        var buffer: [Float] = []
        try render(into: &buffer, frames: frames)
        return buffer
    }

    /// The engine as a pull source for the ALSA backend (C++ all the way down).
    internal var renderSource: boop_source { boop_engine_source(handle) }
}

/// Library version.
public enum PixelBoopVersion {
    public static var string: String { String(cString: boop_version()) }
}
