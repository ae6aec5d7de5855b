import CSQLite
import Glibc

/// One identification trial as stored: the item asked (an interval, a chord or a degree), how
/// it was played, and what the listener named.
public struct EarTrialRecord: Sendable, Equatable {
    public var session: Int64
    public var trial: Int
    public var time: Timestamp
    public var drill: EarDrill
    public var item: String
    public var variant: String
    public var base: Int
    public var answer: String
    public var responseMilliseconds: Int

    public init(
        session: Int64, trial: Int, time: Timestamp, plan: EarTrialPlan, answer: String, responseMilliseconds: Int
    ) {
        self.session = session
        self.trial = trial
        self.time = time
        drill = plan.drill
        item = plan.item
        variant = plan.variant
        base = plan.base
        self.answer = answer
        self.responseMilliseconds = responseMilliseconds
    }

    public var correct: Bool { answer == item }
}

extension TrainingStore {
    /// Schema 3: the identification exercises. The sessions' exercise CHECK is widened by
    /// rebuilding the table (SQLite cannot alter a CHECK), foreign keys off meanwhile as SQLite's
    /// documented procedure asks; the rebuild and the new table commit together or not at all.
    static let schema3 = """
        CREATE TABLE sessions_3 (
        \(sessionColumns),
            exercise TEXT NOT NULL DEFAULT 'discrimination'
                CHECK (exercise IN ('discrimination', 'match', 'interval', 'identify', 'degrees')));
        INSERT INTO sessions_3(id, started, ended, settings, trials, threshold_cents, low_cents, high_cents, exercise)
            SELECT id, started, ended, settings, trials, threshold_cents, low_cents, high_cents, exercise FROM sessions;
        DROP TABLE sessions;
        ALTER TABLE sessions_3 RENAME TO sessions;
        CREATE TABLE ear_trials (
        \(trialColumns)
            drill TEXT NOT NULL CHECK (drill IN ('intervals', 'chords', 'degrees')),
            item TEXT NOT NULL,
            variant TEXT NOT NULL,
            base_note INTEGER NOT NULL,
            answer TEXT NOT NULL,
            correct INTEGER NOT NULL,
            response_ms INTEGER NOT NULL);
        CREATE INDEX ear_trials_by_session ON ear_trials(session_id, trial);
        """

    func migrate3() throws(TrainingStoreError) {
        try exec("PRAGMA foreign_keys=OFF", "adding identification exercises to the history")
        defer { _ = sqlite3_exec(db, "PRAGMA foreign_keys=ON", nil, nil, nil) }
        try step(TrainingStore.schema3, to: 3, "adding identification exercises to the history")
    }

    public func add(_ t: EarTrialRecord) throws(TrainingStoreError) {
        try insertTrial(
            """
            INSERT INTO ear_trials(session_id, trial, time, drill, item, variant, base_note, answer, correct, response_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, session: t.session,
            [
                .int(t.session), .int(Int64(t.trial)), .text(TrainingStore.iso(t.time)), .text(t.drill.rawValue),
                .text(t.item), .text(t.variant), .int(Int64(t.base)), .text(t.answer), .int(t.correct ? 1 : 0),
                .int(Int64(t.responseMilliseconds))
            ])
    }

    /// Every identification trial, oldest first (none in a history of schema 2 or older).
    public func earTrials(_ drill: EarDrill? = nil) throws(TrainingStoreError) -> [EarTrialRecord] {
        var out: [EarTrialRecord] = []
        guard hasSchema, schema >= 3 else { return out }
        let sql = """
            SELECT session_id, trial, time, drill, item, variant, base_note, answer, response_ms FROM ear_trials
                ORDER BY session_id, trial
            """
        try query(sql, "reading identification trials") { s in
            guard let d = EarDrill(rawValue: TrainingStore.text(s, 3)), drill == nil || d == drill else { return }
            let plan = EarTrialPlan(
                number: Int(sqlite3_column_int(s, 1)), drill: d, item: TrainingStore.text(s, 4),
                variant: TrainingStore.text(s, 5), base: Int(sqlite3_column_int(s, 6)), phrases: [], together: false)
            out.append(
                EarTrialRecord(
                    session: sqlite3_column_int64(s, 0), trial: plan.number,
                    time: TrainingStore.date(TrainingStore.text(s, 2)) ?? Timestamp.distantPast, plan: plan,
                    answer: TrainingStore.text(s, 7), responseMilliseconds: Int(sqlite3_column_int(s, 8))))
        }
        return out
    }
}
