import ArgumentParser
import CAudioEngine
import Glibc
import PixelBoopCore

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Play boop live from a MIDI keyboard or another program (ALSA sequencer or JACK MIDI).",
        discussion:
            "ALSA (default): sound through the PCM (-D), MIDI from an ALSA sequencer client 'boop' (--name) with the port midi_in (--midi subscribes it to a source); events sound one period after they arrive, their spacing kept. JACK: a client 'boop' (--name) with the ports boop:midi_in, boop:out_1 and boop:out_2 (left and right); each MIDI event is applied on its own frame; --midi-connect takes a port's name or part of it; Ctrl-Z (SIGTSTP) takes the client out of the server's graph until the process continues. Channels: 1 melody, 2 chords, 3 bass, 10 drums (General MIDI keys), every other melody; a Program Change gives a melodic channel a palette voice, Bank Select a rhythm channel a kit. q, Ctrl-C or SIGTERM fade out and exit 0; no JACK server or no ALSA sequencer (/dev/snd/seq) exits 69; a --midi or --midi-connect port of no such name exits 64; a server or device that goes away exits 74 (JACK with --reconnect: waits for the server, tries it once a second, and plays on with its ports and --midi-connect links made again).\n"
            + SynthSoundOptions.controlsText
    )

    @Option(name: .long, help: "Sound system: alsa (default: the PCM and the ALSA sequencer) or jack.")
    var backend: AudioBackend = .alsa

    @OptionGroup var alsaOptions: SynthAlsaOptions

    @Flag(
        name: .customLong("no-connect"),
        help: "Leave boop:out_1/out_2 unconnected instead of linking them to the system playback ports.")
    var noConnect = false

    @Option(
        name: .customLong("midi-connect"),
        help: "Connect this JACK MIDI output port (client:port, or part of a port's name) to boop:midi_in; repeatable.")
    var midiConnect: [String] = []

    @OptionGroup var sound: SynthSoundOptions

    @Option(
        name: .customLong("bend-range"),
        help:
            "Semitones of a full pitch bend either way (\(Limits.text(LiveSynth.bendRange)), default \(Limits.text(LiveSynth.defaultBendRange)))."
    )
    var bendRange: Double = LiveSynth.defaultBendRange

    @Option(name: .long, help: "Polyphony (\(Limits.text(Limits.voices)), default \(LiveSynth.defaultPolyphony)).")
    var voices: Int = LiveSynth.defaultPolyphony

    @OptionGroup var gainOption: GainOption

    @OptionGroup var recording: SynthRecordOptions

    @Flag(name: .long, help: "No status line (for scripts).")
    var noDisplay = false

    @OptionGroup var verbosity: VerbosityOptions<SynthCommand>

    @Flag(
        name: .long,
        help:
            "JACK: when the server goes away, wait for it (tried once a second) and play on once it is back; a --record file ends when it goes."
    )
    var reconnect = false

    @OptionGroup var tuningOptions: TuningOptions

    mutating func validate() throws {
        try validateBackendFlags()
        try validateRange(bendRange, LiveSynth.bendRange, option: "--bend-range", unit: "semitones")
        try validateVoices(voices)
        try verbosity.check()
        try recording.check()
        if reconnect && backend != .jack { throw ValidationError("--reconnect: only with --backend jack") }
    }

    func run() throws {
        runReportingErrors {
            if backend == .alsa { return try runAlsa() }
            let map = try sound.channelVoices()
            let tuning = try tuningOptions.load()
            let open: () throws -> LiveSynth = {
                [
                    noConnect, voices, bendRange, gain = gainOption.gain, name = sound.name, ahead = sound.lookahead == 1,
                    mpe = sound.mpeZones
                ] in
                try LiveSynth(
                    clientName: name, connect: !noConnect, polyphony: voices, bendRange: bendRange, voices: map,
                    gainDB: gain, lookahead: ahead, tuning: tuning, mpe: mpe)
            }
            let synth = try open()
            try recording.begin(synth)
            let session = SynthSession(
                synth: synth, verbose: verbosity.verbose, display: !noDisplay && !verbosity.quiet && isatty(STDOUT_FILENO) == 1)
            session.recording = recording
            session.gainDB = gainOption.gain
            if reconnect { session.reconnect = SynthSession.Reconnect(open: open) }
            try session.run(connecting: midiConnect)
        }
    }
}

