import Glibc

/// Every stored trial of every exercise as one CSV table (`boop train stats --csv`): one header,
/// the same columns on every row, so a spreadsheet filters or pivots on `exercise` and `register`
/// without joining files. A column that does not apply to a row's exercise is empty, as is a
/// pitch-matching attempt's sung pitch when no note was heard. Rows in session order, then trial.
/// RFC 4180 quoting (a field holding a comma, a double quote or a line break is quoted, its
/// quotes doubled); lines end in LF.
public enum TrainingCSV {
    /// The columns, in order. Shared by exercises where the meaning is the same: `answer`,
    /// `correct`, `response_ms` and `difference_cents` (discrimination and interval),
    /// `reference_hz` (discrimination and match), `interval` (the interval judged, or the one a
    /// matching session asked for).
    public static let columns = [
        "exercise", "session", "trial", "time", "register", "interval", "reference_hz", "difference_cents",
        "higher_interval", "first_low_hz", "first_high_hz", "second_low_hz", "second_high_hz", "wider_interval",
        "answer", "correct", "response_ms", "target_hz", "sung_hz", "error_cents", "octave", "stable_ms", "drill",
        "item", "variant"
    ]

    /// `ear`: identification trials (identify, degrees): `drill`, `item` (asked), `variant`
    /// (up, down, harmonic, root, or the key), `answer` (named), the register of the lowest note.
    public static func table(
        trials: [TrainingTrial], attempts: [MatchAttempt], intervals: [IntervalTrialRecord], ear: [EarTrialRecord] = []
    ) -> String {
        func common(_ e: TrainingExercise, _ session: Int64, _ trial: Int, _ time: Timestamp, _ register: Int) -> [String: String]
        {
            [
                "exercise": e.rawValue, "session": "\(session)", "trial": "\(trial)", "time": DateText.iso8601(time),
                "register": "\(register)"
            ]
        }
        var rows: [(session: Int64, trial: Int, fields: [String: String])] = []
        rows += trials.map { t in
            (
                t.session, t.trial,
                common(.discrimination, t.session, t.trial, t.time, Register.octave(hz: t.referenceHz)).merging([
                    "reference_hz": decimal(t.referenceHz), "difference_cents": decimal(t.differenceCents),
                    "higher_interval": "\(t.higherInterval)", "answer": t.answer, "correct": t.correct ? "1" : "0",
                    "response_ms": "\(t.responseMilliseconds)"
                ]) { a, _ in a }
            )
        }
        rows += intervals.map { t in
            (
                t.session, t.trial,
                common(.interval, t.session, t.trial, t.time, register(t)).merging([
                    "interval": t.interval, "first_low_hz": decimal(t.first[0]), "first_high_hz": decimal(t.first[1]),
                    "second_low_hz": decimal(t.second[0]), "second_high_hz": decimal(t.second[1]),
                    "difference_cents": decimal(t.differenceCents), "wider_interval": "\(t.widerInterval)", "answer": t.answer,
                    "correct": t.correct ? "1" : "0", "response_ms": "\(t.responseMilliseconds)"
                ]) { a, _ in a }
            )
        }
        rows += attempts.map { a in
            var f = common(.match, a.session, a.trial, a.time, a.register)
            f["interval"] = a.interval ?? ""
            f["reference_hz"] = decimal(a.referenceHz)
            f["target_hz"] = decimal(a.targetHz)
            f["sung_hz"] = a.sungHz.map(decimal) ?? ""
            f["error_cents"] = a.cents.map(decimal) ?? ""
            f["octave"] = a.octave.map { "\($0)" } ?? ""
            f["stable_ms"] = a.stableMilliseconds.map { "\($0)" } ?? ""
            return (a.session, a.trial, f)
        }
        rows += ear.map { t in
            var f = common(t.drill == .degrees ? .degrees : .identify, t.session, t.trial, t.time, t.base / 12 - 1)
            f["drill"] = t.drill.rawValue
            f["item"] = t.item
            f["variant"] = t.variant
            f["answer"] = t.answer
            f["correct"] = t.correct ? "1" : "0"
            f["response_ms"] = "\(t.responseMilliseconds)"
            return (t.session, t.trial, f)
        }
        rows.sort { ($0.session, $0.trial) < ($1.session, $1.trial) }
        var out = columns.joined(separator: ",") + "\n"
        for row in rows {
            out += columns.map { field(row.fields[$0] ?? "") }.joined(separator: ",") + "\n"
        }
        return out
    }

    /// An interval trial's register: that of the first interval's lower note (the note drawn
    /// from the session's range; the second interval's is roved from it by up to 3 semitones).
    public static func register(_ t: IntervalTrialRecord) -> Int { Register.octave(hz: t.first[0]) }

    /// RFC 4180: quoted when it holds a comma, a double quote, CR or LF, with its quotes doubled.
    public static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return s }
        return "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// Frequencies and cents to a millionth (as the history's REAL columns give them).
    private static func decimal(_ v: Double) -> String { v.isFinite ? String(cFormat: "%.6f", v) : "" }
}
