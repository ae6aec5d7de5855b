import ArgumentParser
import Glibc
import PixelBoopCore

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract:
            "The PixelBoop grid: edit a pattern or a whole song in the terminal, hear every note as you place it, edit while it loops.",
        discussion: """
            Steps run across, pitches (or drum lanes) down. Keys: arrows or h j k l move (up is a \
            semitone higher), H and L four steps; space or Enter places or removes a note (it sounds at \
            once); 1 2 3 set normal, accent, sustain; [ and ] shorten and lengthen the note; Tab and \
            Shift-Tab change track; p plays and stops the loop, G makes it play the song chain (or the pattern again); f and F change the pattern's swing; a and A the probability, z and Z the condition, r and R the ratchet of the note or the block; + and - change the tempo by 5 BPM, = and \
            _ by 1, b types it; < and > change the length (8 to 64 steps); v starts and ends a block \
            (Shift+arrows extend it, Esc clears it); y copies, x cuts, P pastes at the cursor, D \
            duplicates, Delete deletes; t and T transpose a semitone, o and O an octave; ( and ) nudge; \
            } and { go to the next and previous pattern, c clones it, n adds an empty one; g opens the \
            song chain, I the track's instrument and mix; m mutes and M solos the track; i turns MIDI step entry on and off \
            (--midi); S sets a scale lock; u undoes, Ctrl-R redoes (every change, over the whole song); s or Ctrl-S saves; W \
            saves as and E exports (.wav, .mid: type a path); ? shows the keys; Ctrl-Z suspends (fg comes \
            back); q or Ctrl-C quits (asking to save). The mouse: a click places or removes, a drag \
            paints, a right click removes, a drag with the right or middle button marks a block, the wheel scrolls. A version-1 file stays version 1 while \
            nothing needs version 2. Without FILE a new untitled.json (untitled-2.json, ... when it \
            exists). A FILE that does not exist is a new pattern, written when you save; a symbolic link \
            is saved through (its target gets the edits); a read-only FILE is replaced only when you \
            say so; when saving fails you are asked for another path. SIGTERM or SIGHUP with unsaved \
            changes writes them to FILE.save, or when its folder takes no file to \
            $XDG_STATE_HOME/pixelboop/ (~/.local/state/pixelboop/), and the next `boop edit FILE` \
            offers them back. Without a sound device it edits silently.
            """)

    @Argument(
        help:
            "The pattern or song file (JSON, version 1 or 2). A new file when it does not exist; without one, a new untitled.json (untitled-2.json, ... when that exists)."
    )
    var file: String?

    @Option(name: .long, help: "Scale lock: a key and a scale (\"C major\", \"A minor\", \"D dorian\", ...).")
    var scale: String?

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var gainOption: GainOption

    @Option(name: .long, help: "Polyphony per track (\(Limits.text(Limits.voices)), default \(Limits.defaultVoices)).")
    var voices: Int = Limits.defaultVoices

    @Option(name: .long, help: "ALSA period in frames (\(Limits.text(Limits.periodFrames)), default 128).")
    var periodFrames: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A MIDI keyboard: the ALSA sequencer port to listen to (\"24:0\", a client number, \"name:port\" or part of a name); with --backend jack a JACK MIDI output port, connected to boop:midi_in. Played notes sound on the current track; with step entry (i) they are placed at the cursor.",
            valueName: "SRC"))
    var midi: String?

    @Option(name: .long, help: "ALSA periods per buffer (\(Limits.text(Limits.periods)), default 3).")
    var periods: Int?

    @Option(
        name: [.customShort("C"), .customLong("capture-device")],
        help: "A microphone (capture device) to sing into the recording (*): sung notes land on the grid.")
    var captureDevice: String?

    mutating func validate() throws {
        if file?.isEmpty == true { throw ValidationError("FILE: expected a pattern file name such as song.json") }
        if let scale, Scale(parsing: scale) == nil {
            throw ValidationError("--scale: expected \(Scale.help), got \(OneLine.escape(scale))")
        }
        if midi?.isEmpty == true { throw ValidationError("--midi: expected a sequencer port such as 24:0 or a part of its name") }
        try validateVoices(voices)
        try validatePeriods(periodFrames: periodFrames, periods: periods)
    }

    func run() throws {
        var status: Int32 = 0
        runReportingErrors {
            // An existing file must load exactly as `play` would load it (65, one line, before the
            // terminal is touched); a missing one is a new pattern (saved as version 1 while it fits).
            let file = self.file ?? PatternSaving.untitled(in: ".")
            var song: Song
            var version1 = true
            if EditCommand.exists(file) {
                do {
                    song = try PieceFile.load(path: file)
                    // The editor keeps the kind of file apart: an edit may outgrow version 1.
                    version1 = song.version1 != nil
                    song.version1 = nil
                } catch let error as PatternError {
                    throw BoopExit(error.kind == .missingFile ? .noInput : .dataError, error.message)
                }
            } else {
                song = Song(name: PathText.lastComponent(PathText.deletingExtension(file)))
            }
            let keyboard = try openKeyboard()
            let voice = try openVoice()
            guard let terminal = TerminalSession.start(.fullScreen) else {
                throw BoopExit(.usage, "edit: needs a terminal on stdin and stdout (use play or render in scripts)")
            }
            let session = EditSession(
                file: file, song: song, version1: version1, terminal: terminal, command: self, keyboard: keyboard)
            session.voice = voice
            status = session.run()
        }
        if status != 0 { Glibc.exit(status) }
    }
}

