import Glibc
import PixelBoopCore

/// `stats` as text: a table and a chart per exercise, or the profile per register.
enum StatsReport {
    static func progress(_ p: TrainingProfile) -> String {
        if p.discrimination.isEmpty && p.match.isEmpty && p.interval.isEmpty { return nothingYet(p) }
        var parts: [String] = []
        if !p.discrimination.isEmpty {
            parts.append(
                "Pitch discrimination (which tone was higher)\n" + thresholds(p.discrimination, label: nil)
                    + plot(
                        p.discrimination.compactMap { s in measured(s).map { (s.session.started, $0) } },
                        what: "threshold"))
        }
        if !p.match.isEmpty {
            parts.append(
                "Pitch matching (notes sung back)\n" + matches(p.match)
                    + plot(
                        p.match.compactMap { s in
                            s.match.flatMap { $0.trials >= 2 ? (s.session.started, $0.spread) : nil }
                        }, what: "spread"))
        }
        let byInterval = Dictionary(grouping: p.interval) { $0.interval ?? "?" }
        for name in byInterval.keys.sorted() {
            let list = byInterval[name]!
            parts.append(
                "Interval discrimination: \(name) (which interval was wider)\n" + thresholds(list, label: name)
                    + plot(list.compactMap { s in measured(s).map { (s.session.started, $0) } }, what: "threshold"))
        }
        return parts.joined(separator: "\n")
    }

    static func profile(_ p: TrainingProfile) -> String {
        if p.thresholdByRegister.isEmpty && p.matchByRegister.isEmpty && p.intervalByRegister.isEmpty {
            return nothingYet(p)
        }
        var out = ""
        if !p.thresholdByRegister.isEmpty {
            out += "Your ear by register (pitch discrimination, every session; cents)\n"
            out += "register  notes   trials  threshold  68 % interval\n"
            for (r, e) in p.thresholdByRegister { out += String(cFormat: "%8d  %@  ", r, band(r).padding(6)) + estimate(e) }
            out += footnote(p.thresholdByRegister.map { $0.1.trials < TrainStatsCommand.fewTrials }, trials: true)
        }
        if !p.intervalByRegister.isEmpty {
            if !out.isEmpty { out += "\n" }
            out += "Your ear for intervals by register (interval discrimination, every session;\n"
            out += "cents; the register of the first interval's lower note)\n"
            out += "interval  register  notes   trials  threshold  68 % interval\n"
            for (name, r, e) in p.intervalByRegister {
                out += String(cFormat: "%@  %8d  %@  ", name.padding(8), r, band(r).padding(6)) + estimate(e)
            }
            out += footnote(p.intervalByRegister.map { $0.2.trials < TrainStatsCommand.fewTrials }, trials: true)
        }
        if !p.matchByRegister.isEmpty {
            if !out.isEmpty { out += "\n" }
            out += "Your voice by register (pitch matching, every session; cents; the register of\n"
            out += "the note asked for)\n"
            out += "register  notes    sung  " + matchHeader
            for (r, s) in p.matchByRegister {
                out += trimmed(String(cFormat: "%8d  %@  %6d  ", r, band(r).padding(6), s.trials) + matchColumns(s)) + "\n"
            }
            out += matchFootnote(p.matchByRegister.map { $0.1.trials })
        }
        return out
    }

    /// Nothing to list: no session at all, or only matching sessions in which no note was heard
    /// (said as such, since `--csv` lists their attempts).
    private static func nothingYet(_ p: TrainingProfile) -> String {
        guard p.unheardSessions > 0 else { return "No training sessions yet.\n" }
        let sessions = TrainStatsCommand.count(p.unheardSessions, "matching session")
        return "No results: no note heard in \(sessions) (--csv lists the attempts).\n"
    }

    /// A session's threshold for the chart: only one measured inside its range.
    private static func measured(_ s: SessionProgress) -> Double? {
        s.threshold.flatMap { $0.aboveRange ? nil : $0.threshold }
    }

    /// "C4-B4": the notes of a register.
    static func band(_ register: Int) -> String { "C\(register)-B\(register)" }

    private static func day(_ format: String) -> LocalDateFormat { LocalDateFormat(format: format) }

    /// A register's threshold columns, its uncertainty and the line's end.
    private static func estimate(_ e: ThresholdEstimate) -> String {
        // Answers that did not measure a threshold inside the range say so, not a number.
        if e.aboveRange {
            return String(cFormat: "%6d  %9@  -", e.trials, String(cFormat: "over %.0f", e.maxCents)) + "\n"
        }
        return String(cFormat: "%6d  %9.1f  %.1f-%.1f", e.trials, e.threshold, e.low, e.high)
            + uncertain(e.trials, TrainStatsCommand.fewTrials) + "\n"
    }

    /// A row's mark when its estimate rests on few answers (the footnote says how few), so every
    /// row fits 80 columns.
    private static func uncertain(_ n: Int, _ few: Int) -> String { n < few ? "  *" : "" }

    /// "* uncertain: under 20 trials", after a table with a marked row.
    private static func footnote(_ marked: [Bool], trials: Bool) -> String {
        guard marked.contains(true) else { return "" }
        return trials
            ? "* uncertain: under \(TrainStatsCommand.fewTrials) trials\n"
            : "* uncertain: under \(TrainStatsCommand.fewNotes) notes (one note gives no interval)\n"
    }