extension SynthCommand: VerboseDetail {
    static let verboseHelp = "Print each MIDI event, the server's rate and buffer, and the malformed bytes counted."
}

/// The running synth: keys, the stop signals, the status line and -v lines. Everything sounding
/// happens in the engine's process callback; this loop only watches and reports.
final class SynthSession {
    private var synth: LiveSynth
    private let verbose: Bool
    private let showView: Bool
    private var view = LineView()
    private var lastShown: LiveSynthStats?
    private var sources: [String] = []
    var recording = SynthRecordOptions()

    /// The gain before the output stage's limiter (--gain), for -v.
    var gainDB = 0.0

    /// --reconnect: how to open the synth again, and when the next try is due (monotonic seconds)
    /// while the server is missing (nil: a lost server exits 74).
    struct Reconnect {
        let open: () throws -> LiveSynth
        var nextTry: Double?
    }
    var reconnect: Reconnect?

    init(synth: LiveSynth, verbose: Bool, display: Bool) {
        self.synth = synth
        self.verbose = verbose
        showView = display
    }

    private func log(_ line: String) { StandardError.write(shown(line) + "\n") }

    func run(connecting sources: [String]) throws {
        Signals.install()
        self.sources = sources
        try synth.start()
        let port = synth.midiPort
        for source in sources { try synth.connectMidi(from: source) }
        if verbose { describe() }
        let terminal = TerminalSession.start(.keys(hideCursor: showView))
        defer { terminal?.restore() }
        let screen = showView ? ScreenOutput(reopening: STDOUT_FILENO) : nil
        let loop = LiveLoop(terminal: terminal, screen: screen)
        var lost = false
        loop.watch(Signals.wakeDescriptor) { .stop }
        // JACK: a stopped client would stall the server, so Ctrl-Z takes it out of the graph first.
        let stopSignal = synth.backend == .jack ? boop_synth_stop_signal_install() : -1
        loop.watch(stopSignal) {
            self.stopForJobControl(stopSignal, terminal: terminal)
            loop.redraw()
            return .carryOn
        }
        loop.onKeys = { keys in keys.contains { $0 == .char("q") || $0 == .char("Q") } ? .stop : .carryOn }
        loop.onTurn = {
            if Signals.interrupted { return .stop }
            if self.reconnect?.nextTry != nil { return self.tryReopen() }
            if self.verbose { self.printEvents() }
            let stats = self.synth.stats
            if stats.lost {
                guard self.reconnect != nil else {
                    lost = true
                    return .stop
                }
                try self.lostServer(screen: screen)
                return .carryOn
            }
            if stats != self.lastShown { loop.redraw() }
            return .carryOn
        }
        // The log and the status line are read 20 times a second (the audio thread that fills them
        // wakes no one); the sound never waits on them. Without them nothing is due: a lost device
        // wakes the loop through its ended descriptor (none while it is reopened).
        loop.secondsUntilDue = {
            if let next = self.reconnect?.nextTry { return max(0.01, next - LiveLoop.now()) }
            return self.verbose || self.showView ? 0.05 : .infinity
        }
        loop.endedDescriptor = { self.reconnect?.nextTry == nil ? self.synth.endedDescriptor : -1 }
        if showView {
            loop.frame = {
                self.view.frame(
                    [self.statusLine()], resumeCount: terminal?.resumeCount ?? 0,
                    columns: StatusLine.columns(of: STDOUT_FILENO))
            }
        }
        try loop.run()
        try finish(lost: lost, port: port)
    }

    /// SIGTSTP on JACK: the client leaves the server's graph, the terminal is put back, the process
    /// stops; once continued (fg, SIGCONT) the client is back with its links, no note held.
    private func stopForJobControl(_ fd: Int32, terminal: TerminalSession?) {
        var bytes = [UInt8](repeating: 0, count: 16)
        while read(fd, &bytes, bytes.count) > 0 {}
        synth.suspend()
        terminal?.restore()
        boop_synth_stop_now()
        terminal?.resume()
        do {
            try synth.resume()
        } catch {
            log("jack: \(synth.midiPort): \(error)")
        }
        lastShown = nil
    }

