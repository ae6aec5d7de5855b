import ArgumentParser
import Glibc
import PixelBoopCore

/// `boop train stats`: each exercise's sessions over time (a table and a chart), the profile per
/// register, or every trial of every exercise as one CSV table; `--json` for programs.
struct TrainStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "The training history: progress per exercise, your ear and voice per register, or every trial as CSV.",
        discussion: """
            Without options: one row per session and a chart over time for each exercise — pitch \
            discrimination (threshold), pitch matching (bias and spread of the sung notes; the interval \
            asked for, "mixed" for a sing-interval session) and \
            interval discrimination (threshold, per interval). --profile: the discrimination \
            threshold, the interval-discrimination threshold per interval, and the matching bias \
            and spread, per register (octave bands C to B: of the reference tone, of the first \
            interval's lower note, of the note asked for), over every session, with 68 % intervals. Sessions without a trial are not listed; a session \
            under 20 trials (8 sung notes) is marked uncertain; identify and degrees add per item the share \
            named right with its 95 % Wilson interval; intervals sung (sing-interval, match --interval) and \
            named (identify) add the share right per interval and direction (up, down; harmonic for \
            identify), under "directions" in --json. --json prints the same as one object. \
            --csv: every stored trial, one row each, in one table with the same columns on every row: \
            exercise (discrimination, match, interval, identify, degrees), session, trial, time, register, interval, \
            reference_hz, difference_cents, higher_interval, first_low_hz, first_high_hz, \
            second_low_hz, second_high_hz, wider_interval, answer, correct, response_ms, target_hz, \
            sung_hz, error_cents, octave, stable_ms, drill, item, variant (identify and degrees: the \
            item asked and how it was played; answer is the item named); a column that does not apply to the row's \
            exercise is empty (so is sung_hz when no note was heard). RFC 4180 quoting, LF line ends.
            """)

    @OptionGroup var history: HistoryOption

    @Flag(
        name: .long,
        help: "Every stored trial of every exercise as one CSV table (an exercise column; columns that do not apply empty).")
    var csv = false

    @Flag(
        name: .long,
        help: "Per register (octave bands): the pitch and interval thresholds, the sung bias and spread; not per session.")
    var profile = false

    @Flag(name: .long, help: "One JSON object instead of tables and charts.")
    var json = false

    mutating func validate() throws {
        if csv && (profile || json) { throw ValidationError("--csv: expected alone (not with --profile or --json)") }
    }

    func run() throws {
        runReportingErrors {
            let store = try history.open(forWriting: false)
            do {
                if csv {
                    StandardOutput.write(
                        TrainingCSV.table(
                            trials: try store.trials(), attempts: try store.matchAttempts(),
                            intervals: try store.intervalTrials(), ear: try store.earTrials()))
                    return
                }
                let p = TrainingProfile(
                    sessions: try store.sessions(), trials: try store.trials(), attempts: try store.matchAttempts(),
                    intervals: try store.intervalTrials())
                let ear = try store.earTrials()
                let directions = DirectionTable(attempts: try store.matchAttempts(), sessions: try store.sessions(), ear: ear)
                let text =
                    switch (profile, json) {
                    case (false, false): Self.progress(p, ear: EarProfileText.progress(ear))
                    case (true, false):
                        Self.profile(
                            p, ear: [EarProfileText.text(ear), directions.text].filter { !$0.isEmpty }.joined(separator: "\n"))
                    case (false, true): StatsJSON.progress(p)
                    case (true, true):
                        StatsJSON.profile(p, ear: EarProfileText.json(ear).merging(["directions": directions.json]) { a, _ in a })
                    }
                StandardOutput.write(text)
            } catch let error as TrainingStoreError {
                throw BoopExit(error)
            }
        }
    }

    /// The profile per register, then per item of the identification exercises (alone when
    /// only those were trained).
    static func profile(_ p: TrainingProfile, ear: String) -> String {
        let registers = !(p.thresholdByRegister.isEmpty && p.matchByRegister.isEmpty && p.intervalByRegister.isEmpty)
        if ear.isEmpty { return StatsReport.profile(p) }
        return (registers ? StatsReport.profile(p) + "\n" : "") + ear
    }

    /// Progress per exercise, then the identification sessions (alone when only those were
    /// trained).
    static func progress(_ p: TrainingProfile, ear: String) -> String {
        if ear.isEmpty { return StatsReport.progress(p) }
        let others = !(p.discrimination.isEmpty && p.match.isEmpty && p.interval.isEmpty)
        return (others ? StatsReport.progress(p) + "\n" : "") + ear
    }

    /// "1 trial", "2 trials".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// Under this many trials a threshold is marked uncertain.
    static let fewTrials = 20
    /// Under this many sung notes a bias and spread are marked uncertain.
    static let fewNotes = 8
}

