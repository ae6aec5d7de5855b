import CSQLite
import Foundation
import Testing

@testable import PixelBoopCore

/// Whose a database is, read from its 100-byte header before SQLite opens it (opening a WAL
/// database makes `-wal` and `-shm` beside it), and the companions a reading leaves removed
/// again when the file proves not to be ours.
@Suite("TrainingStore+Header: someone else's database refused from its header")
struct TrainingStoreHeaderTests {
    /// An SQLite header as a program writes it: the magic, the journal mode (byte 18: 1 rollback,
    /// 2 WAL) and the application id at offset 68, most significant byte first; then garbage
    /// SQLite itself would call damaged.
    static func header(application: UInt32, journalMode: UInt8 = 2) -> Data {
        var bytes = [UInt8](repeating: 0, count: 4096)
        bytes.replaceSubrange(0..<16, with: Array("SQLite format 3\0".utf8))
        bytes[18] = journalMode
        bytes[19] = journalMode
        for k in 0..<4 { bytes[68 + k] = UInt8(truncatingIfNeeded: application >> (24 - 8 * UInt32(k))) }
        for k in 100..<bytes.count { bytes[k] = UInt8(truncatingIfNeeded: k &* 31 &+ 7) }
        return Data(bytes)
    }

    static func write(_ data: Data, _ folder: String, _ name: String = "training.sqlite") throws -> String {
        let path = folder + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func refused(_ path: String) -> TrainingStoreError? {
        do {
            try TrainingStore.refuseForeignHeader(path)
            return nil
        } catch {
            return error
        }
    }

    @Test("another program's application id is refused from the header alone, whatever follows it")
    func foreignID() throws {
        let folder = try scratchFolder("header-foreign")
        let path = try Self.write(Self.header(application: 0x4142_4344), folder)
        let error = try #require(Self.refused(path))
        #expect(error.kind == .foreign && error.message.contains("not a PixelBoop training history"))
        // Through the store, read-only or not: refused as someone else's (not as damaged), and
        // nothing made beside it.
        for readOnly in [false, true] {
            #expect(throws: TrainingStoreError(kind: .foreign, message: error.message)) {
                try TrainingStore(path: path, readOnly: readOnly)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["training.sqlite"])
    }

    @Test("our id, no id, a short file or not an SQLite file: left for SQLite to judge")
    func passed() throws {
        let folder = try scratchFolder("header-passed")
        #expect(
            Self.refused(try Self.write(Self.header(application: UInt32(TrainingStore.applicationID)), folder, "ours")) == nil)
        #expect(Self.refused(try Self.write(Self.header(application: 0), folder, "none")) == nil)
        #expect(Self.refused(try Self.write(Data("SQLite format 3\0".utf8), folder, "short")) == nil)
        var text = Self.header(application: 0x4142_4344)
        text[0] = UInt8(ascii: "s")
        #expect(Self.refused(try Self.write(text, folder, "text")) == nil)
        #expect(Self.refused(folder + "/absent") == nil)
        // Damaged past the header: SQLite's judgement, corrupt.
        let ours = folder + "/ours"
        #expect(throws: TrainingStoreError.self) { try TrainingStore(path: ours) }
        do {
            _ = try TrainingStore(path: ours, readOnly: true)
            Issue.record("a damaged history was opened")
        } catch {
            #expect(error.kind == .corrupt)
        }
    }

    @Test("no id in rollback mode with a hot journal beside it is someone else's interrupted write")
    func hotJournal() throws {
        let folder = try scratchFolder("header-journal")
        let rollback = try Self.write(Self.header(application: 0, journalMode: 1), folder)
        #expect(Self.refused(rollback) == nil)   // no journal
        _ = FileManager.default.createFile(atPath: rollback + "-journal", contents: Data())
        #expect(Self.refused(rollback) == nil)   // an empty journal is not hot
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: rollback + "-journal"))
        #expect(Self.refused(rollback)?.kind == .foreign)
        // A WAL-mode file has no rollback journal of its own: one beside it says nothing.
        let wal = try Self.write(Self.header(application: 0, journalMode: 2), folder, "wal.sqlite")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: wal + "-journal"))
        #expect(Self.refused(wal) == nil)
    }

    @Test("the companions a reading would make are those not there yet; only they are removed")
    func companions() throws {
        let folder = try scratchFolder("header-companions")
        let path = folder + "/training.sqlite"
        #expect(TrainingStore.missingCompanions(of: path) == [path + "-wal", path + "-shm"])
        _ = FileManager.default.createFile(atPath: path + "-wal", contents: Data([7]))
        let missing = TrainingStore.missingCompanions(of: path)
        #expect(missing == [path + "-shm"])
        _ = FileManager.default.createFile(atPath: path + "-shm", contents: Data([8]))
        TrainingStore.removeCompanions(missing)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == Data([7]))
    }

    @Test("a WAL database without an id but with other tables: what reading it made beside it goes again")
    func walForeignTables() throws {
        let folder = try scratchFolder("header-wal")
        let path = folder + "/training.sqlite"
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(
            sqlite3_exec(db, "PRAGMA journal_mode=WAL; CREATE TABLE notes(x); INSERT INTO notes VALUES (1);", nil, nil, nil)
                == SQLITE_OK)
        sqlite3_close(db)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["training.sqlite"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Self.refused(path) == nil)   // the header cannot tell: the tables do
        for readOnly in [false, true] {
            do {
                _ = try TrainingStore(path: path, readOnly: readOnly)
                Issue.record("someone else's WAL database was opened (readOnly \(readOnly))")
            } catch {
                #expect(error.kind == .foreign)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["training.sqlite"])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
