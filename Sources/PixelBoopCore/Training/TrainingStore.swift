import CSQLite
import Glibc

/// The training history in SQLite: WAL journal, one transaction per trial (a `kill -9` loses at
/// most the trial being answered), versioned migrations (`PRAGMA user_version`). A database that
/// is locked, damaged, from a newer version or someone else's is refused with one line; it is
/// never overwritten and never silently recreated.
///
/// Whose a file is, is decided before anything is written to it (the journal mode, the schema and
/// the version are all writes): a path that is not a regular file is refused before SQLite sees it
/// (SQLite would put a `-journal` beside `/dev/null`); an existing file is first opened read-only
/// and is ours when it carries our application_id, or is empty, or (histories written before the
/// application_id was set) holds exactly our tables of its schema version. `readOnly` (for `stats`) never
/// opens it for writing at all.
public final class TrainingStore {
    /// The schema this build writes; a higher user_version is a newer boop's file.
    public static let schemaVersion: Int32 = 3
    /// `PRAGMA application_id` of a history: "PBtr".
    public static let applicationID: Int32 = 0x5042_7472
    /// Read by the statements (TrainingStore+Statements.swift); set only here.
    private(set) var db: OpaquePointer?
    public let path: String
    /// False for an empty file opened read-only: there is nothing to read yet.
    private(set) var hasSchema = true
    /// The schema version of the open history: an older one is read as it is (`stats` never
    /// migrates), a writer migrates it to `schemaVersion` first.
    var schema: Int32 = TrainingStore.schemaVersion

