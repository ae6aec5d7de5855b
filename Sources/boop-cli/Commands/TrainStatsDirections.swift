import PixelBoopCore

/// `stats --profile`: intervals per direction — the share sung right (`train sing-interval`,
/// `train match --interval`: within the session's tolerance, in the octave asked for) up and
/// down, and the share named right (`train identify`) up, down and harmonic — each with its
/// 95 % Wilson interval, over every session. A row fits 80 columns.
struct DirectionTable {
    struct Cell {
        let interval: String
        let direction: String
        let score: WilsonInterval
    }

    let sung: [Cell]
    let named: [Cell]

    init(attempts: [MatchAttempt], sessions: [TrainingSession], ear: [EarTrialRecord]) {
        let tolerance = TrainingProfile.tolerances(sessions)
        let sungRows = attempts.compactMap { a -> (String, String, Bool)? in
            guard let text = a.interval, let i = SungInterval(text),
                let right = SungIntervalDrill.right(a, tolerance: tolerance)
            else { return nil }
            return (i.name, i.direction < 0 ? "down" : "up", right)
        }
        sung = Self.cells(sungRows)
        named = Self.cells(ear.filter { $0.drill == .intervals }.map { ($0.item, $0.variant, $0.correct) })
    }

    /// Per interval (narrow first) and direction (up, down, harmonic).
    private static func cells(_ rows: [(String, String, Bool)]) -> [Cell] {
        var out: [Cell] = []
        for interval in EarItems.intervalNames {
            for direction in EarItems.directions {
                let mine = rows.filter { $0.0 == interval && $0.1 == direction }
                guard !mine.isEmpty else { continue }
                out.append(
                    Cell(
                        interval: interval, direction: direction,
                        score: WilsonInterval(right: mine.filter(\.2).count, trials: mine.count)))
            }
        }
        return out
    }

    var text: String {
        var parts: [String] = []
        if !sung.isEmpty {
            parts.append(Self.table("Sung intervals (sing-interval, match --interval", sung, ["up", "down"]))
        }
        if !named.isEmpty { parts.append(Self.table("Named intervals (identify", named, EarItems.directions)) }
        return parts.joined(separator: "\n")
    }

    /// "M3      7/9   78 % 45-94    3/4   75 % 30-95": right/trials, the share, its interval.
    private static func table(_ title: String, _ cells: [Cell], _ directions: [String]) -> String {
        var out = "\(title); share right, 95 % interval)\n"
        out += EarProfileText.trimmed("int " + directions.map { pad($0, 23) }.joined()) + "\n"
        for interval in EarItems.intervalNames where cells.contains(where: { $0.interval == interval }) {
            var row = pad(interval, 4)
            for d in directions {
                guard let c = cells.first(where: { $0.interval == interval && $0.direction == d }) else {
                    row += pad("-", 23)
                    continue
                }
                let w = c.score
                row += pad(
                    String(
                        cFormat: "%3d/%-3d %3.0f %% %.0f-%.0f", w.right, w.trials, 100 * w.accuracy, 100 * w.low,
                        100 * w.high), 23)
            }
            out += EarProfileText.trimmed(row) + "\n"
        }
        return out
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    /// `stats --profile --json`: {"sung": [...], "named": [...]}, one object per interval and
    /// direction with its trials, right and the interval's bounds.
    var json: [String: Any] {
        func objects(_ cells: [Cell]) -> [[String: Any]] {
            cells.map {
                [
                    "interval": $0.interval, "direction": $0.direction, "trials": $0.score.trials,
                    "right": $0.score.right, "low": $0.score.low, "high": $0.score.high
                ]
            }
        }
        return ["sung": objects(sung), "named": objects(named)]
    }
}
