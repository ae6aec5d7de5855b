import Glibc

/// Equal-tempered pitch arithmetic, all in Double: the 0.01-cent goals leave no room for Float.
public enum Pitch {
    /// f = reference x 2^((midi - 69) / 12) x 2^(cents / 1200)
    public static func frequency(midi: Double, cents: Double = 0, reference: Double = 440) -> Double {
        reference * pow(2.0, (midi - 69.0) / 12.0 + cents / 1200.0)
    }

    /// The distance from `expected` to `measured` in cents.
    public static func cents(from expected: Double, to measured: Double) -> Double {
        1200.0 * log2(measured / expected)
    }
}
