import CSQLite
import Foundation
import Testing

@testable import PixelBoopCore

/// The history's sessions and discrimination trials written and read through prepared statements:
/// values bound, never spliced into the SQL; one transaction per trial with its session's count;
/// rows read back in session and trial order.
@Suite("TrainingStore+Statements: sessions and trials written and read")
struct TrainingStoreStatementsTests {
    static func store(_ prefix: String) throws -> TrainingStore {
        try TrainingStore(path: try scratchFolder(prefix) + "/training.sqlite")
    }

    static let t0 = Timestamp(timeIntervalSince1970: 1_800_000_000.5)

    static func trial(_ session: Int64, _ k: Int, answer: String = "higher", correct: Bool = true) -> TrainingTrial {
        TrainingTrial(
            session: session, trial: k, time: t0.addingTimeInterval(Double(k)), referenceHz: 261.625 + Double(k),
            differenceCents: 12.5 / Double(k), higherInterval: k % 2 + 1, answer: answer, correct: correct,
            responseMilliseconds: 600 + k)
    }

    @Test("a session's start, settings, exercise, end and estimate come back as written")
    func sessionRoundTrip() throws {
        let store = try Self.store("statements-session")
        // Quotes and SQL in the settings are a value, not part of the statement.
        let settings = #"{"note": "it's '); DROP TABLE sessions; --", "π": 3.14}"#
        let a = try store.beginSession(settings: settings, exercise: .interval, at: Self.t0)
        let b = try store.beginSession(settings: "{}", at: Self.t0.addingTimeInterval(60))
        #expect(b > a)
        try store.endSession(a, estimate: (threshold: 18.25, low: 11, high: 30.5), at: Self.t0.addingTimeInterval(30))
        try store.endSession(b, estimate: nil, at: Self.t0.addingTimeInterval(90))
        let sessions = try store.sessions()
        #expect(
            sessions == [
                TrainingSession(
                    id: a, started: Self.t0, ended: Self.t0.addingTimeInterval(30), settings: settings, trials: 0,
                    threshold: 18.25, low: 11, high: 30.5, exercise: .interval),
                TrainingSession(
                    id: b, started: Self.t0.addingTimeInterval(60), ended: Self.t0.addingTimeInterval(90), settings: "{}",
                    trials: 0, threshold: nil, low: nil, high: nil, exercise: .discrimination)
            ])
        // A session not yet ended has no end.
        let c = try store.beginSession(settings: "{}", exercise: .match, at: Self.t0)
        #expect(
            try store.sessions().last == TrainingSession(id: c, started: Self.t0, settings: "{}", trials: 0, exercise: .match))
    }

    @Test("trials come back equal, ordered by session then trial, one session's alone when asked for")
    func trialsRoundTrip() throws {
        let store = try Self.store("statements-trials")
        let a = try store.beginSession(settings: "{}")
        let b = try store.beginSession(settings: "{}")
        let written = [Self.trial(b, 2), Self.trial(a, 3, answer: "lower", correct: false), Self.trial(b, 1), Self.trial(a, 1)]
        for t in written { try store.add(t) }
        #expect(try store.trials() == [written[3], written[1], written[2], written[0]])
        #expect(try store.trials(session: b) == [written[2], written[0]])
        #expect(try store.trials(session: b + 100).isEmpty)
        #expect(try store.sessions().map(\.trials) == [2, 2])
    }

    @Test("a trial the schema refuses is not stored and its session's count is unchanged")
    func refusedTrial() throws {
        let store = try Self.store("statements-refused")
        let id = try store.beginSession(settings: "{}")
        try store.add(Self.trial(id, 1))
        // The answer is "higher" or "lower" only.
        #expect(throws: TrainingStoreError.self) { try store.add(Self.trial(id, 2, answer: "same")) }
        // A trial of a session that does not exist.
        #expect(throws: TrainingStoreError.self) { try store.add(Self.trial(id + 7, 1)) }
        #expect(try store.trials() == [Self.trial(id, 1)])
        #expect(try store.sessions().map(\.trials) == [1])
        // The failed transactions were rolled back: the next trial is stored.
        try store.add(Self.trial(id, 2))
        #expect(try store.sessions().map(\.trials) == [2])
    }

    @Test("a failure names the history and what was being done; a time that cannot be read is the distant past")
    func failuresAndTimes() throws {
        let store = try Self.store("statements-failures")
        do {
            try store.run("INSERT INTO nowhere VALUES (?)", "storing a trial", [.int(1)])
            Issue.record("an insert into a missing table succeeded")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.message.hasPrefix(store.path + ": storing a trial: ") && error.message.contains("nowhere"))
        }
        try store.run(
            "INSERT INTO sessions(started, settings) VALUES (?, ?)", "test", [.text("last Tuesday"), .text("{}")])
        #expect(try store.sessions().first?.started == Timestamp.distantPast)
        // Times are kept to the millisecond.
        #expect(TrainingStore.iso(Self.t0) == "2027-01-15T08:00:00.500Z")
        #expect(TrainingStore.date(TrainingStore.iso(Self.t0)) == Self.t0)
        #expect(TrainingStore.date("") == nil)
    }

    @Test("the bound values keep their types: null, integer, real and text")
    func boundValues() throws {
        let store = try Self.store("statements-values")
        try store.exec("CREATE TABLE v(a, b, c, d)", "test")
        try store.run("INSERT INTO v VALUES (?, ?, ?, ?)", "test", [.null, .int(Int64.max), .real(0.1), .text("é\u{1F3B5}")])
        var row: [String] = []
        try store.query("SELECT typeof(a), b, c, d FROM v", "test") { s in
            row = [
                TrainingStore.text(s, 0), String(sqlite3_column_int64(s, 1)), String(sqlite3_column_double(s, 2)),
                TrainingStore.text(s, 3)
            ]
            #expect(TrainingStore.real(s, 2) == 0.1)
        }
        #expect(row == ["null", String(Int64.max), "0.1", "é\u{1F3B5}"])
        try store.query("SELECT a FROM v", "test") { s in #expect(TrainingStore.real(s, 0) == nil) }
    }
}
