import CAudioEngine
import Glibc

/// One pitch estimate of a voiced buffer.
public struct PitchReading: Sendable, Equatable {
    public let frequency: Double
    /// 1 − d'(T) of YIN's chosen dip, 0 ... 1.
    public let confidence: Double
    /// The nearest equal-tempered note (e.g. "A4") and the distance from it in cents (−50 ..< 50).
    public let note: String
    public let midi: Int
    public let cents: Double
    // Made by `PitchDetector`; callers only read them (the memberwise initialiser is internal).
}

/// YIN pitch detection (the C++ `dsp/Yin`) over buffers of mono samples.
/// Not `Sendable`: use one detector per thread.
public final class PitchDetector {
    private let handle: OpaquePointer
    public let sampleRate: Double
    public let windowFrames: Int
    /// A4 for note names and cents.
    public var reference: Double = 440

    /// `minFrequency`/`maxFrequency` of 0 mean 40 Hz and sampleRate / 4. The lowest pitch the window
    /// allows is 2 × sampleRate / windowFrames.
    public init(
        sampleRate: Double, windowFrames: Int = 2048, minFrequency: Double = 0,
        maxFrequency: Double = 0
    ) throws(AudioError) {
        var out: OpaquePointer?
        let status = boop_pitch_detector_create(
            sampleRate, UInt32(clamping: max(0, windowFrames)), minFrequency,
            maxFrequency, &out)
        guard status == BOOP_OK, let out else {
            throw AudioError.invalidConfiguration(
                "pitch detector at \(sampleRate) Hz with \(windowFrames)-frame windows, range \(minFrequency)...\(maxFrequency) Hz: "
                    + "expected \(Limits.text(Limits.pitchRate)) Hz, \(Limits.text(Limits.pitchWindow)) frames, min ≤ max")
        }
        handle = out
        self.sampleRate = sampleRate
        self.windowFrames = windowFrames
    }

    deinit { boop_pitch_detector_destroy(handle) }

    /// YIN's absolute threshold (default 0.12).
    public func setThreshold(_ threshold: Double) { boop_pitch_detector_set_threshold(handle, threshold) }
    /// Buffers quieter than this RMS level (dBFS) are unvoiced (default −60).
    public func setSilenceThreshold(dbfs: Double) { boop_pitch_detector_set_silence_dbfs(handle, dbfs) }

    /// The pitch of the last `windowFrames` samples, or nil when unvoiced (silence, noise, out of range).
    public func detect(_ samples: [Float]) -> PitchReading? {
        let r = samples.withUnsafeBufferPointer { buf in
            boop_pitch_detector_process(handle, buf.baseAddress, UInt32(clamping: buf.count))
        }
        guard r.frequency_hz > 0 else { return nil }
        let (name, midi, cents) = PitchDetector.nearestNote(to: r.frequency_hz, reference: reference)
        return PitchReading(frequency: r.frequency_hz, confidence: r.confidence, note: name, midi: midi, cents: cents)
    }

    /// Nearest note name (sharps), its MIDI number and the cents from it, in −50 ..< 50.
    public static func nearestNote(to frequency: Double, reference: Double = 440) -> (name: String, midi: Int, cents: Double) {
        let m = 69.0 + 12.0 * log2(frequency / reference)
        var nearest = m.rounded()
        if nearest - m == -0.5 { nearest = m + 0.5 }
        let midi = Int(nearest)
        let cents = (m - nearest) * 100.0
        return (NoteName(midi: midi).description, midi, cents)
    }
}

/// Level of a buffer.
public enum SignalLevel {
    /// Root-mean-square and peak |sample| of `samples` (0 for an empty buffer).
    public static func measure(_ samples: [Float]) -> (rms: Double, peak: Double) {
        guard !samples.isEmpty else { return (0, 0) }
        var sum = 0.0
        var peak: Float = 0
        for v in samples {
            sum += Double(v) * Double(v)
            peak = max(peak, abs(v))
        }
        return ((sum / Double(samples.count)).squareRoot(), Double(peak))
    }

    /// dBFS of a linear level (−inf clamped to −120).
    public static func dbfs(_ level: Double) -> Double {
        level > 1e-6 ? 20.0 * log10(level) : -120.0
    }
}
