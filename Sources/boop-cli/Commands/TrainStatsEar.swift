import PixelBoopCore

/// `stats --profile` for the identification exercises: per item, the trials, the share named
/// right and its 95 % Wilson interval (honest with few trials and at 0 or 100 %), every session.
enum EarProfileText {
    /// The trials of each drill that has any, in the drills' order.
    static func byDrill(_ trials: [EarTrialRecord]) -> [(drill: EarDrill, trials: [EarTrialRecord])] {
        EarDrill.allCases.map { drill in (drill, trials.filter { $0.drill == drill }) }.filter { !$0.trials.isEmpty }
    }

    static func text(_ trials: [EarTrialRecord]) -> String {
        var parts: [String] = []
        for (drill, mine) in byDrill(trials) {
            var out = "Naming \(title(drill)), every session; 95 % Wilson interval)\n"
            out += "item    trials  right  95 % interval  most often named instead\n"
            for item in drill.items {
                let asked = mine.filter { $0.item == item }
                guard !asked.isEmpty else { continue }
                let w = WilsonInterval(right: asked.filter(\.correct).count, trials: asked.count)
                let range = String(cFormat: "%.0f-%.0f %%", 100 * w.low, 100 * w.high)
                let row = String(
                    cFormat: "%@  %6d  %3.0f %%  %@  %@", label(item, drill).padding(6), w.trials, 100 * w.accuracy,
                    range.padding(13), confusion(asked))
                out += trimmed(row) + "\n"
            }
            parts.append(out)
        }
        return parts.joined(separator: "\n")
    }

    /// `stats` without options: one row per session of each drill (its date, trials and share
    /// right), "" when none.
    static func progress(_ trials: [EarTrialRecord]) -> String {
        var parts: [String] = []
        for (drill, mine) in byDrill(trials) {
            var out = "Naming \(title(drill)))\nsession  started           trials  right\n"
            for (session, rows) in Dictionary(grouping: mine, by: \.session).sorted(by: { $0.key < $1.key }) {
                let right = rows.filter(\.correct).count
                out += String(
                    cFormat: "%7lld  %@  %6d  %3.0f %%\n", session, DateText.local(rows[0].time, "%Y-%m-%d %H:%M"),
                    rows.count, 100 * Double(right) / Double(rows.count))
            }
            parts.append(out)
        }
        return parts.joined(separator: "\n")
    }

    /// `stats --profile --json`: per drill, per item asked, the trials, right and the interval.
    static func json(_ trials: [EarTrialRecord]) -> [String: Any] {
        var object: [String: Any] = [:]
        for (drill, mine) in byDrill(trials) {
            object[drill.rawValue] = drill.items.compactMap { item -> [String: Any]? in
                let asked = mine.filter { $0.item == item }
                guard !asked.isEmpty else { return nil }
                let w = WilsonInterval(right: asked.filter(\.correct).count, trials: asked.count)
                return ["item": item, "trials": w.trials, "right": w.right, "low": w.low, "high": w.high]
            }
        }
        return object
    }

    private static func title(_ drill: EarDrill) -> String {
        switch drill {
        case .intervals: "intervals (train identify"
        case .chords: "chords (train identify --chords"
        case .degrees: "scale degrees (train degrees"
        }
    }

    private static func label(_ item: String, _ drill: EarDrill) -> String {
        drill == .degrees ? "\(item) \(EarItems.solfege[(Int(item) ?? 1) - 1])" : item
    }

    /// The wrong answer given most often for this item, with its count ("P4 x6").
    private static func confusion(_ asked: [EarTrialRecord]) -> String {
        var counts: [String: Int] = [:]
        for t in asked where !t.correct { counts[t.answer, default: 0] += 1 }
        guard let top = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else {
            return ""
        }
        return "\(top.key) x\(top.value)"
    }

    /// The row without its trailing spaces (the tables pad their cells).
    static func trimmed(_ row: String) -> String {
        var row = row
        while row.last == " " { row.removeLast() }
        return row
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
