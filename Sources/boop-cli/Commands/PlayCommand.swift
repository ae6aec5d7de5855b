import ArgumentParser
import Glibc
import PixelBoopCore

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a pattern in a loop through ALSA, with a live playhead.",
        discussion:
            "Space pauses and resumes, + and - change the tempo (a song keeps its chain's), q or Ctrl-C stops (the sound fades out within 20 ms). A song plays its chain (--pattern NAME loops one pattern), with --midi-out too. A device that cannot be opened exits 69; a device lost while playing exits 74 (--reconnect: waits for it and plays on)."
    )

    /// A player needs no 9 ms latency (keys act within the buffer, 104 ms) and each period costs
    /// a wake-up of the device thread and of the sound server's client, about 28 system calls
    /// through ALSA's pulse plugin: 1536 frames keep `boop play` near 0.65 % of a core (1024 cost
    /// 0.8-0.9 %, close to the 1 % it must stay under). The editor, which must answer a tap at
    /// once, keeps 128.
    static let defaultPeriodFrames = 1536

    @OptionGroup var patternOptions: PatternOptions

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var gainOption: GainOption

    @OptionGroup var midiOptions: MidiOutOptions

    @Option(
        name: .long,
        help:
            "ALSA period in frames (\(Limits.text(Limits.periodFrames)), default 1536: 104 ms of buffer, so playing costs under 1 % of a core). Fixes the buffer (no adaptation) unless --adaptive."
    )
    var periodFrames: Int?

    @Option(
        name: .long,
        help:
            "ALSA periods per buffer (\(Limits.text(Limits.periods)), default 3). Fixes the buffer (no adaptation) unless --adaptive."
    )
    var periods: Int?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Keep more audio queued when xruns come in a burst (default: off; the default buffer is already 104 ms)."
    )
    var adaptive: Bool?

    @Flag(name: .long, help: "No terminal view (for scripts).")
    var noDisplay = false

    @OptionGroup var reconnectOption: ReconnectOption

    mutating func validate() throws {
        try validatePeriods(periodFrames: periodFrames, periods: periods)
        try midiOptions.check(backend: deviceOptions.backend)
    }

    func run() throws {
        runReportingErrors {
            // A pattern loops; a song plays its chain: both through the one transport (the same
            // scheduling, MIDI output and session), a song's events from the timeline `render` uses.
            let song = try patternOptions.loadPiece()
            try midiOptions.checkSequencer(backend: deviceOptions.backend)
            var route = deviceOptions.route
            route.midiOut = midiOptions.midiOut
            route.mute = midiOptions.noSound
            route.followTransport = midiOptions.sync == .jack
            route.followMidiClock = midiOptions.sync == .midi
            if song.version1 == nil && midiOptions.sync == .midi {
                throw BoopExit(
                    .usage, "--sync midi: follows with a version-1 pattern; a song keeps its own tempos (--sync jack places it)")
            }
            let transport = try PatternTransport(
                song: song, route: route, sampleRate: deviceOptions.sampleRate(default: 44100),
                voices: patternOptions.voices, periodFrames: periodFrames ?? PlayCommand.defaultPeriodFrames,
                periods: periods ?? 3, adaptive: adaptive ?? false, gainDB: gainOption.gain,
                loops: patternOptions.loops, midiClock: midiOptions.clock, seed: patternOptions.songSeed)
            if let port = midiOptions.midiConnect {
                try transport.openSound()
                try transport.connectMidiOut(to: port)
            }
            if deviceOptions.verbose { StandardError.write(gainOption.description + "\n") }
            let session = PlaySession(
                transport: transport, device: transport.device,
                display: !noDisplay && !deviceOptions.quiet, verbose: deviceOptions.verbose)
            if reconnectOption.reconnect { session.reconnect = PlaySession.Reconnect(midiConnect: midiOptions.midiConnect) }
            try session.run()
        }
    }
}

/// What `boop play` adds to the transport: keys, media keys, the playhead view and -v lines.
/// The scheduling is the transport's (PixelBoopCore); this loop only waits until it is due.
final class PlaySession {
    private let transport: PatternTransport
    private let device: String
    private let verbose: Bool
    private var view = LineView()
    private let showView: Bool
    private var terminal: TerminalSession?
    private var screen: ScreenOutput?

    /// The song being played (nil: a version-1 pattern, shown as a grid, its tempo on + and -).
    private let song: Song?
    /// A version-1 pattern as it plays now (its tempo as + and - left it): the one-pattern song
    /// and its pattern.
    private var pattern: SongPattern { transport.playingSong.patterns[0] }
    private var played: Song { transport.playingSong }

    /// --reconnect: a lost device is tried again once a second (nil: a lost device exits 74).
    struct Reconnect {
        var midiConnect: String?
        /// When the next try is due (monotonic seconds), while the device is missing.
        var nextTry: Double?
    }
    var reconnect: Reconnect?

    init(transport: PatternTransport, device: String, display: Bool, verbose: Bool) {
        self.transport = transport
        let playing = transport.playingSong
        song = playing.version1 == nil ? playing : nil
        self.device = device
        self.verbose = verbose
        showView = display && isatty(STDOUT_FILENO) == 1
    }

