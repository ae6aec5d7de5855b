import Glibc

/// What `train match` shows of the sung pitch against the target: the live needle (cents from the
/// target, averaged over a vibrato cycle, a bar that fits 80 columns) and, after the attempt, the
/// held note's curve as a one-line sparkline with its drift.
public struct TargetNeedle: Sendable {
    public let target: Double
    /// Cents each side of the target the bar spans.
    public static let span = 50.0
    /// Cells each side of the centre.
    public static let half = 20
    /// Readings averaged: 18 frames of 10 ms, about one 5.5 Hz vibrato cycle.
    static let window = 18
    private var recent: [Double] = []

    public init(target: Double) { self.target = target }

    /// Takes one reading (Hz); the line to show, or nil while none is voiced yet.
    public mutating func reading(_ hz: Double?) -> String? {
        if let hz, hz > 0 {
            recent.append(MatchScore(sung: hz, target: target).cents)
            if recent.count > Self.window { recent.removeFirst(recent.count - Self.window) }
        }
        guard !recent.isEmpty else { return nil }
        return Self.line(cents: recent.reduce(0, +) / Double(recent.count))
    }

    /// "  -22.4 c  [--------------#######|                    ]": 63 columns.
    public static func line(cents: Double) -> String {
        let cells = max(-half - 1, min(half + 1, Int((cents / span * Double(half)).rounded())))
        var bar = [Character](repeating: " ", count: 2 * half + 1)
        bar[half] = "|"
        for k in 1...max(1, abs(cells)) where cells != 0 && k <= half {
            bar[half + (cells > 0 ? k : -k)] = "#"
        }
        let edge = abs(cells) > half ? (cells > 0 ? "]>" : "<[") : ""
        let left = edge == "<[" ? "<" : "["
        let right = edge == "]>" ? ">" : "]"
        return String(cFormat: "  %+6.1f c  ", cents) + left + String(bar) + right
    }
}

public enum PitchCurve {
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Cents per level: ▄ and ▅ are within 12.5 cents below and above the target.
    static let step = 12.5

    /// The held note against the target, at most `width` columns, and its drift (the mean of the
    /// last quarter minus the first quarter, cents): "▄▅▅▄▃▃▂▂ drift -18 c". `curve` is cents
    /// from A4 440 Hz (SungPitch.curve), `octave` the octave the note was sung in.
    public static func sparkline(_ curve: [Double], target: Double, octave: Int = 0, width: Int = 40) -> String? {
        guard curve.count >= 4 else { return nil }
        let t = 1200 * log2(target / 440) + 1200 * Double(octave)
        let c = curve.map { $0 - t }
        let columns = min(width, c.count)
        var text = ""
        for k in 0..<columns {
            let part = c[(k * c.count / columns)..<((k + 1) * c.count / columns)]
            let mean = part.reduce(0, +) / Double(part.count)
            text.append(levels[max(0, min(7, Int((mean / step).rounded(.down)) + 4))])
        }
        let q = max(1, c.count / 4)
        let drift = c.suffix(q).reduce(0, +) / Double(q) - c.prefix(q).reduce(0, +) / Double(q)
        return text + String(cFormat: " drift %+.0f c", drift)
    }
}
