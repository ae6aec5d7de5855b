import ArgumentParser
import Glibc
import PixelBoopCore

@dynamicMemberLookup
struct TrainMatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Pitch matching: sing (or play) each reference note back; the error in cents, bias and spread.",
        discussion: """
            Each trial gives a reference note; the stable part of the note sung back (voiced, steady, \
            after the onset's scoop, vibrato averaged out) gives the sung pitch and its error in cents, \
            scored in the nearest octave with the octave named. --interval M3 (m2 ... P8, M3down for \
            below) asks for that interval from the reference instead, in equal temperament or \
            --tuning just. --scl FILE [--kbm FILE] plays the references at their keys' pitches in \
            that Scala tuning (an interval is still asked from the tuned reference). Live, each reference plays on -D and the note is heard on -C \
            (a needle shows the cents while it is held; the note ends after 0.3 s of silence). \
            --input FILE takes the sung notes from a recording (WAV or FLAC) instead: its notes \
            (separated by at least 0.3 s of silence) answer the trials in order, lined up by pitch \
            when one is missing or extra (said on stderr). A note more than --tolerance cents (50) \
            from the target in its nearest octave is a wrong note, named and left out of bias and \
            spread; notes in another octave are counted apart. --json prints \
            {"trial","reference_hz","listening":true} as each trial starts listening (with an interval \
            also "interval", as M3up, and "target_hz"), then \
            {"trial","sung_hz","cents","octave","stable_ms","judgement","sung_note","target_note"} or \
            {"trial","unvoiced":true} ("missing":true too when the recording has no note for it), and at the \
            end {"bias_cents","bias_low","bias_high","spread_cents","wrong_notes",\
            "octave_displacements","tolerance_cents","trials"}. The session's bias \
            (mean error) and spread (SD) carry 68 % intervals: Student's t for the mean, chi-square \
            for the SD.
            """)

    @Option(
        name: .long,
        help: "Sing this interval from the reference: \(SungInterval.names.joined(separator: ", ")); add down for below (M3down)."
    )
    var interval: String?

    @OptionGroup var options: MatchOptions

    /// The shared options read as the command's own (`trials`, `voice`, ...).
    subscript<T>(dynamicMember path: WritableKeyPath<MatchOptions, T>) -> T {
        get { options[keyPath: path] }
        set { options[keyPath: path] = newValue }
    }

    mutating func validate() throws {
        if let interval, SungInterval(interval) == nil {
            throw ValidationError(
                "--interval \(OneLine.escape(interval)): expected one of \(SungInterval.names.joined(separator: ", ")), optionally followed by up or down"
            )
        }
        _ = try fixedReferences()
        _ = try drawRange()
    }

    func fixedReferences() throws -> [Int]? {
        guard let references = self.references else { return nil }
        return try references.split(separator: ",", omittingEmptySubsequences: false).map {
            try TrainingNotes.note(String($0), "--references")
        }
    }

    func drawRange() throws -> ClosedRange<Int> {
        if let voice = self.voice {
            guard let r = VoiceRange.ranges[voice] else {
                throw ValidationError(
                    "--voice \(OneLine.escape(voice)): expected \(VoiceRange.ranges.keys.sorted().joined(separator: ", "))")
            }
            return r
        }
        return try TrainingNotes.range(self.range, fallback: 60...72)
    }

    /// The reference of each trial, MIDI. `span`: the semitones the targets may lie above and
    /// below their references (by default, those of --interval).
    func referenceNotes(count: Int, span: (up: Int, down: Int)? = nil) throws -> [Int] {
        if let fixed = try fixedReferences() { return (0..<count).map { fixed[$0 % fixed.count] } }
        var rng = SeededGenerator(seed: self.seed ?? UInt64.random(in: 0...UInt64.max))
        var r = try drawRange()
        // An interval's target stays in the range too.
        let i = interval.flatMap(SungInterval.init)
        let (up, down) =
            span ?? (i.map { $0.direction > 0 ? $0.semitones : 0 } ?? 0, i.map { $0.direction < 0 ? $0.semitones : 0 } ?? 0)
        if r.count > up + down { r = (r.lowerBound + down)...(r.upperBound - up) }
        return (0..<count).map { _ in Int.random(in: r, using: &rng) }
    }

    func run() throws {
        runReportingErrors {
            // The tuning is read here, not in validate(): a file it cannot read has its own status.
            let pitch = try ReferencePitch(options.tuningOptions, a4: self.reference)
            try checkMeasurable(pitch: pitch, intervals: [interval.flatMap(SungInterval.init)])
            Signals.install()
            // A recording that cannot be read is refused before the history is touched.
            let wav = try self.input.map(Self.readWav)
            let store = try self.history.open(forWriting: true)
            // A voice named once is remembered: the next session without a range of its own
            // draws from it (and stores it again).
            var command = self
            if let v = rememberedVoice(store) {
                command.voice = v
                if !self.json { say("Voice: \(v) (remembered; --voice or --range changes it)") }
            }
            let recorder = MatchRecorder(store: store, settings: command.settingsJSON(pitch.settings), live: wav == nil)
            if let wav {
                try command.runRecording(wav, recorder: recorder, pitch: pitch)
                return
            }
            try command.runLive(recorder, pitch: pitch)
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

    /// The trials: `sing(k, referenceHz, targetHz, announce)` gives the k-th sung pitch (nil: none
    /// heard), calling announce() when it starts listening. `drill` chooses each trial's interval
    /// (instead of --interval) and hears how it went.
    /// A session stopped (`stopped`: a stop signal, or q) keeps the attempts finished before it;
    /// the one under way is not stored.
    func session(
        count: Int, refs given: [Int]? = nil, missing: Set<Int> = [], recorder: MatchRecorder,
        stopped: () -> Bool = { Signals.interrupted }, curves: Bool = false, pitch: ReferencePitch,
        drill: IntervalDrill? = nil, sing: (Int, Double, Double, () -> Void) throws -> SungPitch?
    ) throws {
        let refs = try given ?? referenceNotes(count: count, span: drill?.span)
        var tally = MatchTally(tolerance: self.tolerance, reference: self.reference)
        for (k, midi) in refs.enumerated() where !stopped() {
            let sungInterval = drill?.next() ?? interval.flatMap(SungInterval.init)
            let refHz = pitch.hz(midi)
            let target = targetHz(midi, pitch: pitch, interval: sungInterval)
            let sung = try sing(k, refHz, target) {
                say(
                    self.json
                        ? String(
                            cFormat: "{\"trial\":%d,\"reference_hz\":%.4f%@,\"listening\":true}", k + 1, refHz,
                            sungInterval.map {
                                String(cFormat: ",\"interval\":\"%@\",\"target_hz\":%.4f", SungIntervalDrill.item($0), target)
                            } ?? "")
                        : "trial \(k + 1)/\(count): \(NoteName(midi: midi))"
                            + (sungInterval.map { ", sing the \($0.name) \($0.direction > 0 ? "above" : "below")" } ?? ""))
            }
            if stopped() { break }
            let score = sung.map { MatchScore(sung: $0.frequency, target: target) }
            if let sungInterval, let score { drill?.record(sungInterval, MatchJudgement(score, tolerance: self.tolerance)) }
            try recorder.store(
                MatchAttempt(
                    session: 0, trial: k + 1, time: Timestamp(), referenceHz: refHz, targetHz: target,
                    interval: sungInterval.map(SungIntervalDrill.stored),
                    sungHz: sung?.frequency, cents: score?.cents, octave: score?.octave,
                    stableMilliseconds: sung?.stableMilliseconds))
            guard let sung, let score else {
                if missing.contains(k) {
                    say(
                        self.json
                            ? "{\"trial\":\(k + 1),\"unvoiced\":true,\"missing\":true}" : "  no note in the recording for it")
                } else {
                    say(self.json ? "{\"trial\":\(k + 1),\"unvoiced\":true}" : "  no steady voiced note heard")
                }
                continue
            }
            say(tally.add(trial: k + 1, sung: sung, score: score, target: target, json: self.json))
            if curves, let line = PitchCurve.sparkline(sung.curve, target: target, octave: score.octave) {
                say("  held: " + line)
            }
        }
        try recorder.end(complete: !stopped())
        summarise(tally)
    }

    /// The session's settings as stored with it.
    /// `extra`: what a drill adds (`train sing-interval`'s intervals and direction).
    func settingsJSON(_ extra: [String: Any] = [:]) -> String {
        var settings: [String: Any] = [
            "tuning": self.tuning, "reference": self.reference, "timbre": self.timbre,
            "source": self.input == nil ? "live" : "file"
        ]
        if let references = self.references { settings["references"] = references }
        if let interval { settings["interval"] = interval }
        if let seed = self.seed { settings["seed"] = seed }
        settings["tolerance"] = self.tolerance
        if let voice = self.voice { settings["voice"] = voice }
        if let range = self.range { settings["range"] = range }
        return JSONText.encode(settings.merging(extra) { _, b in b }) ?? ""
    }

    private func summarise(_ tally: MatchTally) {
        func num(_ v: Double) -> String { v.isFinite ? String(cFormat: "%.3f", v) : "null" }
        let s = MatchSummary(errors: tally.errors)
        if self.json {
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
        let line = self.json ? line : TextWrap.wrap(line, indent: line.hasPrefix("  ") ? "    " : "  ")
        if let failure = StandardOutput.send(line + "\n") { StandardOutput.exit(for: failure, also: "") }
    }
}
