import CAudioEngine

/// Every range boop accepts, read from the engine's header (its one source: "Limits" in
/// CAudioEngine.h). The engine checks the same constants; the command line's checks, help and
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
    public static let referenceHz = 300.0...600.0
    /// `tone --cents`: a transposition of up to an octave either way.
    public static let cents = -1200.0...1200.0
    /// `ambient --duration` (seconds): up to a day.
    public static let ambientSeconds = 0.1...86400.0
    /// `listen --duration` (seconds): up to a week.
    public static let listenSeconds = 0.001...(86400.0 * 7)
    /// MIDI note numbers, in patterns, the editor and the .mid export.
    public static let midiNote = 0...127

    /// "8000...384000": a range as every message writes it.
    public static func text(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)...\(range.upperBound)" }

    /// "-60...12", "0.02...3600": whole numbers without a decimal point.
    public static func text(_ range: ClosedRange<Double>) -> String { "\(text(range.lowerBound))...\(text(range.upperBound))" }

    /// "3600", "0.02": one bound as the messages write it.
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
