import ArgumentParser
import Glibc
import PixelBoopCore

struct TrainMatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Pitch matching: sing (or play) each reference note back; the error in cents, bias and spread.",
        discussion: """
            Each trial gives a reference note; the stable part of the note sung back (voiced, steady, \
            after the onset's scoop, vibrato averaged out) gives the sung pitch and its error in cents, \
            scored in the nearest octave with the octave named. --interval M3 (m2 ... P8, M3down for \
            below) asks for that interval from the reference instead, in equal temperament or \
            --tuning just. Live, each reference plays on -D and the note is heard on -C \
            (a needle shows the cents while it is held; the note ends after 0.3 s of silence). \
            --input FILE takes the sung notes from a recording (WAV or FLAC) instead: its notes \
            (separated by at least 0.3 s of silence) answer the trials in order, lined up by pitch \
            when one is missing or extra (said on stderr). A note more than --tolerance cents (50) \
            from the target in its nearest octave is a wrong note, named and left out of bias and \
            spread; notes in another octave are counted apart. --json prints \
            {"trial","reference_hz","listening":true} as each trial starts listening, then \
            {"trial","sung_hz","cents","octave","stable_ms","judgement","sung_note","target_note"} or \
            {"trial","unvoiced":true} ("missing":true too when the recording has no note for it), and at the \
            end {"bias_cents","bias_low","bias_high","spread_cents","wrong_notes",\
            "octave_displacements","tolerance_cents","trials"}. The session's bias \
            (mean error) and spread (SD) carry 68 % intervals: Student's t for the mean, chi-square \
            for the SD.
            """)

    @Option(name: .long, help: "Trials (1...500; default: one per --references note, one per note of --input, else 10).")
    var trials: Int?

    @Option(name: .long, help: "The reference notes in order, e.g. C4,E4,A3 (otherwise drawn at random from the range).")
    var references: String?

    @Option(
        name: .long, help: "Draw references from this voice's range: \(VoiceRange.ranges.keys.sorted().joined(separator: ", ")).")
    var voice: String?

    @Option(name: .long, help: "Draw references from LOW..HIGH, e.g. A2..E4 (default C4..C5).")
    var range: String?

    @Option(
        name: .long,
        help: "Sing this interval from the reference: \(SungInterval.names.joined(separator: ", ")); add down for below (M3down)."
    )
    var interval: String?

    @Option(name: .long, help: "Score intervals in equal temperament (equal) or just intonation (just).")
    var tuning: String = "equal"

    @Option(name: .long, help: "A recording of the sung notes (WAV or FLAC), instead of a capture device.")
    var input: String?

    @Option(name: .long, help: "Seed for the references drawn at random.")
    var seed: UInt64?

    @Option(
        name: .long,
        help:
            "Cents from the target (in its nearest octave) beyond which a note is a wrong note, left out of bias and spread (1...600)."
    )
    var tolerance: Double = MatchJudgement.defaultTolerance

    @Option(name: .long, help: "A4 in Hz (400...480).")
    var reference: Double = 440

    @Flag(name: .long, help: "Machine mode: one JSON object per line on stdout.")
    var json = false

    @Option(
        name: [.customShort("C"), .customLong("capture-device")],
        help: "ALSA PCM to hear the singer on (separate from -D, where the references play).")
    var captureDevice: String = "default"

    @Flag(name: .long, help: "Hold the reference softly (20 dB down) while listening.")
    var drone = false

    @Option(name: .long, help: "Seconds to wait for each note before calling it unvoiced (0.5...60).")
    var listenSeconds: Double = 8

    @Option(
        name: .long,
        help: "Play the references with this engine timbre instead of a pure sine: \(Timbre.names.joined(separator: ", ")).")
    var timbre: String = Timbre.tone.name

    @OptionGroup var history: HistoryOption

    @OptionGroup var deviceOptions: DeviceOptions

    mutating func validate() throws {
        if let trials, !(1...500).contains(trials) { throw ValidationError("--trials \(trials): expected 1...500") }
        if !(400...480).contains(reference) { throw ValidationError("--reference \(reference): expected 400...480 Hz") }
        if !(1...600).contains(tolerance) { throw ValidationError("--tolerance \(tolerance): expected 1...600 cents") }
        if [references != nil, voice != nil, range != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--references, --voice and --range: expected at most one of them")
        }
        if SungInterval.Tuning(rawValue: tuning) == nil {
            throw ValidationError("--tuning \(OneLine.escape(tuning)): expected equal or just")
        }
        if let interval, SungInterval(interval) == nil {
            throw ValidationError(
                "--interval \(OneLine.escape(interval)): expected one of \(SungInterval.names.joined(separator: ", ")), optionally followed by up or down"
            )
        }
        if Timbre(name: timbre) == nil {
            throw ValidationError(
                "--timbre \(OneLine.escape(timbre)): expected one of \(Timbre.names.joined(separator: ", "))")
        }
        if !(0.5...60).contains(listenSeconds) {
            throw ValidationError("--listen-seconds \(listenSeconds): expected 0.5...60")
        }
        _ = try fixedReferences()
        _ = try drawRange()
        try checkMeasurable()
    }

    func fixedReferences() throws -> [Int]? {
        guard let references else { return nil }
        return try references.split(separator: ",", omittingEmptySubsequences: false).map {
            try TrainingNotes.note(String($0), "--references")
        }
    }

    func drawRange() throws -> ClosedRange<Int> {
        if let voice {
            guard let r = VoiceRange.ranges[voice] else {
                throw ValidationError(
                    "--voice \(OneLine.escape(voice)): expected \(VoiceRange.ranges.keys.sorted().joined(separator: ", "))")
            }
            return r
        }
        return try TrainingNotes.range(range, fallback: 60...72)
    }

    /// The reference of each trial, MIDI.
    func referenceNotes(count: Int) throws -> [Int] {
        if let fixed = try fixedReferences() { return (0..<count).map { fixed[$0 % fixed.count] } }
        var rng = SeededGenerator(seed: seed ?? UInt64.random(in: 0...UInt64.max))
        var r = try drawRange()
        // An interval's target stays in the range too.
        if let i = interval.flatMap(SungInterval.init), r.count > i.semitones {
            r = i.direction > 0 ? r.lowerBound...(r.upperBound - i.semitones) : (r.lowerBound + i.semitones)...r.upperBound
        }
        return (0..<count).map { _ in Int.random(in: r, using: &rng) }
    }

    func run() throws {
        runReportingErrors {
            Signals.install()
            // A recording that cannot be read is refused before the history is touched.
            let wav = try input.map(Self.readWav)
            let store = try history.open(forWriting: true)
            // A voice named once is remembered: the next session without a range of its own
            // draws from it (and stores it again).
            var command = self
            if let v = rememberedVoice(store) {
                command.voice = v
                if !json { say("Voice: \(v) (remembered; --voice or --range changes it)") }
            }
            let recorder = MatchRecorder(store: store, settings: command.settingsJSON(), live: wav == nil)
            if let wav {
                try command.runRecording(wav, recorder: recorder)
                return
            }
            try command.runLive(recorder)
        }
    }

    static func readWav(_ path: String) throws -> RecordingFile {
        let wav: RecordingFile
        do {
            wav = try RecordingFile.read(path: path)
        } catch {
            throw BoopExit(error.kind == .content ? .dataError : .noInput, error.message)
        }
        // The header's rate is the file's content: one the tracker cannot take is bad content (65).
        guard wav.sampleRate.isFinite, Limits.sampleRate.contains(Int(exactly: wav.sampleRate) ?? 0) else {
            throw BoopExit(
                .dataError,
                "\(path): sample rate \(Int64(exactly: wav.sampleRate).map(String.init) ?? "\(wav.sampleRate)") Hz in its header: expected \(Limits.text(Limits.sampleRate)) Hz"
            )
        }
        return wav
    }

    /// The trials: `sing(k, referenceHz, announce)` gives the k-th sung pitch (nil: none heard),
    /// calling announce() when it starts listening.
    /// A session stopped (`stopped`: a stop signal, or q) keeps the attempts finished before it;
    /// the one under way is not stored.
    func session(
        count: Int, refs given: [Int]? = nil, missing: Set<Int> = [], recorder: MatchRecorder,
        stopped: () -> Bool = { Signals.interrupted }, curves: Bool = false,
        sing: (Int, Double, () -> Void) throws -> SungPitch?
    ) throws {
        let refs = try given ?? referenceNotes(count: count)
        let sungInterval = interval.flatMap(SungInterval.init)
        var tally = MatchTally(tolerance: self.tolerance, reference: reference)
        for (k, midi) in refs.enumerated() where !stopped() {
            let refHz = reference * pow(2, Double(midi - 69) / 12)
            let target = targetHz(midi)
            let sung = try sing(k, refHz) {
                say(
                    json
                        ? String(cFormat: "{\"trial\":%d,\"reference_hz\":%.4f,\"listening\":true}", k + 1, refHz)
                        : "trial \(k + 1)/\(count): \(NoteName(midi: midi))"
                            + (sungInterval.map { ", sing the \($0.name) \($0.direction > 0 ? "above" : "below")" } ?? ""))
            }
            if stopped() { break }
            let score = sung.map { MatchScore(sung: $0.frequency, target: target) }
            try recorder.store(
                MatchAttempt(
                    session: 0, trial: k + 1, time: Timestamp(), referenceHz: refHz, targetHz: target,
                    interval: sungInterval.map { $0.name + ($0.direction < 0 ? "down" : "") },
                    sungHz: sung?.frequency, cents: score?.cents, octave: score?.octave,
                    stableMilliseconds: sung?.stableMilliseconds))
            guard let sung, let score else {
                if missing.contains(k) {
                    say(json ? "{\"trial\":\(k + 1),\"unvoiced\":true,\"missing\":true}" : "  no note in the recording for it")
                } else {
                    say(json ? "{\"trial\":\(k + 1),\"unvoiced\":true}" : "  no steady voiced note heard")
                }
                continue
            }
            say(tally.add(trial: k + 1, sung: sung, score: score, target: target, json: json))
            if curves, let line = PitchCurve.sparkline(sung.curve, target: target, octave: score.octave) {
                say("  held: " + line)
            }
        }
        try recorder.end(complete: !stopped())
        summarise(tally)
    }

    /// The session's settings as stored with it.
    private func settingsJSON() -> String {
        var settings: [String: Any] = [
            "tuning": tuning, "reference": reference, "timbre": timbre, "source": input == nil ? "live" : "file"
        ]
        if let references { settings["references"] = references }
        if let interval { settings["interval"] = interval }
        if let seed { settings["seed"] = seed }
        settings["tolerance"] = tolerance
        if let voice { settings["voice"] = voice }
        if let range { settings["range"] = range }
        return JSONText.encode(settings) ?? ""
    }

    private func summarise(_ tally: MatchTally) {
        func num(_ v: Double) -> String { v.isFinite ? String(cFormat: "%.3f", v) : "null" }
        let s = MatchSummary(errors: tally.errors)
        if json {
            // The added fields come before "trials", which ends the line as it always did.
            let fields =
                s.map {
                    "{\"bias_cents\":\(num($0.bias)),\"bias_low\":\(num($0.biasLow)),\"bias_high\":\(num($0.biasHigh)),"
                        + "\"spread_cents\":\($0.trials >= 2 ? num($0.spread) : "null")"
                } ?? "{\"bias_cents\":null,\"bias_low\":null,\"bias_high\":null,\"spread_cents\":null"
            say(fields + tally.jsonFields + ",\"trials\":\(s?.trials ?? 0)}")
            return
        }
        guard let s else {
            say(tally.wrong.isEmpty ? "No note heard: nothing to estimate." : "No note within the tolerance: no bias or spread.")
            tally.textLines.forEach(say)
            return
        }
        let trialsText = TrainStatsCommand.count(s.trials, "note")
        if s.trials < 2 {
            say(
                String(
                    cFormat: "Bias %+.1f cents after %@ (uncertain: one note gives no interval).", s.bias, trialsText))
        } else {
            say(
                String(
                    cFormat: "Bias %+.1f cents (68 %%: %+.1f ... %+.1f), spread %.1f cents (68 %%: %.1f ... %.1f) after %@%@.",
                    s.bias, s.biasLow, s.biasHigh, s.spread, s.spreadLow, s.spreadHigh, trialsText,
                    s.trials < 8 ? " (uncertain: few notes)" : ""))
        }
        tally.textLines.forEach(say)
    }

    func say(_ line: String) {
        let line = json ? line : TextWrap.wrap(line, indent: line.hasPrefix("  ") ? "    " : "  ")
        if let failure = StandardOutput.send(line + "\n") { StandardOutput.exit(for: failure, also: "") }
    }
}
