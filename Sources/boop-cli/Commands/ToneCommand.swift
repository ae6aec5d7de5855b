import ArgumentParser
import Glibc
import PixelBoopCore

struct ToneCommand: ParsableCommand, DeviceCommand {
    static let configuration = CommandConfiguration(
        commandName: "tone",
        abstract: "Play precisely tuned sine tones in sequence (ear training), or render them with -o.",
        discussion: """
            NOTE is a name (A4, C#5, Bb2), a name with cents (A4+12.5c, C4-3c) or a frequency \
            (440Hz, 440.5hz); every tone must lie within \(Limits.text(Limits.toneHz)) Hz. Names use scientific pitch \
            (C4 = middle C) and sound at --reference x 2^((midi - 69)/12) x 2^(cents/1200); \
            --cents detunes every tone, frequencies included. Each tone sounds for --duration seconds \
            (8 ms raised-cosine attack and release inside it); tone k starts k x (duration + gap) \
            seconds after the first. -o writes the file instead of playing (same arguments, same \
            bytes). Ctrl-C fades out and exits 0. With --scl (and --kbm) a name picks the MIDI key \
            it spells (C4 = key 60, C#4 = 61) and sounds at the Scala tuning's frequency for that key, \
            its cents added.
            """)

    @Argument(help: "One or more notes: A4, C#5, Bb2, A4+12.5c, C4-3c, 440Hz.")
    var notes: [String]

    @Option(name: .long, help: "Seconds each tone sounds (\(Limits.text(Limits.toneSeconds))).")
    var duration: Double = 1

    // Negative values are meant here (an overlap, a detune down), so the next word is the value
    // whatever it starts with, as for --gain: `--gap -0.1`, `--cents -20`.
    @Option(
        name: .long, parsing: .unconditional,
        help: "Seconds of silence between tones (onset-to-onset = duration + gap; negative overlaps, e.g. --gap -0.1).")
    var gap: Double = 0.25

    @Option(
        name: .long, parsing: .unconditional,
        help: "Cents added to every tone, \(Limits.text(Limits.cents)) (e.g. --cents 3 or --cents -3).")
    var cents: Double = 0

    @Option(name: .long, help: "Frequency of A4 in Hz (\(Limits.text(Limits.referenceHz))).")
    var reference: Double = 440

    @Option(name: [.short, .customLong("output")], help: "Render to this file (.wav, .flac, .ogg) instead of playing.")
    var output: String?

    @OptionGroup var tuningOptions: TuningOptions

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var gainOption: GainOption

    /// ArgumentParser takes time quadratic in the number of positional values (16,000 notes: 10 s).
    /// For a long note list, the notes are taken out of the arguments here in one linear pass,
    /// one is left for the parser (so its checks and messages are unchanged) and the full list
    /// is put back after parsing.
    static var liftedNotes: [String]? { liftedNotesStore.withLock { $0 } }
    /// Set once, by `liftNotes` before parsing, and read after it (a lock because it is global).
    private static let liftedNotesStore = LockedBox<[String]?>(nil)
    /// For the tests, which parse many times in one process.
    static func forgetLiftedNotes() { liftedNotesStore.withLock { $0 = nil } }