    /// -v lines name the device and the pattern: shown escaped.
    private func log(_ line: String) { StandardError.write(shown(line) + "\n") }

    func run() throws {
        Signals.install()
        terminal = TerminalSession.start(.keys(hideCursor: showView))
        defer { terminal?.restore() }
        screen = showView ? ScreenOutput(reopening: STDOUT_FILENO) : nil
        view = LineView(resumeCount: terminal?.resumeCount ?? 0)

        try transport.start()
        if verbose { log(transport.info.describe(device: device)) }
        let media = openMediaControls()
        defer {
            media?.update(status: .stopped)
            media?.close()
        }
        let loop = LiveLoop(terminal: terminal, screen: screen)
        var finished = false
        // A stop signal (Ctrl-C, SIGTERM) wakes the loop, which ends; the keys and media commands
        // take the transport's calls; the view is redrawn at most 60 times a second.
        loop.watch(Signals.wakeDescriptor) { .stop }
        if let media { loop.watch(media.wakeDescriptor) { try self.handleMediaCommands(media) } }
        loop.onKeys = { events in try events.contains { try self.handleKey($0) == .stop } ? .stop : .carryOn }
        loop.onTurn = {
            if Signals.interrupted { return .stop }
            // Cheap when unchanged: only a real change wakes the MPRIS thread and is announced.
            media?.update(status: self.transport.state == .paused ? .paused : .playing)
            if self.reconnect?.nextTry != nil { return try self.tryReopen() }
            do {
                try self.transport.tick()
            } catch {
                guard case .deviceLost? = error as? AudioError, self.reconnect != nil else {
                    throw BoopExit(.ioError, "\(error)")
                }
                self.lostDevice()
                return .carryOn
            }
            if self.verbose { self.reportLatency() }
            try self.checkScreen()
            // The music is over: let the last releases ring briefly, then fade.
            finished = self.transport.state == .finished
            return finished ? .stop : .carryOn
        }
        setWakes(loop, media: media)
        if showView {
            loop.frame = { self.drawnFrame(audibleStep: self.transport.audibleStep) }
            loop.frameInterval = 1.0 / 60
        }
        try loop.run()
        if reconnect?.nextTry != nil {
            // Stopped while waiting for the device: nothing to fade, the lost device is closed.
            _ = try? transport.stop()
            drawFinal()
            return
        }
        try stop(tail: finished ? 0.3 : 0)
    }

    /// When the loop wakes by itself: the reconnect's next try, the end of the music; and at once
    /// when the device is lost. (The MPRIS position moves on by itself between turns.)
    private func setWakes(_ loop: LiveLoop, media: MediaControls?) {
        loop.secondsUntilDue = {
            if let next = self.reconnect?.nextTry { return max(0.01, next - LiveLoop.now()) }
            return self.transport.secondsUntilDue(atMost: .infinity)
        }
        // A lost device wakes the loop at once (the tick learns it); none while it is reopened.
        loop.endedDescriptor = { self.reconnect?.nextTry == nil ? self.transport.endedDescriptor : -1 }
    }

    /// --reconnect: the device went away. Said once; the loop then tries it once a second.
    private func lostDevice() {
        reconnect?.nextTry = LiveLoop.now()
        let note = "\(device): playback device lost; waiting for it to return (Ctrl-C stops)"
        if showView { screen?.write("\r\u{1B}[K") }
        StandardError.write(shown(note) + "\n")
    }

    /// --reconnect: one try when due. Back: the music goes on where the engine stood (its clock
    /// stood still), MIDI out connected again to --midi-connect's port.
    private func tryReopen() throws -> LiveLoop.Next {
        guard let next = reconnect?.nextTry, LiveLoop.now() >= next else { return .carryOn }
        reconnect?.nextTry = LiveLoop.now() + PatternTransport.reopenInterval
        let back: Bool
        do {
            back = try transport.reopenDevice()
        } catch {
            throw BoopExit(.ioError, "\(error)")
        }
        guard back else { return .carryOn }
        reconnect?.nextTry = nil
        if let port = reconnect?.midiConnect {
            do {
                try transport.connectMidiOut(to: port)
            } catch {
                StandardError.write(shown("\(device): --midi-connect \(port): \(error)") + "\n")
            }
        }
        StandardError.write(shown("\(device): device is back; resuming") + "\n")
        if verbose { log(transport.info.describe(device: device)) }
        return .carryOn
    }

    /// The terminal cannot be written (it went away): stop the sound, then exit 74.
    private func checkScreen() throws {
        guard let failure = screen?.failure else { return }
        _ = try? transport.stop()
        StandardOutput.exit(for: failure == EPIPE ? .closed : .failed(failure))
    }

    private func drawnFrame(audibleStep: Int?) -> String {
        view.frame(
            frame(audibleStep: audibleStep), resumeCount: terminal?.resumeCount ?? 0,
            columns: StatusLine.columns(of: STDOUT_FILENO))
    }

    /// The last frame, given up to a second to reach a slow terminal.
    private func drawFinal() {
        guard showView, let screen else { return }
        screen.drain(seconds: 1)
        screen.write(drawnFrame(audibleStep: nil))
        screen.drain(seconds: 1)
    }

