import CAudioEngine

/// Every range boop accepts, read from the engine's header (its one source: the named bounds and
/// the `BOOP_LIMITS` table of CAudioEngineLimits.h). The engine checks the same constants; the command line's checks, help and
/// messages are built from these, so no number is written twice.
public enum Limits {
    /// Sample rates of the engine, playback, capture and the output stage (Hz).
    public static let sampleRate = Int(BOOP_ENGINE_RATE_MIN)...Int(BOOP_ENGINE_RATE_MAX)
    /// Polyphony of the voice pool.
    public static let voices = Int(BOOP_ENGINE_VOICES_MIN)...Int(BOOP_ENGINE_VOICES_MAX)
    public static let defaultVoices = Int(BOOP_ENGINE_VOICES_DEFAULT)
    public static let blockFrames = 1...Int(BOOP_ENGINE_BLOCK_FRAMES_MAX)
    public static let queueCapacity = Int(BOOP_ENGINE_QUEUE_MIN)...Int(BOOP_ENGINE_QUEUE_MAX)
    /// Interleaved channels of the engine, ambient and the output stage.
    public static let channels = 1...Int(BOOP_CHANNELS_MAX)
    /// An event's velocity gain, and the fade of all-notes-off and cancel (seconds).
    public static let eventGain = 0...Double(BOOP_EVENT_GAIN_MAX)
    public static let fadeSeconds = Double(BOOP_FADE_SECONDS_MIN)...Double(BOOP_FADE_SECONDS_MAX)
    /// The gain before the output limiter (dB).
    public static let gainDB = Double(BOOP_GAIN_DB_MIN)...Double(BOOP_GAIN_DB_MAX)
    /// Sound devices: channels, period (frames) and periods per buffer.
    public static let deviceChannels = 1...Int(BOOP_DEVICE_CHANNELS_MAX)
    public static let periodFrames = Int(BOOP_PERIOD_FRAMES_MIN)...Int(BOOP_PERIOD_FRAMES_MAX)
    public static let periods = Int(BOOP_PERIODS_MIN)...Int(BOOP_PERIODS_MAX)
    /// Pitch detection: sample rate (Hz) and window (frames).
    public static let pitchRate = Int(BOOP_PITCH_RATE_MIN)...Int(BOOP_ENGINE_RATE_MAX)
    public static let pitchWindow = Int(BOOP_PITCH_WINDOW_MIN)...Int(BOOP_PITCH_WINDOW_MAX)
    /// A pattern's tempo (BPM) and how many times a render plays it.
    public static let tempoBPM = Double(BOOP_TEMPO_BPM_MIN)...Double(BOOP_TEMPO_BPM_MAX)
    public static let loops = Int(BOOP_LOOPS_MIN)...Int(BOOP_LOOPS_MAX)
    /// Tones: frequency (Hz) and length (seconds).
    public static let toneHz = Double(BOOP_TONE_HZ_MIN)...Double(BOOP_TONE_HZ_MAX)
    public static let toneSeconds = Double(BOOP_TONE_SECONDS_MIN)...Double(BOOP_TONE_SECONDS_MAX)

    // The command line's own ranges: the engine takes any finite value here, so these bound what a
    // person may ask for (a tuning, a transposition, a session's length) rather than what works.
    /// `tone --reference`: the frequency of A4 (Hz), from baroque pitch to the highest orchestras and beyond.
    public static let referenceHz = doubles(BOOP_LIMIT_TONE_REFERENCE_HZ)
    /// `tone --cents`: a transposition of up to an octave either way.
    public static let cents = doubles(BOOP_LIMIT_TONE_CENTS)
    /// `ambient --duration` (seconds): up to a day.
    public static let ambientSeconds = doubles(BOOP_LIMIT_AMBIENT_SECONDS)
    /// `listen --duration` (seconds): up to a week.
    public static let listenSeconds = doubles(BOOP_LIMIT_LISTEN_SECONDS)
    /// MIDI note numbers, in patterns, the editor and the .mid export.
    public static let midiNote = ints(BOOP_LIMIT_MIDI_NOTE)
    /// A note's MIDI velocity, and a MIDI data byte (a controller's number or value).
    public static let midiVelocity = ints(BOOP_LIMIT_MIDI_VELOCITY)
    public static let midiData = ints(BOOP_LIMIT_MIDI_DATA)

    /// The ear-training exercises (`boop train`): the gap between two tones (s), A4 (Hz), the
    /// largest difference played (cents; an interval's at most its width), trials and note length (s).
    public static let trainGap = doubles(BOOP_LIMIT_TRAIN_GAP)
    public static let trainReferenceHz = doubles(BOOP_LIMIT_TRAIN_REFERENCE_HZ)
    public static let trainMaxCents = doubles(BOOP_LIMIT_TRAIN_MAX_CENTS)
    public static let trainIntervalCents = doubles(BOOP_LIMIT_TRAIN_INTERVAL_CENTS)
    public static let trainTrials = ints(BOOP_LIMIT_TRAIN_TRIALS)
    public static let trainNoteSeconds = doubles(BOOP_LIMIT_TRAIN_NOTE_SECONDS)
    /// `train --gap` and `--reference` when none is given.
    public static let trainGapDefault = defaultValue(BOOP_LIMIT_TRAIN_GAP)
    public static let trainReferenceDefault = defaultValue(BOOP_LIMIT_TRAIN_REFERENCE_HZ)

    /// A row of the header's table (`BOOP_LIMITS`) as a range of numbers.
    public static func doubles(_ id: boop_limit_id) -> ClosedRange<Double> {
        let row = boop_limit_get(id)
        return row.min...row.max
    }

    /// A row of the table whose bounds are whole numbers (counts, MIDI bytes, steps).
    public static func ints(_ id: boop_limit_id) -> ClosedRange<Int> {
        let row = boop_limit_get(id)
        return Int(row.min)...Int(row.max)
    }

    /// `value` held inside `range` (a MIDI byte from a computed pitch or level).
    public static func clamp(_ value: Int, to range: ClosedRange<Int>) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// The value a row's setting takes when none is given.
    public static func defaultValue(_ id: boop_limit_id) -> Double { boop_limit_get(id).default_value }

    /// "8000...384000": a range as every message writes it.
    public static func text(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)...\(range.upperBound)" }

    /// "-60...12", "0.02...3600": whole numbers without a decimal point.
    public static func text(_ range: ClosedRange<Double>) -> String { "\(text(range.lowerBound))...\(text(range.upperBound))" }

    /// "3600", "0.02": one bound as the messages write it.
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
