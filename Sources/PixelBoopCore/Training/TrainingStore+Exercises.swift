import CSQLite
import Glibc

/// Pitch-matching attempts and interval-discrimination trials: written like the discrimination
/// trials (one transaction per attempt, with its session's count), read for `stats`.
extension TrainingStore {
    public func add(_ a: MatchAttempt) throws(TrainingStoreError) {
        try exec("BEGIN IMMEDIATE", "storing a trial")
        do {
            try insertAttempt(a)
            try run("UPDATE sessions SET trials = trials + 1 WHERE id = ?", "storing a trial", [.int(a.session)])
            try exec("COMMIT", "storing a trial")
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// The attempt's row alone (the caller holds the transaction).
    private func insertAttempt(_ a: MatchAttempt) throws(TrainingStoreError) {
        func real(_ v: Double?) -> Value { v.map { .real($0) } ?? .null }
        func int(_ v: Int?) -> Value { v.map { .int(Int64($0)) } ?? .null }
        try run(
            """
            INSERT INTO match_attempts(session_id, trial, time, reference_hz, target_hz, interval, register,
                                       sung_hz, error_cents, octave, stable_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, "storing a trial",
            [
                .int(a.session), .int(Int64(a.trial)), .text(TrainingStore.iso(a.time)), .real(a.referenceHz),
                .real(a.targetHz), a.interval.map { .text($0) } ?? .null, .int(Int64(a.register)), real(a.sungHz),
                real(a.cents), int(a.octave), int(a.stableMilliseconds)
            ])
    }

    public func add(_ t: IntervalTrialRecord) throws(TrainingStoreError) {
        try insertTrial(
            """
            INSERT INTO interval_trials(session_id, trial, time, interval, first_low_hz, first_high_hz, second_low_hz,
                                        second_high_hz, difference_cents, wider_interval, answer, correct, response_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, session: t.session,
            [
                .int(t.session), .int(Int64(t.trial)), .text(TrainingStore.iso(t.time)), .text(t.interval),
                .real(t.first[0]), .real(t.first[1]), .real(t.second[0]), .real(t.second[1]), .real(t.differenceCents),
                .int(Int64(t.widerInterval)), .text(t.answer), .int(t.correct ? 1 : 0), .int(Int64(t.responseMilliseconds))
            ])
    }

    public func matchAttempts() throws(TrainingStoreError) -> [MatchAttempt] {
        var out: [MatchAttempt] = []
        guard hasSchema, schema >= 2 else { return out }
        let sql = """
            SELECT session_id, trial, time, reference_hz, target_hz, interval, register, sung_hz, error_cents, octave,
                   stable_ms FROM match_attempts ORDER BY session_id, trial
            """
        try query(sql, "reading pitch-matching attempts") { s in
            func int(_ i: Int32) -> Int? { sqlite3_column_type(s, i) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(s, i)) }
            var a = MatchAttempt(
                session: sqlite3_column_int64(s, 0), trial: Int(sqlite3_column_int(s, 1)),
                time: TrainingStore.date(TrainingStore.text(s, 2)) ?? Timestamp.distantPast,
                referenceHz: sqlite3_column_double(s, 3), targetHz: sqlite3_column_double(s, 4),
                interval: sqlite3_column_type(s, 5) == SQLITE_NULL ? nil : TrainingStore.text(s, 5),
                sungHz: TrainingStore.real(s, 7), cents: TrainingStore.real(s, 8), octave: int(9),
                stableMilliseconds: int(10))
            a.register = Int(sqlite3_column_int(s, 6))
            out.append(a)
        }
        return out
    }

    public func intervalTrials() throws(TrainingStoreError) -> [IntervalTrialRecord] {
        var out: [IntervalTrialRecord] = []
        guard hasSchema, schema >= 2 else { return out }
        let sql = """
            SELECT session_id, trial, time, interval, first_low_hz, first_high_hz, second_low_hz, second_high_hz,
                   difference_cents, wider_interval, answer, response_ms FROM interval_trials ORDER BY session_id, trial
            """
        try query(sql, "reading interval trials") { s in
            let plan = IntervalTrialPlan(
                number: Int(sqlite3_column_int(s, 1)), first: (sqlite3_column_double(s, 4), sqlite3_column_double(s, 5)),
                second: (sqlite3_column_double(s, 6), sqlite3_column_double(s, 7)), cents: sqlite3_column_double(s, 8),
                widerInterval: Int(sqlite3_column_int(s, 9)))
            out.append(
                IntervalTrialRecord(
                    session: sqlite3_column_int64(s, 0), trial: plan.number,
                    time: TrainingStore.date(TrainingStore.text(s, 2)) ?? Timestamp.distantPast,
                    interval: TrainingStore.text(s, 3), plan: plan, secondWider: TrainingStore.text(s, 10) == "wider",
                    responseMilliseconds: Int(sqlite3_column_int(s, 11))))
        }
        return out
    }
}

extension TrainingStore {
    /// A whole matching session at once (a recording scored offline): the session, its attempts
    /// and its count in one transaction, so a failure at any point leaves no trace of it rather
    /// than half of it. Returns the session's id.
    @discardableResult
    public func addMatchSession(
        settings: String, attempts: [MatchAttempt], started: Timestamp, ended: Timestamp = Timestamp()
    ) throws(TrainingStoreError) -> Int64 {
        try exec("BEGIN IMMEDIATE", "storing a session")
        do {
            try run(
                "INSERT INTO sessions(started, ended, settings, exercise, trials) VALUES (?, ?, ?, 'match', 0)",
                "storing a session", [.text(TrainingStore.iso(started)), .text(TrainingStore.iso(ended)), .text(settings)])
            let id = sqlite3_last_insert_rowid(db)
            for var attempt in attempts {
                attempt.session = id
                try insertAttempt(attempt)
                try run("UPDATE sessions SET trials = trials + 1 WHERE id = ?", "storing a session", [.int(id)])
            }
            try exec("COMMIT", "storing a session")
            return id
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }
}