/// The editor's loop: keys and mouse into the model, the model into the transport and the screen.
final class EditSession {
    /// The pattern file; `W` (save as) changes it.
    private(set) var file: String
    var model: EditorModel
    let terminal: TerminalSession
    var view: EditorView
    var writer: ScreenWriter
    let screen: ScreenOutput
    let loop: LiveLoop
    private var exitStatus: Int32 = 0
    var transport: PatternTransport?
    var sound: SoundStatus = .silent("no sound device: editing silently")
    private let command: EditCommand
    /// `--midi`: notes from a keyboard, read on the loop (EditMidi.swift).
    let keyboard: MidiKeyboard?
    /// `-C`: a voice sung into the recording (EditVoice.swift).
    var voice: EditVoice?
    let verbose: Bool
    let environment = ProcessText.environment
    var size = TerminalSession.size()
    var dragging = false
    /// A right or middle button held: the cell it was pressed on, and whether it has moved (a block).
    var blockPress: (step: Int, row: Int)?
    var blockDragging = false
    var lastTap: (read: Double, frame: UInt64)?
    var tapLog: [String] = []
    /// The work last written to FILE.save before a risky call (EditSaving.keepWorkBeforeRisk).
    var workKept: Song?
    var olderSaveKept = false
    /// Notes placed by the keys or the mouse of one read, sounded together once it is handled:
    /// a paste or a fast drag sounds its last few notes, never floods the engine's immediate lane.
    var auditionQueue: [(note: SongNote, track: TrackKind)] = []
    static let auditionsPerRead = 4
    /// Set by "save changes? y" until the save is done (or given up).
    var quitAfterSave = false
    /// Read-only files the user agreed to replace in this session (their resolved paths).
    var confirmedReadOnly: Set<String> = []
    /// What the text typed at the message line is for.
    var promptPurpose = PromptPurpose.save
    /// `E`'s export while it runs (EditExport.swift).
    var exportJob: ExportJob?
    /// The edited file's lock, while this session holds it (EditLock); the file as last read or
    /// written here; and what the user agreed to for the save under way.
    var editLock: EditLock?
    var diskStamp: DiskStamp?
    var overrides: Set<SaveOverride> = []
    /// The last save of a version-1 file wrote a version-2 song.
    var savedAsVersion2 = false

    init(file: String, song: Song, version1: Bool, terminal: TerminalSession, command: EditCommand, keyboard: MidiKeyboard?) {
        self.file = file
        self.keyboard = keyboard
        self.terminal = terminal
        screen = ScreenOutput(descriptor: terminal.screenDescriptor)
        loop = LiveLoop(terminal: terminal, screen: screen)
        self.command = command
        model = EditorModel(song: song, version1: version1)
        model.setScale(command.scale.flatMap(Scale.init(parsing:)) ?? song.scale)
        let colors = ColorMode.detect(ProcessText.environment)
        view = EditorView(colorMode: colors)
        writer = ScreenWriter(colorMode: colors)
        verbose = command.deviceOptions.verbose
        diskStamp = DiskStamp.of(file)
        if case .busy(let holder) = takeLock() {
            model.message = "\(OneLine.escape(fileName)) is open in \(holder) too: saving here asks first"
        }
        openTransport()
        if let found = EmergencySave.find(for: file, environment: environment) {
            olderSaveKept = true
            model.question = .restore
            model.restoreSource = found
        }
    }

