import CSQLite
import Foundation
import Testing

@testable import PixelBoopCore

@Suite("TrainingStore schema 2: matching and interval attempts beside the discrimination trials")
struct TrainingStoreSchemaTests {
    /// A history exactly as schema 1 wrote it, with two sessions and three trials.
    static func schema1History(_ name: String, extra: String = "") throws -> String {
        try TrainingStoreTests.foreignDatabase(
            name,
            TrainingStore.schema1 + """
                PRAGMA application_id = \(TrainingStore.applicationID);
                PRAGMA user_version = 1;
                INSERT INTO sessions VALUES (1, '2026-10-01T09:00:00.000Z', NULL, '{}', 2, 12.5, 9, 17);
                INSERT INTO sessions VALUES (2, '2026-10-08T09:00:00.000Z', NULL, '{}', 1, 30, 10, 80);
                INSERT INTO trials VALUES (1, 1, 1, '2026-10-01T09:01:00.000Z', 440, 12, 1, 'lower', 1, 900);
                INSERT INTO trials VALUES (2, 1, 2, '2026-10-01T09:02:00.000Z', 523.25, 8, 2, 'lower', 0, 1200);
                INSERT INTO trials VALUES (3, 2, 1, '2026-10-08T09:01:00.000Z', 261.63, 20, 2, 'higher', 1, 700);
                """ + extra)
    }

    static func userVersion(_ path: String) -> Int32 {
        var db: OpaquePointer?
        sqlite3_open(path, &db)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int(statement, 0) : -1
    }

    @Test("a schema-1 history is read as it is, then migrated with every row kept")
    func migration() throws {
        let path = try Self.schema1History("migrate")
        let reader = try TrainingStore(path: path, readOnly: true)
        #expect(try reader.sessions().map(\.trials) == [2, 1])
        #expect(try reader.matchAttempts().isEmpty && reader.intervalTrials().isEmpty)
        #expect(Self.userVersion(path) == 1)
        let before = try reader.trials()
        let store = try TrainingStore(path: path)
        #expect(Self.userVersion(path) == 3)
        let sessions = try store.sessions()
        #expect(sessions.map(\.id) == [1, 2] && sessions.allSatisfy { $0.exercise == .discrimination })
        #expect(sessions[0].threshold == 12.5 && sessions[1].low == 10)
        #expect(try store.trials() == before)
        // Schema 3 rebuilt the sessions table: identification sessions and trials are stored.
        let id = try store.beginSession(settings: "{}", exercise: .identify)
        var rng = SeededGenerator(seed: 1)
        let plan = EarTrialPlan.identify(
            number: 1, drill: .intervals, item: "M3", roots: 60...60, directions: ["up"], rng: &rng)
        try store.add(EarTrialRecord(session: id, trial: 1, time: Timestamp(), plan: plan, answer: "P4", responseMilliseconds: 5))
        let ear = try store.earTrials()
        #expect(ear.count == 1 && ear[0].item == "M3" && ear[0].answer == "P4" && !ear[0].correct && ear[0].base == 60)
        #expect(try store.sessions().last?.exercise == .identify && store.sessions().last?.trials == 1)
    }