/// `stats --json`: the same numbers as the tables, full precision, non-finite bounds as null.
enum StatsJSON {
    static func progress(_ p: TrainingProfile) -> String {
        let object: [String: Any] = [
            "discrimination": p.discrimination.compactMap { threshold($0) },
            "match": p.match.compactMap { match($0) },
            "interval": p.interval.compactMap { threshold($0) }
        ]
        return encode(object)
    }

    /// With `ear`: the identification exercises' items beside the registers.
    static func profile(_ p: TrainingProfile, ear: [String: Any] = [:]) -> String {
        let object: [String: Any] = ear.merging([
            "discrimination": p.thresholdByRegister.map { r, e in
                ["register": r, "band": StatsReport.band(r)].merging(fields(e)) { a, _ in a }
            },
            "match": p.matchByRegister.map { r, s in
                ["register": r, "band": StatsReport.band(r)].merging(fields(s)) { a, _ in a }
            },
            "interval": p.intervalByRegister.map { name, r, e in
                ["interval": name, "register": r, "band": StatsReport.band(r)].merging(fields(e)) { a, _ in a }
            }
        ]) { _, b in b }
        return encode(object)
    }

    private static func session(_ s: SessionProgress) -> [String: Any] {
        ["session": s.session.id, "started": iso(s.session.started), "interval": s.interval ?? JSONNull()]
    }

    private static func threshold(_ s: SessionProgress) -> [String: Any]? {
        s.threshold.map { session(s).merging(fields($0)) { a, _ in a } }
    }

    private static func match(_ s: SessionProgress) -> [String: Any]? {
        s.match.map { session(s).merging(fields($0)) { a, _ in a } }
    }

    /// Answers beyond the range or at chance: no threshold (null), `above_range` true and the
    /// range's top as the lower bound, as the session's own JSON says.
    private static func fields(_ e: ThresholdEstimate) -> [String: Any] {
        if e.aboveRange {
            return [
                "trials": e.trials, "threshold_cents": JSONNull(), "low_cents": e.maxCents, "high_cents": JSONNull(),
                "uncertain": e.trials < TrainStatsCommand.fewTrials, "above_range": true
            ]
        }
        return [
            "trials": e.trials, "threshold_cents": e.threshold, "low_cents": e.low, "high_cents": e.high,
            "uncertain": e.trials < TrainStatsCommand.fewTrials, "above_range": false
        ]
    }

    private static func fields(_ m: MatchSummary) -> [String: Any] {
        func num(_ v: Double) -> Any { v.isFinite ? v : JSONNull() }
        let spread = m.trials >= 2
        return [
            "notes": m.trials, "bias_cents": m.bias, "bias_low": num(m.biasLow), "bias_high": num(m.biasHigh),
            "spread_cents": spread ? m.spread : JSONNull(), "spread_low": spread ? num(m.spreadLow) : JSONNull(),
            "spread_high": spread ? num(m.spreadHigh) : JSONNull(), "uncertain": m.trials < TrainStatsCommand.fewNotes
        ]
    }

    private static func iso(_ d: Timestamp) -> String {
        DateText.iso8601(d)
    }

    private static func encode(_ object: [String: Any]) -> String {
        (JSONText.encode(object) ?? "{}") + "\n"
    }
}