    /// After the loop: a lost server is 74 (what was recorded until then kept); stopped while
    /// waiting for the server, nothing sounds and the recording already ended; else a fade.
    private func finish(lost: Bool, port: String) throws {
        if lost {
            synth.stop()
            try recording.finish(synth, log: log)   // what was played until then is kept
            let what = synth.backend == .jack ? "JACK server" : "ALSA sound device"
            throw BoopExit(.ioError, "\(what) went away while the synth was running (\(port))")
        }
        if reconnect?.nextTry != nil { return }
        fadeAndStop()
        try recording.finish(synth, log: log)
    }

    private func describe() {
        // Each fits an 80-column terminal.
        log(
            String(
                cFormat: synth.backend == .jack
                    ? "synth jack: %@, %.0f Hz, buffer %d; each event on its own frame"
                    : "synth alsa: %@, %.0f Hz, period %d; events one period after arrival",
                synth.midiPort, synth.sampleRate, synth.bufferFrames))
        if synth.outputLatencyFrames == 0 {
            log(String(cFormat: "output: gain %+.1f dB, clipper under %.0f dBTP, no look-ahead", gainDB, OutputStage.ceilingDBTP))
            return
        }
        log(
            String(
                cFormat: "output: gain %+.1f dB, limiter at %.0f dBTP, look-ahead %d frames (%.1f ms)", gainDB,
                OutputStage.ceilingDBTP, synth.outputLatencyFrames,
                Double(synth.outputLatencyFrames) / synth.sampleRate * 1000))
    }

    /// --reconnect: the server went away. Its client is closed at once (a client of a dead server
    /// must be closed before another opens), a --record file ends with what was played; said once,
    /// then the loop tries the server once a second.
    private func lostServer(screen: ScreenOutput?) throws {
        if verbose { printEvents() }
        let port = synth.midiPort
        synth.stop()
        try recording.finish(synth, log: log)
        recording.record = nil
        reconnect?.nextTry = LiveLoop.now() + PatternTransport.reopenInterval
        if showView { screen?.write("\r\u{1B}[K") }
        log("jack: \(port): device lost; waiting for it to return (Ctrl-C stops)")
    }

    /// --reconnect: one try when due. Back: a new client with the same ports, its outputs and
    /// --midi-connect's ports linked again; the synth starts with no notes held.
    private func tryReopen() -> LiveLoop.Next {
        guard let next = reconnect?.nextTry, let open = reconnect?.open, LiveLoop.now() >= next else { return .carryOn }
        reconnect?.nextTry = LiveLoop.now() + PatternTransport.reopenInterval
        guard let reopened = try? open() else { return .carryOn }
        do {
            try reopened.start()
        } catch {
            reopened.stop()
            return .carryOn
        }
        synth = reopened
        reconnect?.nextTry = nil
        lastShown = nil
        for source in sources {
            do {
                try synth.connectMidi(from: source)
            } catch {
                log("jack: --midi-connect \(source): \(error)")
            }
        }
        log("jack: \(synth.midiPort): device is back; resuming")
        if verbose { describe() }
        return .carryOn
    }

    private func printEvents() {
        while let event = synth.nextEvent() { log(event.description) }
    }

    private func statusLine() -> String {
        let s = synth.stats
        lastShown = s
        let last = s.lastNote.map { "last \(NoteName(midi: $0.key)) ch \($0.channel)" } ?? "last -"
        return "\(synth.midiPort)  held \(s.notesHeld)  voices \(s.voices)  \(last)  xruns \(s.xruns)   [q] quit"
    }

    /// A 20 ms fade, waited for on the server's clock (its frames rendered), at most a second.
    private func fadeAndStop() {
        synth.fadeOutAndWait(seconds: 0.02)
        if verbose { printEvents() }
        let s = synth.stats
        synth.stop()
        if verbose {
            // A message the log had no room for was still played; say how many the lines above miss.
            let unlogged = synth.loggedDropped
            log(
                "synth: \(s.messages) messages, \(s.malformedBytes) malformed bytes skipped, \(s.ignored) system messages ignored, \(s.xruns) xruns"
                    + (unlogged > 0 ? ", \(unlogged) messages not printed (the log was full)" : "")
            )
        }
    }
}