    /// Opens the sound device (at start, and again after a suspend closed it); without one the
    /// editing goes on silently.
    func openTransport() {
        do {
            let t = try PatternTransport(
                song: model.audibleSong, route: command.deviceOptions.route,
                sampleRate: command.deviceOptions.sampleRate(default: 44100), voices: command.voices,
                periodFrames: command.periodFrames ?? 128, periods: command.periods ?? 3,
                adaptive: command.periodFrames == nil && command.periods == nil, gainDB: command.gainOption.gain,
                midiKeys: keyboard)
            try t.openSound()
            connectKeyboard(t)
            try t.setMix(model.song.instruments)
            transport = t
            sound = .device(name: t.device, latencyMilliseconds: Double(t.info.bufferFrames) / t.sampleRate * 1000)
        } catch {
            // Tried again once a second (tickSound): a device that appears later (a server
            // started, headphones plugged in) is used as soon as it opens.
            transport = nil
            nextOpen = monotonicSeconds() + PatternTransport.reopenInterval
            sound = .silent("no sound device: editing silently")
        }
    }
    private var nextOpen = 0.0

    var fileName: String { PathText.lastComponent(file) }

    /// Runs until quit; returns the exit status.
    func run() -> Int32 {
        defer {
            endExport()
            if let transport { _ = try? transport.stop() }
            voice?.close()
            // The last frame gets a moment to reach a slow terminal; a stopped one loses it.
            screen.drain(seconds: 0.5)
            terminal.restore()
            for line in tapLog { StandardError.write(line + "\n") }
        }
        loop.onKeys = { [unowned self] events in
            let readAt = monotonicSeconds()
            defer { soundAuditions(readAt: readAt) }
            // Each event handled once, in order, up to the first that ends the session.
            for event in events where !exportKey(event) {
                if let status = handle(event, readAt: readAt) { return ending(status) }
            }
            return .carryOn
        }
        loop.onTerminalSignal = { [unowned self] sig in ending(handleSignal(sig)) }
        // The terminal went away: keep the work, as on SIGHUP.
        loop.onHangUp = { [unowned self] in ending(hangUp()) }
        loop.onTurn = { [unowned self] in
            tickSound()
            pollExport()
            measureTap()
            // JACK's keyboard wakes nobody (its process callback makes no system call): its notes
            // are taken on every wake, which comes at least at the screen's cadence (below).
            if keyboard?.wakesLoop == false {
                _ = playedNotes()
                soundKeys()
            }
            tickVoice()
            loop.redraw()
            return .carryOn
        }
        loop.secondsUntilDue = { [unowned self] in
            // An export's progress is shown ten times a second.
            let wake = exportJob != nil ? 0.1 : Double.infinity
            if lostTransport != nil { return min(wake, max(0, nextReopen - monotonicSeconds())) }
            guard let transport else { return min(wake, max(0, nextOpen - monotonicSeconds())) }
            // A tap's figure, and a note from JACK's keyboard, wait for the screen's next frame
            // (1/60 s), as while playing.
            // Otherwise nothing is due until a key, a signal or the device's end wakes the loop.
            let frameCadence = transport.state == .playing || lastTap != nil || keyboard?.wakesLoop == false || voice != nil
            return transport.secondsUntilDue(atMost: min(wake, frameCadence ? 1.0 / 60 : .infinity))
        }
        // A lost device wakes the loop at once (tickSound learns it); none while it is reopened.
        loop.endedDescriptor = { [unowned self] in transport?.endedDescriptor ?? -1 }
        loop.frame = { [unowned self] in nextFrame() }
        if let keyboard, keyboard.wakesLoop { loop.watch(keyboard.descriptor) { [unowned self] in playedNotes() } }
        do {
            try loop.run()
        } catch {
            return 74
        }
        return exitStatus
    }

    /// A status from a handler ends the session with it.
    private func ending(_ status: Int32?) -> LiveLoop.Next {
        guard let status else { return .carryOn }
        exitStatus = status
        return .stop
    }

    // MARK: Sound

    private func tickSound() {
        if let lost = lostTransport { return reconnect(lost) }
        guard let transport else {
            if monotonicSeconds() >= nextOpen {
                keepWorkBeforeRisk()
                openTransport()
            }
            return
        }
        do {
            try transport.tick()
        } catch {
            // A lost device never ends the editing: the work goes on silently (as without a
            // device) while the device is tried again once a second.
            lostTransport = transport
            self.transport = nil
            nextReopen = monotonicSeconds() + PatternTransport.reopenInterval
            sound = .reconnecting
        }
    }

