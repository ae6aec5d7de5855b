import ArgumentParser
import Foundation
import PixelBoopCore

/// `boop train stats`: the history's sessions as a table and a plot, or as CSV/JSON.
struct TrainStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "The training history: one row per session, the threshold over time, or every trial as CSV.")

    @OptionGroup var history: HistoryOption

    @Flag(name: .long, help: "Every stored trial as CSV (for a spreadsheet or a notebook).")
    var csv = false

    func run() throws {
        runReportingErrors {
            let store = try history.open(forWriting: false)
            do {
                if csv {
                    var out = "session,trial,time,reference_hz,difference_cents,higher_interval,answer,correct,response_ms\n"
                    let iso = ISO8601DateFormatter()
                    iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                    for t in try store.trials() {
                        out += String(
                            format: "%lld,%d,%@,%.6f,%.6f,%d,%@,%d,%d\n", t.session, t.trial,
                            iso.string(from: t.time), t.referenceHz, t.differenceCents, t.higherInterval,
                            t.answer, t.correct ? 1 : 0, t.responseMilliseconds)
                    }
                    StandardOutput.write(out)
                    return
                }
                // A session left before its first answer has nothing to show.
                let sessions = try store.sessions().filter { $0.trials > 0 }
                StandardOutput.write(TrainStatsCommand.table(sessions) + TrainStatsCommand.plot(sessions))
            } catch let error as TrainingStoreError {
                throw BoopExit(error)
            }
        }
    }

    /// "1 trial", "2 trials".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func table(_ sessions: [TrainingSession]) -> String {
        guard !sessions.isEmpty else { return "No training sessions yet.\n" }
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd HH:mm"
        var out = "session  date              trials  threshold (cents)  68 % interval\n"
        for s in sessions {
            let estimate =
                s.threshold.map { t in
                    String(format: "%17.1f  %.1f-%.1f", t, s.low ?? t, s.high ?? t)
                } ?? String(format: "%17@  -", "-")
            let uncertain = s.threshold != nil && s.trials < fewTrials ? "  (uncertain: \(count(s.trials, "trial")))" : ""
            out += String(format: "%7lld  %@  %6d  ", s.id, day.string(from: s.started), s.trials) + estimate + uncertain + "\n"
        }
        return out
    }

    /// Under this many trials a session's estimate is marked uncertain.
    static let fewTrials = 20

    /// The threshold over sessions, log scale in cents, one column per session (at most the last
    /// 60), drawn with block characters. Rows are 15 % apart (so a 20 % change moves a row) over
    /// the range the sessions span, coarser only when that range needs more than 20 rows; the
    /// axis below carries the first and last session's dates.
    static func plot(_ sessions: [TrainingSession]) -> String {
        let shown = sessions.filter { $0.threshold != nil }.suffix(60)
        let points = shown.map { min(max($0.threshold!, 0.1), 100) }
        guard points.count >= 2, let low = points.min(), let high = points.max() else { return "" }
        var step = log(1.15)
        let span = log(high / low)
        if span / step > 19 { step = span / 19 }
        let rows = Int((span / step).rounded(.up)) + 1
        func row(_ cents: Double) -> Int { min(rows - 1, Int((log(high / cents) / step).rounded())) }
        var grid = Array(repeating: Array(repeating: Character(" "), count: points.count), count: rows)
        for (i, p) in points.enumerated() { grid[row(p)][i] = "█" }
        var out =
            "\nthreshold over sessions (cents, log scale, rows \(Int((exp(step) - 1) * 100 + 0.5)) % apart; lower is finer)\n"
        for r in 0..<rows {
            let cents = high / exp(Double(r) * step)
            let label = r % 3 == 0 || r == rows - 1 ? String(format: "%6.1f ┤", cents) : "       │"
            out += label + String(grid[r]) + "\n"
        }
        out += "       └" + String(repeating: "─", count: points.count) + "\n"
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        let first = day.string(from: shown.first!.started)
        let last = day.string(from: shown.last!.started)
        let gap = max(1, points.count - first.count - last.count + 1)
        out += "        " + first + (first == last ? "" : String(repeating: " ", count: gap) + last) + "\n"
        return out
    }
}