    /// `$XDG_DATA_HOME/pixelboop/training.sqlite` when that is an absolute path (the XDG rule: a
    /// relative one is ignored, as `EmergencySave.stateFolder` does), else
    /// `~/.local/share/pixelboop/training.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessText.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/pixelboop/training.sqlite" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ProcessText.passwordHome
        return home + "/.local/share/pixelboop/training.sqlite"
    }

    /// Opens (creating when `create`, with its folder) and migrates to the current schema; with
    /// `readOnly`, only reads (SQLITE_OPEN_READONLY: no migration, nothing created).
    public init(path: String, create: Bool = true, readOnly: Bool = false) throws(TrainingStoreError) {
        self.path = path
        let exists = try TrainingStore.checkRegularFile(path)
        if !exists && (!create || readOnly) {
            throw TrainingStoreError(kind: .missing, message: "\(OneLine.escape(path)): no training history yet")
        }
        if exists {
            try inspectExisting(readOnly: readOnly)
            if readOnly { return }
        } else {
            let folder = TrainingStore.folder(of: path)
            guard TrainingStore.makeFolders(folder) else {
                throw TrainingStoreError(
                    kind: .unreadable,
                    message: "\(OneLine.escape(folder)): cannot create the folder for the training history")
            }
        }
        try open(SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE))
        if sqlite3_db_readonly(db, "main") == 1 {
            sqlite3_close(db)
            db = nil
            throw TrainingStoreError(
                kind: .unreadable,
                message: "\(OneLine.escape(path)): the training history is read-only (answers could not be kept)")
        }
        try migrateRetrying()
    }

    /// Reads an existing history read-only first: whose file it is, before any write. Then, for a
    /// writer, closes it again to be opened for writing.
    private func inspectExisting(readOnly: Bool) throws(TrainingStoreError) {
        try TrainingStore.refuseForeignHeader(path)
        let companions = TrainingStore.missingCompanions(of: path)
        do {
            try inspect(path)
        } catch  where error.kind == .foreign {
            // Not ours after all (no application id in its header): what reading it made goes.
            TrainingStore.removeCompanions(companions)
            throw error
        } catch  where readOnly && error.kind == .unreadable {
            // A WAL history is read with SQLite's shared memory beside it (`-shm`), which a
            // read-only folder or `ulimit -f` forbids. Then the file alone is read, without
            // locks: complete when every session closed it (its `-wal` is gone or empty).
            // Answers left in the `-wal` (a session killed) cannot be read that way, and a
            // history without them would be wrong: refused.
            var wal = stat()
            if RawBytes.withPath(path + "-wal", { stat($0, &wal) }) == 0 && wal.st_size > 0 {
                let detail = error.message.parts(separatedBy: ": ").last ?? ""
                throw TrainingStoreError(
                    kind: .unreadable,
                    message:
                        "\(OneLine.escape(path)): answers still in its journal (-wal) can be read only by writing beside it, which failed (\(detail))"
                )
            }
            try inspect("file:\(TrainingStore.uriEscaped(path))?immutable=1", flags: SQLITE_OPEN_URI)
        }
        if readOnly { return }
        sqlite3_close(db)
        db = nil
        hasSchema = true
    }

    /// Switching a new file to WAL takes an exclusive lock that SQLite's busy handler does not
    /// wait for: two sessions starting on a new history at once retry for a while.
    private func migrateRetrying() throws(TrainingStoreError) {
        try retryingWhileLocked { () throws(TrainingStoreError) in try migrate() }
    }

    /// True when `path` is a regular file (following links), false when nothing is there; throws
    /// for anything else, before SQLite opens it.
    private static func checkRegularFile(_ path: String) throws(TrainingStoreError) -> Bool {
        var info = stat()
        guard RawBytes.withPath(path, { stat($0, &info) }) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw TrainingStoreError(
                kind: code == ENOTDIR ? .notAFile : .unreadable,
                message: "\(OneLine.escape(path)): cannot examine the training history: \(String(cString: strerror(code)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TrainingStoreError(
                kind: .notAFile,
                message:
                    "\(OneLine.escape(path)): not a regular file (a device, folder or pipe); the training history is an SQLite file"
            )
        }
        return true
    }

    /// Opens `name` (the path, or a URI) read-only and checks whose database it is; the connection
    /// stays open when it is ours.
    private func inspect(_ name: String, flags: Int32 = 0) throws(TrainingStoreError) {
        try open(SQLITE_OPEN_READONLY | flags, name: name)
        // A session creating this history holds it locked past the busy handler for a moment.
        do {
            hasSchema = try retryingWhileLocked { () throws(TrainingStoreError) in try checkOurs() }
        } catch {
            sqlite3_close(db)
            db = nil
            throw error
        }
    }

    /// A path as the path of a `file:` URI: its bytes on disk, each one a URI gives a meaning to
    /// (and every byte past ASCII: a name need not be UTF-8) percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-._~".utf8)
        var out = ""
        for c in RawBytes.fileSystemBytes(path).dropLast() {
            let byte = UInt8(bitPattern: c)
            out += plain.contains(byte) ? String(UnicodeScalar(byte)) : String(cFormat: "%%%02X", byte)
        }
        return out
    }

    /// The folder part of a path (".", for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// mkdir -p on the path's own bytes; true when the folder is there.
    static func makeFolders(_ folder: String) -> Bool {
        var info = stat()
        if RawBytes.withPath(folder, { stat($0, &info) }) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        let parent = TrainingStore.folder(of: folder)
        if parent != folder && !makeFolders(parent) { return false }
        return RawBytes.withPath(folder, { mkdir($0, 0o755) }) == 0 || errno == EEXIST
    }

    private func open(_ flags: Int32, name: String? = nil) throws(TrainingStoreError) {
        // The path's own bytes (a name need not be UTF-8); a URI is already escaped ASCII.
        let status = RawBytes.withPath(name ?? path) { sqlite3_open_v2($0, &db, flags | SQLITE_OPEN_NOMUTEX, nil) }
        guard status == SQLITE_OK else {
            let error = fail(status, "cannot open")
            sqlite3_close(db)
            db = nil
            throw error
        }
        // Another session may be writing: wait for it rather than fail (two sessions at once).
        // The retries around opening stop at lockWaitSeconds, so the whole wait stays bounded.
        sqlite3_busy_timeout(db, 5000)
    }

    /// On the read-only connection: refuses a newer or someone else's database. True when our
    /// schema is there, false for an empty file (a new history).
    private func checkOurs() throws(TrainingStoreError) -> Bool {
        // The first real read: garbage fails here as "not a database".
        var application: Int32 = 0
        var version: Int32 = 0
        var tables: Set<String> = []
        // One read transaction: a session creating the history meanwhile is seen before or after,
        // never half-way (version 0 read before its commit, its tables after).
        try exec("BEGIN", "reading the schema")
        do {
            try query("PRAGMA application_id", "reading the application id") { application = sqlite3_column_int($0, 0) }
            try query("PRAGMA user_version", "reading the schema version") { version = sqlite3_column_int($0, 0) }
            try query("SELECT name FROM sqlite_master WHERE type = 'table'", "reading the tables") {
                let name = TrainingStore.text($0, 0)
                if !name.hasPrefix("sqlite_") { tables.insert(name) }
            }
            try exec("COMMIT", "reading the schema")
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
        let foreign = TrainingStoreError(
            kind: .foreign,
            message:
                "\(OneLine.escape(path)): not a PixelBoop training history (an SQLite database of something else); it is left as it is"
        )
        if application != 0 && application != TrainingStore.applicationID { throw foreign }
        if version > TrainingStore.schemaVersion { throw newerError(version) }
        if tables.isEmpty && version == 0 { return false }   // empty: a new history
        if let ours = TrainingStore.tables[version], tables == ours {
            schema = version
            return true
        }
        throw foreign
    }

    deinit { sqlite3_close(db) }

    func fail(_ status: Int32, _ what: String) -> TrainingStoreError {
        let detail = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        let base = status & 0xFF
        let kind: TrainingStoreError.Kind =
            switch base {
            case SQLITE_BUSY, SQLITE_LOCKED: .busy
            case SQLITE_NOTADB, SQLITE_CORRUPT: .corrupt
            default: .unreadable
            }
        let hint =
            switch kind {
            case .busy: " (another program holds it locked)"
            case .corrupt: " (not a PixelBoop training history, or damaged: it is left as it is)"
            default: ""
            }
        return TrainingStoreError(kind: kind, message: "\(OneLine.escape(path)): \(what): \(OneLine.escape(detail))\(hint)")
    }

    func exec(_ sql: String, _ what: String) throws(TrainingStoreError) {
        let status = sqlite3_exec(db, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw fail(status, what) }
    }
}
