import CSQLite
import Glibc

/// The history's rows: sessions and trials written and read through prepared statements.
extension TrainingStore {
    // MARK: Writing

    /// Starts a session; returns its id.
    public func beginSession(
        settings: String, exercise: TrainingExercise = .discrimination, at time: Timestamp = Timestamp()
    ) throws(TrainingStoreError) -> Int64 {
        try run(
            "INSERT INTO sessions(started, settings, exercise) VALUES (?, ?, ?)", "starting a session",
            [.text(TrainingStore.iso(time)), .text(settings), .text(exercise.rawValue)])
        return sqlite3_last_insert_rowid(db)
    }

    /// Stores one answered trial, in its own transaction (durable when this returns).
    public func add(_ t: TrainingTrial) throws(TrainingStoreError) {
        try insertTrial(
            """
            INSERT INTO trials(session_id, trial, time, reference_hz, difference_cents, higher_interval,
                               answer, correct, response_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, session: t.session,
            [
                .int(t.session), .int(Int64(t.trial)), .text(TrainingStore.iso(t.time)), .real(t.referenceHz),
                .real(t.differenceCents), .int(Int64(t.higherInterval)), .text(t.answer), .int(t.correct ? 1 : 0),
                .int(Int64(t.responseMilliseconds))
            ])
    }

    /// A trial's row and its session's count in one transaction: both or neither.
    func insertTrial(_ sql: String, session: Int64, _ values: [Value]) throws(TrainingStoreError) {
        try exec("BEGIN IMMEDIATE", "storing a trial")
        do {
            try run(sql, "storing a trial", values)
            try run("UPDATE sessions SET trials = trials + 1 WHERE id = ?", "storing a trial", [.int(session)])
            try exec("COMMIT", "storing a trial")
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Ends a session with its estimate (nil when no trial was answered).
    public func endSession(
        _ id: Int64, estimate: (threshold: Double, low: Double, high: Double)?,
        at time: Timestamp = Timestamp()
    ) throws(TrainingStoreError) {
        try run(
            "UPDATE sessions SET ended = ?, threshold_cents = ?, low_cents = ?, high_cents = ? WHERE id = ?",
            "ending the session",
            [
                .text(TrainingStore.iso(time)), estimate.map { .real($0.threshold) } ?? .null,
                estimate.map { .real($0.low) } ?? .null, estimate.map { .real($0.high) } ?? .null, .int(id)
            ])
    }

    // MARK: Reading

    public func sessions() throws(TrainingStoreError) -> [TrainingSession] {
        var out: [TrainingSession] = []
        guard hasSchema else { return out }
        // Schema 1 knew one exercise (read as it is: `stats` never migrates).
        let exercise = schema >= 2 ? "exercise" : "'discrimination'"
        try query(
            "SELECT id, started, ended, settings, trials, threshold_cents, low_cents, high_cents, \(exercise) FROM sessions ORDER BY id",
            "reading sessions"
        ) { s in
            out.append(
                TrainingSession(
                    id: sqlite3_column_int64(s, 0),
                    started: TrainingStore.date(TrainingStore.text(s, 1)) ?? Timestamp.distantPast,
                    ended: TrainingStore.date(TrainingStore.text(s, 2)), settings: TrainingStore.text(s, 3),
                    trials: Int(sqlite3_column_int(s, 4)), threshold: TrainingStore.real(s, 5), low: TrainingStore.real(s, 6),
                    high: TrainingStore.real(s, 7),
                    exercise: TrainingExercise(rawValue: TrainingStore.text(s, 8)) ?? .discrimination))
        }
        return out
    }

    public func trials(session: Int64? = nil) throws(TrainingStoreError) -> [TrainingTrial] {
        var out: [TrainingTrial] = []
        guard hasSchema else { return out }
        let sql = """
            SELECT session_id, trial, time, reference_hz, difference_cents, higher_interval, answer, correct, response_ms
            FROM trials \(session == nil ? "" : "WHERE session_id = \(session!)") ORDER BY session_id, trial
            """
        try query(sql, "reading trials") { s in
            out.append(
                TrainingTrial(
                    session: sqlite3_column_int64(s, 0), trial: Int(sqlite3_column_int(s, 1)),
                    time: TrainingStore.date(TrainingStore.text(s, 2)) ?? Timestamp.distantPast,
                    referenceHz: sqlite3_column_double(s, 3), differenceCents: sqlite3_column_double(s, 4),
                    higherInterval: Int(sqlite3_column_int(s, 5)), answer: TrainingStore.text(s, 6),
                    correct: sqlite3_column_int(s, 7) != 0, responseMilliseconds: Int(sqlite3_column_int(s, 8))))
        }
        return out
    }

    // MARK: Statements

    enum Value {
        case int(Int64)
        case real(Double)
        case text(String)
        case null
    }

    private func prepare(_ sql: String, _ what: String) throws(TrainingStoreError) -> OpaquePointer {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw fail(status, what) }
        return statement
    }

    func run(_ sql: String, _ what: String, _ values: [Value]) throws(TrainingStoreError) {
        let s = try prepare(sql, what)
        defer { sqlite3_finalize(s) }
        // SQLITE_TRANSIENT: SQLite copies the text before the Swift string goes away.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, v) in values.enumerated() {
            let k = Int32(i + 1)
            switch v {
            case .int(let n): sqlite3_bind_int64(s, k, n)
            case .real(let d): sqlite3_bind_double(s, k, d)
            case .text(let t): sqlite3_bind_text(s, k, t, -1, transient)
            case .null: sqlite3_bind_null(s, k)
            }
        }
        let status = sqlite3_step(s)
        guard status == SQLITE_DONE else { throw fail(status, what) }
    }

    func query(_ sql: String, _ what: String, _ row: (OpaquePointer) -> Void) throws(TrainingStoreError) {
        let s = try prepare(sql, what)
        defer { sqlite3_finalize(s) }
        while true {
            let status = sqlite3_step(s)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw fail(status, what) }
            row(s)
        }
    }

    static func text(_ s: OpaquePointer, _ i: Int32) -> String {
        sqlite3_column_text(s, i).map { String(cString: $0) } ?? ""
    }

    static func real(_ s: OpaquePointer, _ i: Int32) -> Double? {
        sqlite3_column_type(s, i) == SQLITE_NULL ? nil : sqlite3_column_double(s, i)
    }

    static func iso(_ d: Timestamp) -> String {
        DateText.iso8601(d)
    }

    static func date(_ s: String) -> Timestamp? {
        guard !s.isEmpty else { return nil }
        return DateText.date(iso8601: s)
    }
}
