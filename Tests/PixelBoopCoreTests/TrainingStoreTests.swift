import CSQLite
import Foundation
import Testing

@testable import PixelBoopCore

@Suite("TrainingStore: the history of sessions and trials")
struct TrainingStoreTests {
    static func tempPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("boop-train-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: dir)
        return dir.appendingPathComponent("history/training.sqlite").path
    }

    @Test("the history keeps sessions and trials across opens; migrations are versioned")
    func history() throws {
        let path = TrainingStoreTests.tempPath("history")
        do {
            let store = try TrainingStore(path: path)
            let id = try store.beginSession(settings: "{}")
            for k in 1...3 {
                try store.add(
                    TrainingTrial(
                        session: id, trial: k, time: Timestamp(), referenceHz: 440, differenceCents: 5,
                        higherInterval: 1, answer: "lower", correct: true, responseMilliseconds: 700))
            }
            try store.endSession(id, estimate: (4.5, 3, 6))
        }
        let again = try TrainingStore(path: path, create: false)
        let sessions = try again.sessions()
        #expect(sessions.count == 1 && sessions[0].trials == 3 && sessions[0].threshold == 4.5)
        #expect(try again.trials().map(\.trial) == [1, 2, 3])
    }

    @Test("a missing, corrupt or newer history is refused and left as it was")
    func refused() throws {
        #expect(throws: TrainingStoreError.self) {
            try TrainingStore(path: TrainingStoreTests.tempPath("missing"), create: false)
        }
        let corrupt = TrainingStoreTests.tempPath("corrupt")
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: corrupt).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: corrupt))
        do {
            _ = try TrainingStore(path: corrupt)
            Issue.record("a corrupt file was opened")
        } catch {
            #expect(error.kind == .corrupt)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: corrupt)) == garbage)
    }

    /// A database as another program would write it (folder created).
    static func foreignDatabase(_ name: String, _ sql: String) throws -> String {
        let path = tempPath(name)
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        return path
    }

    @Test(
        "someone else's SQLite database is refused before anything is written: byte-identical, no journal beside it",
        arguments: [
            "CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('mine');",
            "PRAGMA application_id = 1234; CREATE TABLE sessions(x); CREATE TABLE trials(y); PRAGMA user_version = 1;",
            "CREATE TABLE sessions(x); CREATE TABLE trials(y); CREATE TABLE other(z); PRAGMA user_version = 1;",
            "CREATE TABLE sessions(x); CREATE TABLE trials(y);"
        ])
    func foreign(sql: String) throws {
        let path = try TrainingStoreTests.foreignDatabase("foreign-\(sql.hashValue)", sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for readOnly in [false, true] {
            do {
                _ = try TrainingStore(path: path, readOnly: readOnly)
                Issue.record("a foreign database was opened (readOnly \(readOnly))")
            } catch {
                #expect(error.kind == .foreign)
                #expect(error.message.contains("not a PixelBoop training history"))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        for suffix in ["-journal", "-wal"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
    }

    @Test("the default history: XDG_DATA_HOME when absolute, else under HOME (a relative one is ignored)")
    func defaultPath() {
        #expect(TrainingStore.defaultPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/pixelboop/training.sqlite")
        let home = "/h/.local/share/pixelboop/training.sqlite"
        #expect(TrainingStore.defaultPath(environment: ["XDG_DATA_HOME": "rel/d", "HOME": "/h"]) == home)
        #expect(TrainingStore.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]) == home)
        #expect(TrainingStore.defaultPath(environment: ["HOME": "/h"]) == home)
    }

    @Test("a device or folder is refused before SQLite opens it: no /dev/null-journal")
    func notAFile() throws {
        try? FileManager.default.removeItem(atPath: "/dev/null-journal")
        for path in ["/dev/null", "/dev/zero", FileManager.default.temporaryDirectory.path] {
            for readOnly in [false, true] {
                do {
                    _ = try TrainingStore(path: path, readOnly: readOnly)
                    Issue.record("\(path) was opened")
                } catch {
                    #expect(error.kind == .notAFile, "\(path): \(error)")
                }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/zero-journal"))
    }

    @Test("read-only (stats): reads a history without writing it; missing is .missing; an empty file has no sessions")
    func readOnly() throws {
        let path = TrainingStoreTests.tempPath("readonly")
        do {
            let store = try TrainingStore(path: path)
            let id = try store.beginSession(settings: "{}")
            try store.add(
                TrainingTrial(
                    session: id, trial: 1, time: Timestamp(), referenceHz: 440, differenceCents: 5,
                    higherInterval: 1, answer: "lower", correct: true, responseMilliseconds: 700))
            try store.endSession(id, estimate: (4.5, 3, 6))
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let reader = try TrainingStore(path: path, create: false, readOnly: true)
        #expect(try reader.sessions().count == 1 && reader.trials().count == 1)
        #expect(throws: TrainingStoreError.self) { try reader.beginSession(settings: "{}") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        do {
            _ = try TrainingStore(path: TrainingStoreTests.tempPath("absent"), create: false, readOnly: true)
            Issue.record("a missing history was opened")
        } catch {
            #expect(error.kind == .missing)
        }
        let empty = TrainingStoreTests.tempPath("empty")
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: empty).deletingLastPathComponent().path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(try TrainingStore(path: empty, readOnly: true).sessions().isEmpty)
        // Its size, not its contents: Foundation's Data(contentsOf:) leaks its 4 KiB read buffer on an
        // empty file (LeakSanitizer fails the AddressSanitizer run on it).
        #expect((try FileManager.default.attributesOfItem(atPath: empty)[.size] as? NSNumber)?.intValue == 0)
        // An empty file is a new history when written.
        _ = try TrainingStore(path: empty).beginSession(settings: "{}")
    }

    @Test("a history written before the application id was set is still ours, and gets it")
    func legacyHistory() throws {
        let path = TrainingStoreTests.tempPath("legacy")
        _ = try TrainingStore(path: path).beginSession(settings: "{}")
        var db: OpaquePointer?
        sqlite3_open(path, &db)
        sqlite3_exec(db, "PRAGMA application_id = 0", nil, nil, nil)
        sqlite3_close(db)
        #expect(try TrainingStore(path: path, readOnly: true).sessions().count == 1)
        _ = try TrainingStore(path: path)
        sqlite3_open(path, &db)
        var id: Int32 = 0
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &statement, nil)
        if sqlite3_step(statement) == SQLITE_ROW { id = sqlite3_column_int(statement, 0) }
        sqlite3_finalize(statement)
        sqlite3_close(db)
        #expect(id == TrainingStore.applicationID)
    }
}