    /// Media keys, desktop widgets and `playerctl -p boop` (MPRIS on the session bus). Its
    /// commands take the keyboard's path; without a bus (ssh, CI) play carries on and says so
    /// only under -v.
    private func openMediaControls() -> MediaControls? {
        let media = MediaControls(
            identity: "PixelBoop",
            onUnavailable: verbose
                ? { [weak self] line in
                    self?.log(line)
                } : nil)
        media?.update(
            status: .playing, title: song?.name ?? played.name,
            length: song == nil ? transport.totalSteps.map { Double($0) * played.stepSeconds } : nil)
        // Asked of the device's clock whenever a client reads it: the loop never wakes for it.
        media?.setPositionSource { [transport] in transport.heardSeconds }
        return media
    }

    private func handleKey(_ key: InputEvent) throws -> LiveLoop.Next {
        switch key {
        case .char(" "): try transport.setPaused(transport.state == .playing)
        case .char("q"), .char("Q"): return .stop
        // A song keeps the tempi its chain gives.
        case .char("+"), .char("="): if song == nil { transport.setBPM(played.bpm + 5) }
        case .char("-"), .char("_"): if song == nil { transport.setBPM(played.bpm - 5) }
        default: break
        }
        return .carryOn
    }

    private func handleMediaCommands(_ media: MediaControls?) throws -> LiveLoop.Next {
        while let command = media?.poll() {
            switch command {
            case .playPause: try transport.setPaused(transport.state == .playing)
            case .play: try transport.setPaused(false)
            case .pause: try transport.setPaused(true)
            case .stop, .quit: return .stop
            case .next, .previous: break   // a pattern has no next (CanGoNext is false)
            }
        }
        return .carryOn
    }

    /// Under -v: adaptive latency growth, and once the first note was heard, how long it took.
    private var latencyShown = false

    private func reportLatency() {
        if let grown = transport.takeLatencyGrowth() {
            log(
                String(
                    cFormat: "xruns in a burst (%llu so far): latency grown to %d frames (%.2f ms)", grown.xruns,
                    grown.latencyFrames, Double(grown.latencyFrames) / transport.sampleRate * 1000))
        }
        if !latencyShown, let latency = transport.measuredLatency {
            latencyShown = true
            log(
                String(
                    cFormat:
                        "latency: first note heard %.1f ms after it was queued (%.1f ms scheduled lead + %.1f ms device/engine)",
                    (latency.lead + latency.device) * 1000, latency.lead * 1000, latency.device * 1000))
        }
    }

    private func stop(tail: Double = 0) throws {
        let stats: PlaybackStats
        do {
            stats = try transport.stop(tail: tail)
        } catch {
            drawFinal()
            throw BoopExit(.ioError, error.description)
        }
        drawFinal()
        if verbose {
            log("\(stats.summary(sampleRate: transport.sampleRate)), dropped events \(transport.droppedEvents)")
            let reduction = transport.takeLimiterReductionDB()
            log(
                reduction < 0
                    ? String(cFormat: "limiter: deepest gain reduction %.1f dB (lower --gain to avoid it)", reduction)
                    : "limiter: never engaged")
        }
    }

    /// One row per track, one column per step; the step being heard is shown in reverse video.
    private func frame(audibleStep: Int?) -> [String] {
        if let song { return songLines(song) }
        let pattern = self.pattern
        let length = pattern.length
        let current = audibleStep.map { (($0 % length) + length) % length }
        var lines = [
            String(
                cFormat: "%@  %.0f BPM  %d steps%@   [space] pause  [+/-] tempo  [q] quit",
                shown(played.name), played.bpm, length, transport.state == .paused ? "  (paused)" : "")
        ]
        for kind in TrackKind.allCases where !pattern.notes(kind).isEmpty {
            var cells = [String](repeating: "·", count: length)
            for note in pattern.notes(kind) {
                for s in note.step..<min(length, note.step + note.length) where cells[s] != "●" {
                    cells[s] = s == note.step ? "●" : "─"
                }
            }
            var row = kind.rawValue.padded(to: 7) + " "
            for (i, cell) in cells.enumerated() {
                if i % 4 == 0 { row += " " }
                row += i == current ? "\u{1B}[7m\(cell)\u{1B}[0m" : cell
            }
            lines.append(row)
        }
        return lines
    }

    /// A song: the chain entry heard, its pattern, the step and the tempo.
    private func songLines(_ song: Song) -> [String] {
        var line = "\(shown(song.name))  \(counted(song.chain.count, "entry", "entries"))"
        if let heard = transport.heardPosition {
            let pattern = song.patterns[heard.pattern]
            line =
                "\(shown(song.name))  entry \(heard.entry + 1)/\(song.chain.count): \(shown(pattern.name))"
                + String(cFormat: "  step %d/%d  %.0f BPM", heard.step + 1, pattern.length, heard.bpm)
        }
        let paused = transport.state == .paused ? "  (paused)" : ""
        return [line + paused + "   [space] pause  [q] quit"]
    }
}