    /// Every spelling of every option that takes a value (`--gain`, `-o`, `--backend` ...), read
    /// from ArgumentParser's own description of the command, so the pass above cannot drift from
    /// the options: a hand-kept list once missed `--gain`, and from 64 notes on `--gain 3 -q`
    /// took `3` for a note and gave `-q` to `--gain`.
    static let valueOptions: Set<String> = {
        guard let root = try? JSONReader.parse(Array(_dumpHelp().utf8)) as? [String: Any],
            let command = root["command"] as? [String: Any],
            let arguments = command["arguments"] as? [[String: Any]]
        else { return [] }
        var names: Set<String> = []
        for argument in arguments where argument["kind"] as? String == "option" {
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String else { continue }
                names.insert((name["kind"] as? String == "long" ? "--" : "-") + text)
            }
        }
        return names
    }()

    static func liftNotes(from args: [String]) -> [String] {
        guard args.first == "tone", args.count > 65 else { return args }
        var kept = ["tone"]
        var notes: [String] = []
        var i = 1
        var afterDashes = false
        while i < args.count {
            let a = args[i]
            if afterDashes || !a.hasPrefix("-") {
                notes.append(a)
            } else if a == "--" {
                afterDashes = true
            } else {
                kept.append(a)
                if valueOptions.contains(a), i + 1 < args.count {
                    kept.append(args[i + 1])
                    i += 1
                }
            }
            i += 1
        }
        guard notes.count > 64 else { return args }
        liftedNotesStore.withLock { $0 = notes }
        return kept + ["--", notes[0]]
    }

    /// What the arguments ask for, checked. Every problem is a BoopExit(.usage) with one line that
    /// says what is accepted.
    struct Plan {
        var specs: [NoteSpec]
        var sequence: ToneSequence
    }

    func makePlan() throws -> Plan {
        if let rate, !DeviceOptions.rateRange.contains(rate) {
            throw BoopExit(.usage, rateProblem(rate))
        }
        guard !notes.isEmpty else { throw BoopExit(.usage, "tone: expected at least one NOTE (\(NoteSpec.accepted))") }
        guard reference.isFinite, Limits.referenceHz.contains(reference) else {
            throw BoopExit(
                .usage, "--reference \(reference): expected the frequency of A4 within \(Limits.text(Limits.referenceHz)) Hz")
        }
        guard cents.isFinite, Limits.cents.contains(cents) else {
            throw BoopExit(.usage, "--cents \(cents): expected \(Limits.text(Limits.cents))")
        }
        guard duration.isFinite, ToneSequence.durationRange.contains(duration) else {
            throw BoopExit(.usage, "--duration \(duration): expected \(Limits.text(ToneSequence.durationRange)) seconds")
        }
        guard gap.isFinite, gap <= ToneSequence.gapRange.upperBound, duration + gap > 0 else {
            throw BoopExit(
                .usage,
                "--gap \(gap): expected more than -duration (\(-duration)) and at most \(Limits.text(ToneSequence.gapRange.upperBound)) seconds"
            )
        }
        let tuning = try tuningOptions.load()
        if tuning != nil, reference != 440 {
            throw BoopExit(
                .usage,
                "--reference \(reference): a --scl tuning sets its own reference (the --kbm mapping's); expected one of the two")
        }
        let sampleRate = Double(rate ?? 44100)
        var specs: [NoteSpec] = []
        var frequencies: [Double] = []
        for text in notes {
            do {
                let spec = try NoteSpec.parse(text)
                let hz =
                    try tuning.map { tuning throws(AudioError) in try spec.frequency(tuning: tuning, extraCents: cents) }
                    ?? spec.frequency(reference: reference, extraCents: cents)
                guard hz < sampleRate / 2 else {
                    throw BoopExit(
                        .usage,
                        "note \"\(text)\": \(Pitch.formatHz(hz)) Hz is not below half the sample rate (\(Pitch.formatHz(sampleRate / 2)) Hz); raise -r"
                    )
                }
                specs.append(spec)
                frequencies.append(hz)
            } catch let e as NoteParseError {
                throw BoopExit(.usage, e.description)
            } catch let e as AudioError {
                throw BoopExit(.usage, "note \"\(text)\": \(e.context)")
            }
        }
        do {
            return Plan(
                specs: specs,
                sequence: try ToneSequence(
                    frequencies: frequencies, duration: duration, gap: gap, sampleRate: sampleRate))
        } catch {
            throw BoopExit(.usage, error.context)
        }
    }

    func run() throws {
        runReportingErrors {
            let plan = try makePlan()
            if let output {
                try render(plan, to: output)
            } else {
                try playLive(plan)
            }
        }
    }

    private func describe(_ plan: Plan, _ k: Int) -> String {
        let hz = plan.sequence.frequencies[k]
        let onset = Double(plan.sequence.onsetFrame(k)) / plan.sequence.sampleRate
        var name = plan.specs[k].description
        if case .frequency = plan.specs[k] {
            if let nearest = try? Pitch.nearestNote(to: hz, reference: reference) {
                name += String(cFormat: " (%@ %+.3f c)", nearest.note.description, nearest.cents)
            }
        }
        return String(cFormat: "%8.3f s  %@  %.6f Hz", onset, name, hz)
    }

    /// -v lines name the device: shown escaped.
    private func log(_ line: String) {
        StandardError.write(shown(line) + "\n")
    }

    private func render(_ plan: Plan, to output: String) throws {
        // Like `boop render`: an interrupted render exits 130 and leaves no file.
        var renderer = ToneRenderer(sequence: plan.sequence)
        renderer.gainDB = gainOption.gain
        if verbose { log(gainOption.description) }
        let format = SampleFormat.natural(forPath: output)
        if verbose { for k in 0..<plan.sequence.count { log(describe(plan, k)) } }
        try renderToFile(
            title: "tones", output: output, sampleRate: plan.sequence.sampleRate, quiet: true,
            verbose: verbose, detail: "\(plan.sequence.count) tone(s), \(format == .f32 ? "float32" : "16-bit") mono"
        ) { _, shouldStop in
            try renderer.render(to: output, format: format, shouldStop: shouldStop)
        }
    }

    private func playLive(_ plan: Plan) throws {
        // Ctrl-C or SIGTERM: fade out and exit 0; a second one exits 130 at once.
        Signals.install()
        let player = try SineWaveNotePlayer.live(
            route: deviceOptions.route, sampleRate: plan.sequence.sampleRate,
            outputGainDB: gainOption.gain)
        if verbose { log(gainOption.description) }
        defer { player.close(drain: true) }
        var plan = plan
        if player.sampleRate != plan.sequence.sampleRate {
            // ALSA granted another rate: the same tones, scheduled on the device's clock.
            do {
                plan.sequence = try ToneSequence(
                    frequencies: plan.sequence.frequencies, duration: duration, gap: gap,
                    sampleRate: player.sampleRate)
            } catch {
                throw BoopExit(.usage, "\(error.context) (the device runs at \(Int(player.sampleRate)) Hz)")
            }
        }
        if verbose { log(player.playbackDescription) }
        let showTones = !quiet && (verbose || isatty(STDERR_FILENO) == 1)
        // The tones wait in the one loop: q ends them as Ctrl-C does, at once.
        let loop = CommandLoop()
        defer { loop.restore() }
        let finished = try player.play(
            plan.sequence, waiting: loop.wait(seconds:),
            onTone: { k in
                if showTones { log(describe(plan, k)) }
                if verbose && k == 0 {
                    let audible = player.audibleFrame
                    let queued = player.engineFrameClock
                    log(
                        String(
                            cFormat: "first tone queued %.1f ms before the listener hears it (engine clock - audible frame)",
                            Double(queued > audible ? queued - audible : 0) / player.sampleRate * 1000))
                }
            })
        if !finished && !quiet { log("stopped") }
        if verbose { log(player.playbackStats.summary(sampleRate: player.sampleRate)) }
    }
}