    @Test("a migration that fails leaves the history at schema 1 with its rows, nothing half-made")
    func failedMigration() throws {
        // An index of the name schema 2 creates makes its step fail half-way.
        let path = try Self.schema1History("failed", extra: "CREATE INDEX match_attempts_by_session ON trials(trial);")
        #expect(throws: TrainingStoreError.self) { try TrainingStore(path: path) }
        #expect(Self.userVersion(path) == 1)
        let reader = try TrainingStore(path: path, readOnly: true)
        #expect(try reader.trials().count == 3)
        var db: OpaquePointer?
        sqlite3_open(path, &db)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(
            db, "SELECT count(*) FROM sqlite_master WHERE name IN ('match_attempts', 'interval_trials')", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        #expect(sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_int(statement, 0) == 0)
    }

    @Test("a newer schema is refused, read-only or not, and left as it was")
    func newer() throws {
        let path = try Self.schema1History("newer", extra: "PRAGMA user_version = 4;")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for readOnly in [false, true] {
            do {
                _ = try TrainingStore(path: path, readOnly: readOnly)
                Issue.record("a newer history was opened")
            } catch {
                #expect(error.kind == .newer && error.message.contains("schema 4"))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("an attempt and its session's count are one write: a failure leaves neither")
    func transactional() throws {
        let path = TrainingStoreTests.tempPath("atomic")
        let store = try TrainingStore(path: path)
        let id = try store.beginSession(settings: "{}", exercise: .match)
        let attempt = MatchAttempt(
            session: id, trial: 1, time: Timestamp(timeIntervalSince1970: 1_800_000_000), referenceHz: 440, targetHz: 440,
            interval: nil, sungHz: 442,
            cents: 7.85, octave: 0, stableMilliseconds: 900)
        try store.add(attempt)
        // The count's update fails after the row went in: the row must go too.
        try store.exec(
            "CREATE TRIGGER refuse BEFORE UPDATE ON sessions BEGIN SELECT RAISE(ABORT, 'disk full'); END;", "test")
        var second = attempt
        second.trial = 2
        #expect(throws: TrainingStoreError.self) { try store.add(second) }
        try store.exec("DROP TRIGGER refuse", "test")
        #expect(try store.matchAttempts() == [attempt])
        #expect(try store.sessions().first?.trials == 1)
    }

    @Test("a recording's session is stored whole or not at all")
    func wholeSession() throws {
        let store = try TrainingStore(path: TrainingStoreTests.tempPath("whole"))
        let attempts = (1...4).map { k in
            MatchAttempt(
                session: 0, trial: k, time: Timestamp(timeIntervalSince1970: 1_800_000_000 + Double(k)), referenceHz: 440,
                targetHz: 440, interval: nil, sungHz: 441, cents: 3.93, octave: 0, stableMilliseconds: 700)
        }
        try store.exec(
            """
            CREATE TRIGGER refuse BEFORE INSERT ON match_attempts WHEN NEW.trial = 3
            BEGIN SELECT RAISE(ABORT, 'disk full'); END;
            """, "test")
        #expect(throws: TrainingStoreError.self) {
            try store.addMatchSession(settings: "{}", attempts: attempts, started: Timestamp())
        }
        #expect(try store.sessions().isEmpty && store.matchAttempts().isEmpty)
        try store.exec("DROP TRIGGER refuse", "test")
        let id = try store.addMatchSession(settings: "{}", attempts: attempts, started: Timestamp())
        #expect(try store.sessions().map(\.trials) == [4] && store.matchAttempts().allSatisfy { $0.session == id })
        #expect(try store.matchAttempts().map(\.trial) == [1, 2, 3, 4])
    }

    @Test("matching attempts (voiced or not) and interval trials come back as stored")
    func roundTrip() throws {
        let path = TrainingStoreTests.tempPath("roundtrip")
        let store = try TrainingStore(path: path)
        let m = try store.beginSession(settings: "{}", exercise: .match)
        let sung = MatchAttempt(
            session: m, trial: 1, time: Timestamp(timeIntervalSince1970: 1_800_000_000), referenceHz: 261.63,
            targetHz: 329.63, interval: "M3", sungHz: 165.2, cents: 3.5, octave: -1, stableMilliseconds: 640)
        let silent = MatchAttempt(
            session: m, trial: 2, time: Timestamp(timeIntervalSince1970: 1_800_000_010), referenceHz: 440, targetHz: 440,
            interval: nil, sungHz: nil, cents: nil, octave: nil, stableMilliseconds: nil)
        try store.add(sung)
        try store.add(silent)
        #expect(try store.matchAttempts() == [sung, silent])
        #expect(sung.register == 4 && silent.register == 4)
        let i = try store.beginSession(settings: "{}", exercise: .interval)
        var run = IntervalRun(semitones: 7, notes: 60...72, seed: 3)
        let plan = run.nextTrial()
        let record = IntervalTrialRecord(
            session: i, trial: 1, time: Timestamp(timeIntervalSince1970: 1_800_000_020), interval: "P5", plan: plan,
            secondWider: true, responseMilliseconds: 800)
        try store.add(record)
        #expect(try store.intervalTrials() == [record])
        #expect(try store.sessions().map(\.exercise) == [.match, .interval])
    }

    @Test("the profile: a register's threshold is the posterior of its answers; sessions without trials left out")
    func profile() throws {
        var run = TrainingRun(
            settings: {
                var s = TrainingSettings()
                (s.lowNote, s.highNote, s.seed) = (60, 71, 5)
                return s
            }())
        var trials: [TrainingTrial] = []
        for k in 1...30 {
            let plan = run.nextTrial()
            let secondHigher = plan.cents > 8 ? plan.higherInterval == 2 : k % 2 == 0
            let correct = run.answer(secondHigher: secondHigher)
            trials.append(
                TrainingTrial(
                    session: 1, trial: k, time: Timestamp(), referenceHz: plan.referenceHz, differenceCents: plan.cents,
                    higherInterval: plan.higherInterval, answer: secondHigher ? "higher" : "lower", correct: correct,
                    responseMilliseconds: 500))
        }
        let e = run.estimate!
        let sessions = [
            TrainingSession(
                id: 1, started: Timestamp(), settings: "{}", trials: 30, threshold: e.threshold, low: e.low, high: e.high),
            TrainingSession(id: 2, started: Timestamp(), settings: "{}", trials: 0)
        ]
        let p = TrainingProfile(sessions: sessions, trials: trials, attempts: [], intervals: [])
        #expect(p.discrimination.map(\.session.id) == [1])
        #expect(p.thresholdByRegister.count == 1 && p.thresholdByRegister[0].register == 4)
        let band = p.thresholdByRegister[0].estimate
        #expect(abs(band.threshold - e.threshold) < 1e-9 && abs(band.low - e.low) < 1e-9 && band.trials == 30)
    }

    @Test("the profile's interval thresholds: one per interval and register of the first lower note, narrow first")
    func intervalProfile() {
        var records: [IntervalTrialRecord] = []
        for (session, name, semitones, notes) in [(Int64(1), "P5up", 7, 60...71), (2, "M3", 4, 72...83), (3, "P5", 7, 72...83)] {
            var run = IntervalRun(semitones: semitones, notes: notes, seed: UInt64(session))
            for k in 1...10 {
                let plan = run.nextTrial()
                let wider = k % 3 != 0
                run.answer(secondWider: wider)
                records.append(
                    IntervalTrialRecord(
                        session: session, trial: k, time: Timestamp(), interval: name, plan: plan, secondWider: wider,
                        responseMilliseconds: 400))
            }
        }
        let bands = TrainingProfile.intervalBands(records)
        #expect(bands.map { "\($0.interval)@\($0.register)" } == ["M3@5", "P5@4", "P5@5"])
        // A band holding one session's answers has that session's posterior.
        let one = ThresholdEstimate(answers: records.prefix(10).map { ($0.differenceCents, $0.correct) })!
        #expect(bands[1].estimate == one && bands[1].estimate.trials == 10)
    }

    @Test("stats --csv: one header, every exercise's rows in session order, RFC 4180 quoting")
    func csv() {
        let t0 = Timestamp(timeIntervalSince1970: 1_800_000_000)
        let trial = TrainingTrial(
            session: 2, trial: 1, time: t0, referenceHz: 440, differenceCents: 12.5, higherInterval: 2, answer: "lower",
            correct: false, responseMilliseconds: 900)
        let attempt = MatchAttempt(
            session: 1, trial: 1, time: t0, referenceHz: 261.63, targetHz: 329.63, interval: "M3", sungHz: nil, cents: nil,
            octave: nil, stableMilliseconds: nil)
        var run = IntervalRun(semitones: 7, notes: 60...72, seed: 3)
        let interval = IntervalTrialRecord(
            session: 3, trial: 1, time: t0, interval: "P5, \"x\"\nname", plan: run.nextTrial(), secondWider: true,
            responseMilliseconds: 800)
        var rng = SeededGenerator(seed: 1)
        let plan = EarTrialPlan.identify(number: 1, drill: .chords, item: "dim", roots: 62...62, directions: [], rng: &rng)
        let ear = EarTrialRecord(session: 4, trial: 1, time: t0, plan: plan, answer: "min", responseMilliseconds: 700)
        let text = TrainingCSV.table(trials: [trial], attempts: [attempt], intervals: [interval], ear: [ear])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == TrainingCSV.columns.joined(separator: ",")[...])
        #expect(lines[1] == "match,1,1,2027-01-15T08:00:00.000Z,4,M3,261.630000,,,,,,,,,,,329.630000,,,,,,,")
        #expect(lines[2] == "discrimination,2,1,2027-01-15T08:00:00.000Z,4,,440.000000,12.500000,2,,,,,,lower,0,900,,,,,,,,")
        #expect(lines[3].hasPrefix("interval,3,1,2027-01-15T08:00:00.000Z,4,\"P5, \"\"x\"\""))
        #expect(lines[4].hasPrefix("name\",,") && text.hasSuffix("\n"))
        #expect(lines[5] == "identify,4,1,2027-01-15T08:00:00.000Z,4,,,,,,,,,,min,0,700,,,,,,chords,dim,root")
        #expect(TrainingCSV.field("plain") == "plain" && TrainingCSV.field("a\r\nb") == "\"a\r\nb\"")
    }

    @Test("--timbre: a reference in another engine timbre is not the pure sine, at the same pitch")
    func timbre() async throws {
        func render(_ timbre: Timbre) async throws -> [Float] {
            var renderer = ToneRenderer(sequence: try ToneSequence(frequencies: [220], duration: 1.0, sampleRate: 16000))
            renderer.timbre = timbre
            return try renderer.renderSamples()
        }
        let sine = try await render(.tone)
        let melody = try await render(.melody)
        #expect(sine.count == melody.count && sine != melody)
        #expect(Timbre.names == ["melody", "chords", "bass", "tone"] && Timbre(name: "bass") == .bass && Timbre(name: "x") == nil)
        // Whatever the timbre, the reference is at its pitch (a singer matches it).
        for timbre in Timbre.allCases {
            let samples = try await render(timbre)
            let sung = SungNotes.stablePitch(samples, tracker: try PitchTracker(sampleRate: 16000))
            let cents = sung.map { 1200 * log2($0.frequency / 220) }
            #expect(cents.map { abs($0) < 1 } == true, "\(timbre.name): \(String(describing: cents))")
        }
    }
}
