import CSQLite
import Foundation
import Testing

@testable import PixelBoopCore

/// The identification exercises' trials in the history (schema 3): each stored trial comes back
/// as it was asked and answered, one transaction with its session's count, and a history of
/// schema 2 is widened to them with every row it had.
@Suite("TrainingStore+Ear: identification trials in the history")
struct TrainingStoreEarTests {
    static func store(_ prefix: String) throws -> TrainingStore {
        try TrainingStore(path: try scratchFolder(prefix) + "/training.sqlite")
    }

    /// A time the history keeps exactly (it stores milliseconds).
    static func time(_ k: Int) -> Timestamp { Timestamp(timeIntervalSince1970: 1_800_000_000 + Double(k) + 0.25) }

    static func plan(_ number: Int, _ drill: EarDrill, _ item: String, seed: UInt64) -> EarTrialPlan {
        var rng = SeededGenerator(seed: seed)
        switch drill {
        case .degrees: return EarTrialPlan.degree(number: number, degree: item, tonic: 63, drone: false)
        default:
            return EarTrialPlan.identify(
                number: number, drill: drill, item: item, roots: 48...60, directions: EarItems.directions, rng: &rng)
        }
    }

    @Test("trials of every drill come back equal, oldest first, and a drill alone when asked for")
    func roundTrip() throws {
        let store = try Self.store("ear-roundtrip")
        let identify = try store.beginSession(settings: "{}", exercise: .identify)
        let degrees = try store.beginSession(settings: "{}", exercise: .degrees)
        let records = [
            EarTrialRecord(
                session: identify, trial: 1, time: Self.time(1), plan: Self.plan(1, .intervals, "TT", seed: 3), answer: "TT",
                responseMilliseconds: 900),
            EarTrialRecord(
                session: identify, trial: 2, time: Self.time(2), plan: Self.plan(2, .chords, "dom7", seed: 4), answer: "maj7",
                responseMilliseconds: 1500),
            EarTrialRecord(
                session: degrees, trial: 1, time: Self.time(3), plan: Self.plan(1, .degrees, "6", seed: 0), answer: "6",
                responseMilliseconds: 2100)
        ]
        // Stored out of order: read back by session, then trial.
        for k in [2, 0, 1] { try store.add(records[k]) }
        #expect(try store.earTrials() == records)
        #expect(try store.earTrials(.chords) == [records[1]])
        #expect(try store.earTrials(.degrees) == [records[2]])
        #expect(records.map(\.correct) == [true, false, true])
        // The degree's variant is its key, its base the tonic; a chord is in root position.
        #expect(records[2].variant == "Eb" && records[2].base == 63 && records[1].variant == "root")
        #expect(try store.sessions().map(\.trials) == [2, 1])
        #expect(try store.sessions().map(\.exercise) == [.identify, .degrees])
    }

    @Test("the stored correct column is the answer equal to the item")
    func correctColumn() throws {
        let store = try Self.store("ear-correct")
        let id = try store.beginSession(settings: "{}", exercise: .identify)
        for (k, answer) in ["m3", "M3"].enumerated() {
            try store.add(
                EarTrialRecord(
                    session: id, trial: k + 1, time: Self.time(k), plan: Self.plan(k + 1, .intervals, "m3", seed: 9),
                    answer: answer, responseMilliseconds: 800))
        }
        var correct: [Int32] = []
        try store.query("SELECT correct FROM ear_trials ORDER BY trial", "test") { correct.append(sqlite3_column_int($0, 0)) }
        #expect(correct == [1, 0])
    }

    @Test("a trial and its session's count are one write: a failure leaves neither")
    func transactional() throws {
        let store = try Self.store("ear-atomic")
        let id = try store.beginSession(settings: "{}", exercise: .identify)
        let first = EarTrialRecord(
            session: id, trial: 1, time: Self.time(1), plan: Self.plan(1, .intervals, "P5", seed: 1), answer: "P5",
            responseMilliseconds: 700)
        try store.add(first)
        try store.exec("CREATE TRIGGER refuse BEFORE UPDATE ON sessions BEGIN SELECT RAISE(ABORT, 'disk full'); END;", "test")
        var second = first
        second.trial = 2
        #expect(throws: TrainingStoreError.self) { try store.add(second) }
        try store.exec("DROP TRIGGER refuse", "test")
        #expect(try store.earTrials() == [first])
        #expect(try store.sessions().first?.trials == 1)
        // A trial of a session that does not exist is refused (foreign keys are on again after
        // the schema-3 rebuild turned them off): nothing stored.
        var orphan = first
        orphan.session = id + 41
        #expect(throws: TrainingStoreError.self) { try store.add(orphan) }
        #expect(try store.earTrials() == [first])
    }

    /// A history exactly as schema 2 wrote it: a matching and an interval session.
    static func schema2History() throws -> String {
        let path = try scratchFolder("ear-schema2") + "/training.sqlite"
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        let sql =
            TrainingStore.schema1 + TrainingStore.schema2 + """
                PRAGMA application_id = \(TrainingStore.applicationID);
                PRAGMA user_version = 2;
                INSERT INTO sessions(id, started, settings, trials, exercise)
                    VALUES (4, '2026-10-01T09:00:00.000Z', '{"a":1}', 1, 'match');
                INSERT INTO sessions(id, started, settings, trials, threshold_cents, exercise)
                    VALUES (9, '2026-10-02T09:00:00.000Z', '{}', 0, 14.5, 'interval');
                INSERT INTO match_attempts(session_id, trial, time, reference_hz, target_hz, register)
                    VALUES (4, 1, '2026-10-01T09:01:00.000Z', 440, 440, 4);
                """
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        return path
    }

    @Test("a schema-2 history has no identification trials read-only, and keeps every session when widened")
    func fromSchema2() throws {
        let path = try Self.schema2History()
        let reader = try TrainingStore(path: path, readOnly: true)
        #expect(try reader.earTrials().isEmpty)
        #expect(TrainingStoreSchemaTests.userVersion(path) == 2)
        let before = try reader.sessions()
        let store = try TrainingStore(path: path)
        #expect(TrainingStoreSchemaTests.userVersion(path) == 3)
        #expect(try store.sessions() == before && before.map(\.id) == [4, 9])
        #expect(try store.matchAttempts().map(\.session) == [4])
        var foreignKeys: Int32 = 0
        try store.query("PRAGMA foreign_keys", "test") { foreignKeys = sqlite3_column_int($0, 0) }
        #expect(foreignKeys == 1)
        // The rebuilt sessions table takes the new exercises and still refuses an unknown one.
        let id = try store.beginSession(settings: "{}", exercise: .degrees)
        #expect(id == 10)
        #expect(throws: TrainingStoreError.self) {
            try store.run("INSERT INTO sessions(started, settings, exercise) VALUES ('x', '{}', 'juggling')", "test", [])
        }
        try store.add(
            EarTrialRecord(
                session: id, trial: 1, time: Self.time(1), plan: Self.plan(1, .degrees, "2", seed: 0), answer: "3",
                responseMilliseconds: 1200))
        #expect(try store.earTrials().map(\.answer) == ["3"])
    }

    @Test("a new, empty history has no identification trials")
    func emptyFile() throws {
        let path = try scratchFolder("ear-empty") + "/training.sqlite"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        #expect(try TrainingStore(path: path, readOnly: true).earTrials().isEmpty)
    }
}