    /// A row without the padding its last column left.
    private static func trimmed(_ row: String) -> String {
        var r = Substring(row)
        while r.last == " " { r = r.dropLast() }
        return String(r)
    }

    private static func matchFootnote(_ notes: [Int]) -> String {
        footnote(notes.map { $0 < TrainStatsCommand.fewNotes }, trials: false)
    }

    private static func thresholds(_ list: [SessionProgress], label: String?) -> String {
        let date = day("%Y-%m-%d")
        var out = "session  date        trials  threshold  68 % interval\n"
        var marked: [Bool] = []
        for s in list {
            let estimate =
                s.threshold.map {
                    $0.aboveRange
                        ? String(cFormat: "%9@  -", String(cFormat: "over %.0f", $0.maxCents))
                        : String(cFormat: "%9.1f  %.1f-%.1f", $0.threshold, $0.low, $0.high)
                } ?? String(cFormat: "%9@  -", "-")
            let flag = s.threshold == nil ? "" : uncertain(s.trials, TrainStatsCommand.fewTrials)
            marked.append(!flag.isEmpty)
            out +=
                String(cFormat: "%7lld  %@  %6d  ", s.session.id, date.string(from: s.session.started), s.trials) + estimate
                + flag + "\n"
        }
        return out + footnote(marked, trials: true)
    }

    private static let matchHeader = "  bias  68 % interval spread  68 % interval\n"

    private static func matchColumns(_ m: MatchSummary) -> String {
        guard m.trials >= 2 else {
            return String(cFormat: "%+6.1f  %@  %6@  %@", m.bias, "-".padding(12), "-", "-".padding(11)) + "  *"
        }
        return String(
            cFormat: "%+6.1f  %@  %6.1f  %@", m.bias, String(cFormat: "%+.1f..%+.1f", m.biasLow, m.biasHigh).padding(12),
            m.spread, String(cFormat: "%.1f..%.1f", m.spreadLow, m.spreadHigh).padding(11))
            + uncertain(m.trials, TrainStatsCommand.fewNotes)
    }

    private static func matches(_ list: [SessionProgress]) -> String {
        let date = day("%Y-%m-%d")
        var out = "session  date        notes  " + matchHeader
        for s in list {
            let asked = s.interval.map { " \($0)" } ?? ""
            let row = String(cFormat: "%7lld  %@  %5d  ", s.session.id, date.string(from: s.session.started), s.trials)
            out += trimmed(row + (s.match.map(matchColumns) ?? "every note heard was a wrong note") + asked) + "\n"
        }
        return out + matchFootnote(list.compactMap { $0.match?.trials })
    }

    /// Values over time, log scale, drawn with block characters on a calendar axis: one column
    /// per day (per few days when the history spans more than 60 columns; per session when every
    /// session was on one day), so weeks of progress read as weeks. Rows are 15 % apart (a 20 %
    /// change moves a row) over the range the sessions span, coarser only when that range needs
    /// more than 20 rows; the axis carries the first and last dates.
    static func plot(_ unsorted: [(Timestamp, Double)], what: String) -> String {
        let series = unsorted.sorted { $0.0 < $1.0 }
        guard series.count >= 2 else { return "" }
        let first = DateText.localDay(series.first!.0)
        let day = series.map { DateText.localDay($0.0) - first }
        let span = day.last! + 1
        let perColumn = span == 1 ? 0 : (span + 59) / 60
        let columns = perColumn == 0 ? series.count : (span + perColumn - 1) / perColumn
        let column = perColumn == 0 ? Array(0..<series.count) : day.map { $0 / perColumn }
        let points = series.map { min(max($0.1, 0.1), 1200) }
        guard let low = points.min(), let high = points.max() else { return "" }
        var step = log(1.15)
        let range = log(high / low)
        if range / step > 19 { step = range / 19 }
        let rows = Int((range / step).rounded(.up)) + 1
        func row(_ cents: Double) -> Int { min(rows - 1, Int((log(high / cents) / step).rounded())) }
        var grid = Array(repeating: Array(repeating: Character(" "), count: columns), count: rows)
        for (i, p) in points.enumerated() { grid[row(p)][column[i]] = "█" }
        let unit = perColumn == 0 ? "a session" : perColumn == 1 ? "a day" : "\(perColumn) days"
        var out =
            "\n\(what) over time (cents, log scale, lower is finer;\n"
            + "rows \(Int((exp(step) - 1) * 100 + 0.5)) % apart, a column is \(unit))\n"
        for r in 0..<rows {
            let cents = high / exp(Double(r) * step)
            let label = r % 3 == 0 || r == rows - 1 ? String(cFormat: "%6.1f ┤", cents) : "       │"
            out += label + String(grid[r]) + "\n"
        }
        out += "       └" + String(repeating: "─", count: columns) + "\n"
        let date = self.day("%Y-%m-%d")
        let start = date.string(from: series.first!.0)
        let end = date.string(from: series.last!.0)
        let gap = max(1, columns - start.count - end.count + 1)
        out += "        " + start + (start == end ? "" : String(repeating: " ", count: gap) + end) + "\n"
        return out
    }
}

extension String {
    /// Left-aligned in `width` columns.
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}

/// A local-time date format (strftime's), for the report's columns.
struct LocalDateFormat {
    let format: String
    func string(from date: Timestamp) -> String { DateText.local(date, format) }
}
