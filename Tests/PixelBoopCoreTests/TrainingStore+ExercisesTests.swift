import CSQLite
import Foundation
import Testing

@testable import PixelBoopCore

/// Pitch-matching attempts and interval-discrimination trials in the history: each one with its
/// session's count in one transaction, read back in session and trial order; a recording's
/// session stored whole.
@Suite("TrainingStore+Exercises: matching attempts and interval trials")
struct TrainingStoreExercisesTests {
    static func store(_ prefix: String) throws -> TrainingStore {
        try TrainingStore(path: try scratchFolder(prefix) + "/training.sqlite")
    }

    static func attempt(_ session: Int64, _ k: Int, sung: Double? = 442) -> MatchAttempt {
        MatchAttempt(
            session: session, trial: k, time: Timestamp(timeIntervalSince1970: 1_800_000_000 + Double(k)), referenceHz: 440,
            targetHz: 659.25, interval: "P5", sungHz: sung, cents: sung.map { _ in -3.5 }, octave: sung.map { _ in 0 },
            stableMilliseconds: sung.map { _ in 450 + k })
    }

    static func interval(_ session: Int64, _ k: Int, widerInterval: Int = 2, secondWider: Bool) -> IntervalTrialRecord {
        let plan = IntervalTrialPlan(
            number: k, first: (261.63, 392.0), second: (293.66, 440.0 * pow(2, 0.125 / 12)), cents: 12.5,
            widerInterval: widerInterval)
        return IntervalTrialRecord(
            session: session, trial: k, time: Timestamp(timeIntervalSince1970: 1_800_000_100 + Double(k)), interval: "P5",
            plan: plan, secondWider: secondWider, responseMilliseconds: 1000 + k)
    }

    @Test("attempts from several sessions come back by session then trial, each counted in its session")
    func attemptsOrdered() throws {
        let store = try Self.store("exercises-attempts")
        let a = try store.beginSession(settings: "{}", exercise: .match)
        let b = try store.beginSession(settings: "{}", exercise: .match)
        let written = [Self.attempt(b, 1), Self.attempt(a, 2, sung: nil), Self.attempt(a, 1)]
        for x in written { try store.add(x) }
        #expect(try store.matchAttempts() == [written[2], written[1], written[0]])
        #expect(try store.sessions().map(\.trials) == [2, 1])
    }

    @Test("the register is read as stored, not worked out again from the target")
    func registerAsStored() throws {
        let store = try Self.store("exercises-register")
        let id = try store.beginSession(settings: "{}", exercise: .match)
        var x = Self.attempt(id, 1)
        #expect(x.register == 5)   // 659.25 Hz is E5
        x.register = 2
        try store.add(x)
        #expect(try store.matchAttempts().map(\.register) == [2])
    }

    @Test("an interval trial answered narrower comes back with its answer and whether it was right")
    func intervalAnswers() throws {
        let store = try Self.store("exercises-interval")
        let id = try store.beginSession(settings: "{}", exercise: .interval)
        let right = Self.interval(id, 1, widerInterval: 1, secondWider: false)
        let wrong = Self.interval(id, 2, widerInterval: 1, secondWider: true)
        #expect(right.answer == "narrower" && right.correct && wrong.answer == "wider" && !wrong.correct)
        try store.add(wrong)
        try store.add(right)
        let back = try store.intervalTrials()
        #expect(back == [right, wrong])
        #expect(back[0].second[1] == 440.0 * pow(2, 0.125 / 12))   // a real kept to the bit
        var correct: [Int32] = []
        try store.query("SELECT correct FROM interval_trials ORDER BY trial", "test") {
            correct.append(sqlite3_column_int($0, 0))
        }
        #expect(correct == [1, 0])
    }

    @Test("what the schema refuses is not stored and leaves the count alone")
    func refused() throws {
        let store = try Self.store("exercises-refused")
        let id = try store.beginSession(settings: "{}", exercise: .interval)
        try store.add(Self.interval(id, 1, secondWider: true))
        // The wider interval is the first or the second.
        #expect(throws: TrainingStoreError.self) { try store.add(Self.interval(id, 2, widerInterval: 3, secondWider: true)) }
        // An attempt of a session that does not exist.
        #expect(throws: TrainingStoreError.self) { try store.add(Self.attempt(id + 5, 1)) }
        #expect(try store.intervalTrials().map(\.trial) == [1])
        #expect(try store.matchAttempts().isEmpty)
        #expect(try store.sessions().map(\.trials) == [1])
    }

    @Test("a recording's session: a matching session with its times, every attempt under its new id")
    func wholeSession() throws {
        let store = try Self.store("exercises-whole")
        let earlier = try store.beginSession(settings: "{}", exercise: .discrimination)
        let started = Timestamp(timeIntervalSince1970: 1_800_000_000)
        let ended = Timestamp(timeIntervalSince1970: 1_800_000_095.5)
        let attempts = [Self.attempt(99, 1), Self.attempt(99, 2, sung: nil), Self.attempt(99, 3)]
        let id = try store.addMatchSession(settings: #"{"file":"take.wav"}"#, attempts: attempts, started: started, ended: ended)
        #expect(id != earlier)
        let session = try #require(try store.sessions().last)
        #expect(session.id == id && session.exercise == .match && session.trials == 3)
        #expect(session.started == started && session.ended == ended && session.settings == #"{"file":"take.wav"}"#)
        let back = try store.matchAttempts()
        #expect(back.map(\.session) == [id, id, id])
        #expect(
            back
                == attempts.map { a in
                    var a = a
                    a.session = id
                    return a
                })
        // An empty recording is still a session, with no attempts.
        let empty = try store.addMatchSession(settings: "{}", attempts: [], started: started, ended: ended)
        #expect(try store.sessions().last?.id == empty && store.sessions().last?.trials == 0)
    }

    @Test("a history of schema 1, read as it is, has neither")
    func schema1() throws {
        let path = try TrainingStoreSchemaTests.schema1History("exercises-schema1-\(getpid())-\(UUID())")
        let reader = try TrainingStore(path: path, readOnly: true)
        #expect(try reader.matchAttempts().isEmpty && reader.intervalTrials().isEmpty)
    }
}
