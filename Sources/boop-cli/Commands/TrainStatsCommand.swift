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
            out += String(format: "%7lld  %@  %6d  ", s.id, day.string(from: s.started), s.trials) + estimate + "\n"
        }
        return out
    }

    /// The threshold over sessions, log scale in cents (0.1 ... 100), one column per session,
    /// drawn with block characters; at most the last 60 sessions.
    static func plot(_ sessions: [TrainingSession]) -> String {
        let points = sessions.compactMap(\.threshold).suffix(60)
        guard points.count >= 2 else { return "" }
        let rows = 8
        let levels = [100.0, 30, 10, 3, 1, 0.3, 0.1]
        func row(_ cents: Double) -> Int {
            let v = (log10(min(max(cents, 0.1), 100)) + 1) / 3   // 0 at 0.1 cent, 1 at 100
            return min(rows - 1, Int((1 - v) * Double(rows - 1) + 0.5))
        }
        var grid = Array(repeating: Array(repeating: Character(" "), count: points.count), count: rows)
        for (i, p) in points.enumerated() { grid[row(p)][i] = "█" }
        var out = "\nthreshold over sessions (cents, log scale; lower is finer)\n"
        for r in 0..<rows {
            let label = levels.first { row($0) == r }.map { String(format: "%6g ┤", $0) } ?? "       │"
            out += label + String(grid[r]) + "\n"
        }
        out += "       └" + String(repeating: "─", count: points.count) + "\n"
        return out
    }
}
