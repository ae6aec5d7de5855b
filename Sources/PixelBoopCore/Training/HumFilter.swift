import Glibc

/// Notches at the mains frequencies (50 and 60 Hz), run over the whole signal before pitch
/// tracking. Hum is periodic too: 15 dB under a low voice (A2, B2, C3) its fundamental fills the
/// dip at the voice's period and leaves a deeper one at twice the period (an octave low), or none
/// steady enough (unvoiced). Only the fundamentals are notched: a notch inside the voice's range
/// (100, 150 ... Hz) turns a harmonic sweeping through it with the vibrato into a swinging delay,
/// tens of cents of error, while the hum's harmonics alone do no harm. A voice's lowest note (E2,
/// 82 Hz) is far from both notches (8 Hz wide, settled within about 40 ms), and a linear filter
/// keeps a periodic signal periodic with the same period.
public struct HumFilter: Sendable {
    /// The notched frequencies, Hz.
    public static let frequencies: [Double] = [50, 60]

    private struct Notch {
        let b1: Double, a1: Double, a2: Double, gain: Double
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

        mutating func run(_ x: Double) -> Double {
            // b0 = b2 = gain: zeros on the unit circle at the notch, poles just inside it.
            let y = gain * (x + b1 * x1 + x2) - a1 * y1 - a2 * y2
            (x2, x1, y2, y1) = (x1, x, y1, y)
            return y
        }
    }

    private var notches: [Notch]

    public init(sampleRate: Double, bandwidth: Double = 8) {
        let r = 1 - .pi * bandwidth / sampleRate
        notches = Self.frequencies.map { f in
            let c = cos(2 * .pi * f / sampleRate)
            // Unity gain far from the notch: normalised at DC's opposite, the Nyquist frequency.
            let gain = (1 + 2 * r * c + r * r) / (2 + 2 * c)
            return Notch(b1: -2 * c, a1: -2 * r * c, a2: r * r, gain: gain)
        }
    }

    /// The next samples of the stream, filtered (state carries over between calls).
    public mutating func process(_ samples: [Float]) -> [Float] {
        var out = samples
        for i in out.indices {
            var v = Double(out[i])
            for k in notches.indices { v = notches[k].run(v) }
            out[i] = Float(v)
        }
        return out
    }

    /// A whole signal, filtered from rest.
    public static func apply(_ samples: [Float], sampleRate: Double) -> [Float] {
        var filter = HumFilter(sampleRate: sampleRate)
        return filter.process(samples)
    }
}