    /// The device came back: the loop plays on (with the pattern as edited meanwhile).
    private func reconnect(_ lost: PatternTransport) {
        guard monotonicSeconds() >= nextReopen else { return }
        nextReopen = monotonicSeconds() + PatternTransport.reopenInterval
        keepWorkBeforeRisk()   // opening a device runs a library's code: nothing is lost if it crashes
        guard (try? lost.reopenDevice()) == true else { return }
        lostTransport = nil
        transport = lost
        connectKeyboard(lost)
        lost.playSong(model.audibleSong)
        sound = .device(name: lost.device, latencyMilliseconds: Double(lost.info.bufferFrames) / lost.sampleRate * 1000)
    }
    private var lostTransport: PatternTransport?
    private var nextReopen = 0.0

    /// The loop plays the edit from the next step it queues.
    func patternChanged() { transport?.playSong(model.audibleSong) }
    func replacePatternInTransport() {
        patternChanged()
        mixChanged()
    }
    /// The loop and the auditions sound with the song's instruments, as `play` and `render` do.
    private func mixChanged() {
        do {
            try transport?.setMix(model.song.instruments)
        } catch {
            model.message = "instrument: \(error)"
        }
    }
    func setFile(_ path: String) { file = path }

    func togglePlay() {
        guard let transport else {
            model.message = "no sound device: the loop cannot play (editing works)"
            return
        }
        do {
            if transport.state == .playing || transport.state == .paused {
                try transport.stopLoop()
                endRecording()
            } else {
                transport.playSong(model.audibleSong)
                try transport.start()
            }
        } catch {
            model.message = "\(error)"
        }
    }

    // MARK: Input

    /// Handles one event; a status ends the session.
    private func handle(_ event: InputEvent, readAt: Double) -> Int32? {
        if event == .control("z") {
            suspend()
            return nil
        }
        if model.prompt != nil { return promptKey(event) }
        if let question = model.question { return answer(question, event) }
        if model.showHelp {
            // q and Ctrl-C quit from the help as from anywhere; ? and Esc close it.
            switch event {
            case .char("q"), .control("c"): model.showHelp = false
            case .char("?"), .escape:
                model.showHelp = false
                return nil
            default: return nil
            }
        }
        model.message = nil
        let before = model.audibleSong
        let mixBefore = model.song.instruments
        defer {
            if model.audibleSong != before { patternChanged() }
            if model.song.instruments != mixBefore { mixChanged() }
        }
        if let panel = model.panel { return panelKey(event, panel) }
        return gridKey(event, readAt: readAt)
    }

    private func answer(_ question: EditorModel.Question, _ event: InputEvent) -> Int32? {
        let yes = event == .char("y") || event == .char("Y")
        let no = event == .char("n") || event == .char("N")
        if case .mouse = event { return nil }
        model.question = nil
        switch question {
        case .saveBeforeQuit:
            if yes {
                quitAfterSave = true
                return save() ? 0 : nil
            }
            if no { return discardWork() }
            model.message = "not quitting"
        case .shorten:
            if yes {
                model.question = question
                model.confirmShorten()
                patternChanged()
            } else {
                model.message = "length kept"
            }
        case .restore:
            if yes {
                restoreBackup()
                olderSaveKept = false
            } else {
                model.message = "\(OneLine.escape(model.restoreSource ?? file + ".save")) kept; it is offered again next time"
            }
        case .overwriteReadOnly(let path):
            if yes {
                confirmedReadOnly.insert(PatternFile.resolvingLinks(path))
                return write(to: path) && quitAfterSave ? 0 : nil
            }
            if event == .char("W") {
                askSavePath(label: "save as")
            } else {
                quitAfterSave = false
                model.message = "not saved: \(OneLine.escape(path)) is read-only (W saves elsewhere)"
            }
        case .overwriteExisting(let path):
            if yes { return save(to: path) && quitAfterSave ? 0 : nil }
            askSavePath(label: "not replaced; save as", text: path)
        case .openElsewhere, .changedOnDisk:
            return answerConflict(question, event)
        case .replaceExport(let path):
            if yes { startExport(to: path, midi: ExportTarget.isMidi(path)) } else { model.message = "not exported" }
        }
        return nil
    }
}
