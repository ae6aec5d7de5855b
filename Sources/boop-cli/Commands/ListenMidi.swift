import ArgumentParser
import Glibc
import PixelBoopCore

/// `listen --midi-out`: the voice as a MIDI controller (see `VoiceMidiOut`).
struct ListenMidiOptions: ParsableArguments {
    @Flag(
        name: .customLong("midi-out"),
        help:
            "Play the voice as a MIDI controller (--backend jack): note-on when a sung note starts, pitch bend following it, note-off when it ends, on the JACK port NAME:midi_out; prints one line per note-on and note-off."
    )
    var midiOut = false

    @Option(
        name: .customLong("midi-connect"),
        help: "With --midi-out: connect NAME:midi_out to this JACK MIDI input (client:port); may be given again.")
    var midiConnect: [String] = []

    @Option(
        name: .customLong("min-frequency"),
        help:
            "With --midi-out: the lowest pitch sung, Hz (\(Int(Self.minFrequencies.lowerBound))-\(Int(Self.minFrequencies.upperBound)), default 130 = C3). The analysis window is two of its periods: lower reaches a bass voice, and decides each onset later."
    )
    var minFrequency: Double?

    static let minFrequencies = 50.0...400.0

    @Option(name: .customLong("channel"), help: "With --midi-out: the MIDI channel, 1-16 (default 1).")
    var channel: Int?

    @Option(
        name: .customLong("bend-range"),
        help:
            "With --midi-out: semitones of a full pitch bend either way (over 0, at most \(Int(LiveSynth.bendRange.upperBound)); default 2), sent first as RPN 0."
    )
    var bendRange: Double?

    @Flag(
        name: .customLong("mpe"),
        help:
            "With --midi-out: MPE, the lower zone: each note on the next member channel 2-16 with its own bend; the MPE Configuration Message and the members' bend range go first."
    )
    var mpe = false

    @Option(name: .customLong("name"), help: "With --midi-out: the JACK client's name (default boop-listen).")
    var name: String?

    @Option(
        name: .customLong("settle"),
        help:
            "With --midi-out: milliseconds of voice before the note-on (0-200, default 0: at once, about 25 ms after the onset; a scooped note's key may then be a semitone under it, the bend carrying the sound up). 60 takes the key past a scoop, the note-on that much later."
    )
    var settle: Double?

    func check(_ listen: ListenCommand) throws {
        guard midiOut else {
            if !midiConnect.isEmpty || channel != nil || bendRange != nil || name != nil || minFrequency != nil || mpe
                || settle != nil
            {
                throw ValidationError(
                    "--midi-connect, --channel, --bend-range, --min-frequency, --mpe, --settle and --name: only with --midi-out")
            }
            return
        }
        if let channel, !(1...16).contains(channel) { throw ValidationError("--channel \(channel): expected 1-16") }
        if let settle, !(settle.isFinite && (0...200).contains(settle)) {
            throw ValidationError("--settle \(settle): expected 0-200 milliseconds")
        }
        if mpe && channel != nil { throw ValidationError("--channel and --mpe: expected at most one of them") }
        if let bendRange, !(bendRange.isFinite && bendRange > 0 && bendRange <= LiveSynth.bendRange.upperBound) {
            throw ValidationError(
                "--bend-range \(bendRange): expected more than 0 and at most \(Int(LiveSynth.bendRange.upperBound)) semitones")
        }
        if let minFrequency, !(minFrequency.isFinite && Self.minFrequencies.contains(minFrequency)) {
            throw ValidationError("--min-frequency \(minFrequency): expected 50-400 Hz")
        }
        if let name, name.isEmpty || name.utf8.count > 63 || name.contains(where: { $0 == ":" }) {
            throw ValidationError("--name \(name): expected a JACK client name (1-63 bytes, no ':')")
        }
        if listen.raw || listen.samples || listen.output != nil || listen.bufferFrames != 2048 {
            throw ValidationError(
                "--midi-out: prints notes (or their JSON with --json); --raw, --samples, -o and --buffer-frames do not go with it"
            )
        }
    }

