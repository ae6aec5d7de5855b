import CAudioEngine
import Glibc

/// One decided frame of a voice pitch track.
public struct PitchTrackFrame: Sendable, Equatable {
    /// Frame number from 0 (the frame centred on sample index × hop).
    public let index: Int
    /// Hz on the chosen path, 0 when unvoiced.
    public let frequency: Double
    /// The likeliest pitch even when unvoiced (0: none).
    public let guess: Double
    public let voicedProbability: Double
}

/// The voice pitch tracker (C++ `dsp/PitchTracker`): YIN's dips weighed as probabilistic YIN does,
/// a fixed-lag Viterbi path through them. Not `Sendable`: one tracker per thread.
public final class PitchTracker {
    private let handle: OpaquePointer
    public let sampleRate: Double
    public let windowFrames: Int
    public let hopFrames: Int

    /// The pitches a voice tracker measures by default, Hz: G1 ... F6 at A4 = 440 Hz. Above, a
    /// pitch's dip lies outside the lags searched and its dip at twice the period reads an octave
    /// low; `train match` refuses references whose target lies outside.
    public static let voiceRange = 50.0...1400.0

    /// 64 ms windows, 10 ms hops; decisions 12 frames (120 ms) late.
    public init(
        sampleRate: Double, lag: Int = 12, minFrequency: Double = voiceRange.lowerBound,
        maxFrequency: Double = voiceRange.upperBound
    )
        throws(AudioError)
    {
        var window = 64
        while Double(window) < 0.064 * sampleRate { window *= 2 }
        var out: OpaquePointer?
        let status = boop_pitch_tracker_create(
            sampleRate, UInt32(window), UInt32(clamping: max(0, lag)), minFrequency, maxFrequency, &out)
        guard status == BOOP_OK, let out else {
            throw AudioError.invalidConfiguration(
                "pitch tracker at \(sampleRate) Hz: expected \(Limits.text(Limits.pitchRate)) Hz")
        }
        handle = out
        self.sampleRate = sampleRate
        windowFrames = window
        hopFrames = max(1, Int((sampleRate / 100).rounded()))
    }

    deinit { boop_pitch_tracker_destroy(handle) }

    public func reset() { boop_pitch_tracker_reset(handle) }

    /// Analyses `window` (its last windowFrames samples) as the next frame; the frame decided, if any.
    public func push(_ window: UnsafeBufferPointer<Float>) -> PitchTrackFrame? {
        var f = boop_pitch_frame()
        guard boop_pitch_tracker_push(handle, window.baseAddress, UInt32(clamping: window.count), &f) == 1 else {
            return nil
        }
        return Self.frame(f)
    }

    /// The frames not decided yet, at the end of a signal.
    public func flush() -> [PitchTrackFrame] {
        var out: [PitchTrackFrame] = []
        var buffer = [boop_pitch_frame](repeating: boop_pitch_frame(), count: 32)
        while true {
            let n = Int(boop_pitch_tracker_flush(handle, &buffer, 32))
            if n == 0 { break }
            out += buffer[0..<n].map(Self.frame)
        }
        return out
    }

    /// The whole track of a signal: frame k centred on sample k × hopFrames.
    public func track(_ samples: [Float]) -> [PitchTrackFrame] {
        reset()
        let half = windowFrames / 2
        var padded = [Float](repeating: 0, count: half)
        padded += samples
        padded += [Float](repeating: 0, count: half)
        var frames: [PitchTrackFrame] = []
        frames.reserveCapacity(samples.count / hopFrames + 1)
        padded.withUnsafeBufferPointer { all in
            var k = 0
            while k * hopFrames < samples.count {
                let window = UnsafeBufferPointer(rebasing: all[(k * hopFrames)..<(k * hopFrames + windowFrames)])
                if let f = push(window) { frames.append(f) }
                k += 1
            }
        }
        return frames + flush()
    }

    private static func frame(_ f: boop_pitch_frame) -> PitchTrackFrame {
        PitchTrackFrame(
            index: Int(f.index), frequency: f.frequency_hz, guess: f.guess_hz, voicedProbability: f.voiced_prob)
    }
}
