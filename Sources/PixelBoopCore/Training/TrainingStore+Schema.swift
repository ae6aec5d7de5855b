import CSQLite
import Glibc

/// The history's schema and its migrations. Each step runs in one transaction: a step that fails
/// (a full disk, a lock) leaves the history at the version before it, with every row it had.
extension TrainingStore {
    /// The tables of each schema version (a history holding exactly these is ours).
    static let tables: [Int32: Set<String>] = [
        1: ["sessions", "trials"],
        2: ["sessions", "trials", "match_attempts", "interval_trials"],
        3: ["sessions", "trials", "match_attempts", "interval_trials", "ear_trials"]
    ]

    /// Schema 1: sessions and pitch-discrimination trials.
    /// The columns every schema's sessions table has (schema 3 rebuilds the table with them).
    static let sessionColumns = """
            id INTEGER PRIMARY KEY,
            started TEXT NOT NULL,
            ended TEXT,
            settings TEXT NOT NULL,
            trials INTEGER NOT NULL DEFAULT 0,
            threshold_cents REAL,
            low_cents REAL,
            high_cents REAL
        """

    /// The columns every trial table starts with: its row, its session, its number and its time.
    static let trialColumns = """
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            trial INTEGER NOT NULL,
            time TEXT NOT NULL,
        """

    /// The columns that end a forced-choice table (two intervals, one has more of something): the
    /// difference asked about, the interval that had more (`more`), the answer as one of two
    /// words, whether it was right and how long it took.
    static func choiceColumns(more: String, answers: (String, String)) -> String {
        """
            difference_cents REAL NOT NULL,
            \(more) INTEGER NOT NULL CHECK (\(more) IN (1, 2)),
            answer TEXT NOT NULL CHECK (answer IN ('\(answers.0)', '\(answers.1)')),
            correct INTEGER NOT NULL,
            response_ms INTEGER NOT NULL
        """
    }

    static let schema1 = """
        CREATE TABLE IF NOT EXISTS sessions (
        \(sessionColumns));
        CREATE TABLE IF NOT EXISTS trials (
        \(trialColumns)
            reference_hz REAL NOT NULL,
        \(choiceColumns(more: "higher_interval", answers: ("higher", "lower"))));
        CREATE INDEX IF NOT EXISTS trials_by_session ON trials(session_id, trial);
        """

    /// Schema 2: each session names its exercise (the rows of schema 1 are discrimination
    /// sessions); pitch-matching attempts and interval-discrimination trials beside the trials.
    /// An unvoiced attempt (nothing steady heard) is kept with no sung pitch.
    static let schema2 = """
        ALTER TABLE sessions ADD COLUMN exercise TEXT NOT NULL DEFAULT 'discrimination'
            CHECK (exercise IN ('discrimination', 'match', 'interval'));
        CREATE TABLE match_attempts (
        \(trialColumns)
            reference_hz REAL NOT NULL,
            target_hz REAL NOT NULL,
            interval TEXT,
            register INTEGER NOT NULL,
            sung_hz REAL,
            error_cents REAL,
            octave INTEGER,
            stable_ms INTEGER);
        CREATE INDEX match_attempts_by_session ON match_attempts(session_id, trial);
        CREATE TABLE interval_trials (
        \(trialColumns)
            interval TEXT NOT NULL,
            first_low_hz REAL NOT NULL,
            first_high_hz REAL NOT NULL,
            second_low_hz REAL NOT NULL,
            second_high_hz REAL NOT NULL,
        \(choiceColumns(more: "wider_interval", answers: ("wider", "narrower"))));
        CREATE INDEX interval_trials_by_session ON interval_trials(session_id, trial);
        """

    func migrate() throws(TrainingStoreError) {
        // Reading the schema is the first real read: garbage fails here as "not a database".
        var version: Int32 = 0
        try query("PRAGMA user_version", "reading the schema version") { version = sqlite3_column_int($0, 0) }
        if version > TrainingStore.schemaVersion { throw newerError(version) }
        // A history of schema 1 written before the application_id was set gets it now.
        var application: Int32 = 0
        try query("PRAGMA application_id", "reading the application id") { application = sqlite3_column_int($0, 0) }
        try exec("PRAGMA journal_mode=WAL", "switching to WAL")
        if version >= 1 && application == 0 {
            try exec("PRAGMA application_id = \(TrainingStore.applicationID)", "marking the history as PixelBoop's")
        }
        try exec("PRAGMA synchronous=FULL", "setting durability")
        try exec("PRAGMA foreign_keys=ON", "enabling foreign keys")
        if version < 1 {
            try step(
                TrainingStore.schema1 + "PRAGMA application_id = \(TrainingStore.applicationID);", to: 1,
                "creating the schema")
        }
        if version < 2 { try step(TrainingStore.schema2, to: 2, "adding pitch matching and intervals to the history") }
        if version < 3 { try migrate3() }
        schema = TrainingStore.schemaVersion
    }

    /// One migration step in one transaction (rolled back whole when any statement fails).
    func step(_ sql: String, to version: Int32, _ what: String) throws(TrainingStoreError) {
        try exec("BEGIN IMMEDIATE", what)
        do {
            // Another session may have taken this step while this one waited for the lock.
            var now: Int32 = 0
            try query("PRAGMA user_version", what) { now = sqlite3_column_int($0, 0) }
            if now < version { try exec(sql + "\nPRAGMA user_version = \(version);", what) }
            try exec("COMMIT", what)
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    func newerError(_ version: Int32) -> TrainingStoreError {
        TrainingStoreError(
            kind: .newer,
            message:
                "\(OneLine.escape(path)): written by a newer PixelBoop (schema \(version), this one knows \(TrainingStore.schemaVersion)); it is left as it is"
        )
    }
}