    /// ALSA has no listen MIDI out: where /dev/snd/seq is missing the line `play --midi-out` gives, else
    /// one saying JACK does it. Both exit 69.
    func checkBackend(_ backend: AudioBackend) throws {
        guard midiOut && backend == .alsa else { return }
        if access("/dev/snd/seq", R_OK | W_OK) != 0 {
            throw BoopExit(
                .unavailable,
                "--midi-out: no ALSA sequencer (/dev/snd/seq: \(String(cString: strerror(errno)))); --backend jack sends JACK MIDI instead"
            )
        }
        throw BoopExit(.unavailable, "--midi-out: listen sends its notes on JACK only; use --backend jack")
    }

    var voiceConfig: VoiceMidiConfig {
        var c = VoiceMidiConfig()
        c.clientName = name ?? c.clientName
        c.destinations = midiConnect
        c.minFrequency = minFrequency ?? c.minFrequency
        c.channel = channel ?? 1
        c.mpe = mpe
        c.bendRange = bendRange ?? 2
        c.settle = (settle ?? 0) / 1000
        return c
    }
}

extension ListenCommand {
    /// Listens as a MIDI controller until Ctrl-C, --duration or the server's end.
    func listenMidi() throws {
        var config = midi.voiceConfig
        config.channels = channels
        config.connect = !deviceOptions.noConnect
        let voice = try VoiceMidiOut(config: config)
        try Signals.install { voice.stop() }
        let rate = voice.sampleRate
        if deviceOptions.verbose { StandardError.write(Self.delayLine(voice) + "\n") }
        let limit = duration.map { Int(($0 * rate).rounded()) }
        var failure: StandardOutput.Failure?
        // q ends it as Ctrl-C does: the loop's keys are looked at after each wait for the capture
        // (the capture's own wait, at least every period, is where this thread sleeps).
        let loop = CommandLoop()
        defer { loop.restore() }
        try voice.run(limitFrames: limit, shouldStop: { (try? loop.wait(seconds: 0)) ?? true }) { event in
            guard failure == nil, !deviceOptions.quiet else { return }
            failure = StandardOutput.send(Self.noteLine(event, rate: rate, json: json) + "\n")
            if failure != nil { voice.stop() }
        }
        if deviceOptions.verbose {
            let sent = voice.sent
            StandardError.write("listen: \(sent.written) MIDI messages sent, \(sent.late) late; \(voice.xruns) xruns\n")
        }
        if let failure { StandardOutput.exit(for: failure, also: "") }
    }

    /// The decision delay, part by part: what -v prints first.
    static func delayLine(_ voice: VoiceMidiOut) -> String {
        let d = voice.delays
        let ms = { (s: Double) in String(cFormat: "%.1f", s * 1000) }
        return "listen: JACK \(voice.config.clientName):midi_out at \(Int(voice.sampleRate)) Hz, "
            + "\(voice.periodFrames)-frame periods; "
            + (voice.config.mpe ? "MPE lower zone (members 2-16)" : "channel \(voice.config.channel)")
            + ", bend ±\(voice.config.bendRange) semitones (RPN 0); "
            + "decision delay: the voice filling about half of the \(ms(d.window)) ms window + a hop of \(ms(d.hop)) ms "
            + "+ confirmation \(ms(d.confirm)) ms + output delay \(ms(d.output)) ms (\(voice.outputDelayFrames) frames, fixed)"
    }

    /// `  1.234s  on  A4 (69) velocity 87` / `  1.456s  off A4 (69)`, or its JSON object.
    static func noteLine(_ event: VoiceNoteEvent, rate: Double, json: Bool) -> String {
        let time = Double(event.frame) / rate
        let (kind, key, velocity): (String, Int, Int?) =
            switch event.kind {
            case .on(let key, let velocity): ("on", key, velocity)
            case .off(let key): ("off", key, nil)
            case .bend(let value): ("bend", value, nil)
            }
        let note = NoteName(midi: key).description
        if json {
            return "{\"time\":\(String(cFormat: "%.4f", time)),\"frame\":\(event.frame),\"event\":\"\(kind)\","
                + "\"key\":\(key),\"note\":\"\(note)\"\(velocity.map { ",\"velocity\":\($0)" } ?? "")}"
        }
        return String(cFormat: "%9.3fs  %-3@ %@ (%d)", time, kind, note, key) + (velocity.map { " velocity \($0)" } ?? "")
    }
}
