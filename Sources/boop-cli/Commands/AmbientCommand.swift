import ArgumentParser
import Glibc
import PixelBoopCore

struct AmbientCommand: ParsableCommand, DeviceCommand {
    static let configuration = CommandConfiguration(
        commandName: "ambient",
        abstract: "Endless generative ambient music from a preset (live, or to a file with -o).",
        discussion: """
            A detuned pad, an FM lead on a Euclidean rhythm, a granular cloud and ocean noise through a \
            ping-pong delay and an FDN reverb, composed round the circle of fifths. The same preset, seed \
            and rate always give the same music (and with -o the same bytes).
            Live: space pauses and resumes; n, Right or > crossfades to the next bundled preset and p, \
            Left or < to the previous (as the media keys' Next and Previous do); q or Ctrl-C fades out \
            and exits; --duration stops by itself.
            """)

    /// Shell completion offers the bundled names (a file path is still typed as usual).
    @Option(
        name: .long, help: "A bundled preset name (see --list) or a preset JSON file.",
        completion: .list(AmbientPreset.bundled.map(\.name)))
    var preset: String = "Bright_Bells"

    @Option(name: .long, help: "Seed of the composition (any whole number 0...2^64-1).")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Seconds to play (live: until stopped; with -o: 60), \(Limits.text(Limits.ambientSeconds)).")
    var duration: Double?

    @Option(name: [.short, .customLong("output")], help: "Render to this file (.wav, .flac, .ogg) instead of playing.")
    var output: String?

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var gainOption: GainOption

    @OptionGroup var sampleFormat: SampleFormatOption

    @Flag(name: .long, help: "List the bundled presets and exit.")
    var list = false

    @OptionGroup var reconnectOption: ReconnectOption
    var reconnect: Bool { reconnectOption.reconnect }

    static let defaultRenderSeconds = 60.0

    mutating func validate() throws {
        if let duration, !(duration.isFinite && Limits.ambientSeconds.contains(duration)) {
            throw ValidationError("--duration \(duration): expected seconds \(Limits.text(Limits.ambientSeconds))")
        }
        if output != nil && reconnect {
            throw ValidationError("--reconnect: only for live playback, not with -o")
        }
    }

    var sampleRate: Double { Double(rate ?? 44100) }

    func fileFormat(for path: String) -> SampleFormat { sampleFormat.format(forPath: path) }

    func run() throws {
        runReportingErrors {
            if list {
                StandardOutput.write(AmbientPreset.listing.map { $0 + "\n" }.joined())
                return
            }
            let preset = try loadPreset()
            if let output {
                try renderFile(preset, to: output)
            } else {
                try playLive(preset)
            }
        }
    }

    func loadPreset() throws -> AmbientPreset {
        do {
            return try AmbientPreset.resolve(preset)
        } catch {
            throw BoopExit(error.kind == .missingFile ? .noInput : .dataError, error.message)
        }
    }

    func renderFile(_ preset: AmbientPreset, to path: String) throws {
        let seconds = duration ?? AmbientCommand.defaultRenderSeconds
        try renderToFile(
            title: preset.name, output: path, sampleRate: sampleRate, quiet: quiet, verbose: verbose,
            detail: "\(preset.name) seed \(seed), \(fileFormat(for: path).rawValue)"
        ) { progress, shouldStop in
            try AmbientEngine.renderOffline(
                preset: preset, seed: seed, sampleRate: sampleRate, duration: seconds, to: path,
                format: fileFormat(for: path), gainDB: gainOption.gain, progress: progress, shouldStop: shouldStop)
        }
    }

    func playLive(_ preset: AmbientPreset) throws {
        let transport = try AmbientTransport(
            preset: preset, seed: seed, route: deviceOptions.route, sampleRate: sampleRate, gainDB: gainOption.gain,
            duration: duration)
        if verbose { StandardError.write(gainOption.description + "\n") }
        try transport.start()
        let session = AmbientSession(
            transport: transport, device: device, reconnect: reconnect,
            showView: !quiet && isatty(STDERR_FILENO) == 1, verbose: verbose)
        if verbose { session.describe() }
        try session.run()
    }

    /// One status line: preset, seed, key, chord, layer meters, output level, time, state; fitted
    /// into `columns` (nil: no limit) by dropping the meters first (ocean, grain, lead, pad), then
    /// the seed and the level, then the chord, then the key.
    static func view(
        preset: AmbientPreset, seed: UInt64, status s: AmbientStatus, rate: Double, paused: Bool, columns: Int? = nil
    ) -> String {
        func bar(_ rms: Float) -> String {
            let db = 20 * log10(max(Double(rms), 1e-6))
            let n = max(0, min(6, Int(((db + 54) / 9).rounded())))
            return String(repeating: "\u{2588}", count: n) + String(repeating: "\u{00B7}", count: 6 - n)
        }
        let peak = max(s.peakLeft, s.peakRight)
        let peakDb = peak > 0 ? String(cFormat: "%4.0f dB", 20 * log10(Double(peak))) : "  -inf"
        let seconds = Int(Double(s.frame) / rate)
        let state = s.finished ? "stopped" : (paused ? "paused " : (s.fading ? "fading " : "playing"))
        let fields = [
            StatusField(shown(preset.name), priority: 0), StatusField("#\(seed)", priority: 4),
            StatusField("\(s.key) \(s.scale)", priority: 2),
            StatusField(s.chord.padded(to: 7), priority: 3),
            StatusField("pad \(bar(s.levelPad))", priority: 5), StatusField("lead \(bar(s.levelLead))", priority: 6),
            StatusField("grain \(bar(s.levelGrain))", priority: 7),
            StatusField("ocean \(bar(s.levelOcean))", priority: 8), StatusField(peakDb, priority: 4),
            StatusField(String(cFormat: "%d:%02d", seconds / 60, seconds % 60), priority: 1),
            StatusField(state, priority: 0)
        ]
        return StatusLine.fit(fields, columns: columns)
    }
}

/// What `boop ambient` adds to the transport: keys, media keys, the status line and the
/// --reconnect wait with its messages. The fades, crossfades and the device are the transport's
/// (PixelBoopCore); this loop only waits for a key until the transport is due.
final class AmbientSession {
    private let transport: AmbientTransport
    /// The device as the user named it, for messages.
    private let device: String
    private let reconnect: Bool
    private let showView: Bool
    private let verbose: Bool
    private var terminal: TerminalSession?
    private var screen: ScreenOutput?
    private var loop: LiveLoop?
    private var media: MediaControls?
    private var quitRequested = false
    private var lastView = ""

    /// The status line's meters and clock are redrawn 20 times a second.
    private static let frameSeconds = 0.05

    init(transport: AmbientTransport, device: String, reconnect: Bool, showView: Bool, verbose: Bool) {
        self.transport = transport
        self.device = device
        self.reconnect = reconnect
        self.showView = showView
        self.verbose = verbose
    }

    private var stopRequested: Bool { quitRequested || Signals.interrupted }

    func run() throws {
        // Media keys / playerctl (MPRIS). Next and Previous step through the bundled presets.
        // Without a session bus ambient carries on and says so only under -v.
        media = MediaControls(
            identity: "PixelBoop", nextPrevious: true,
            onUnavailable: verbose
                ? { line in
                    StandardError.write(shown(line) + "\n")
                } : nil)
        media?.update(status: .playing, title: transport.preset.name, length: transport.duration)
        // The clock the status line shows, for the desktop's progress bar: asked of the engine
        // whenever a client reads it, so the loop never wakes for it.
        media?.setPositionSource { [transport] in Double(transport.status.frame) / transport.sampleRate }
        defer {
            media?.update(status: .stopped)
            media?.close()
        }

        // Ctrl-C, SIGTERM and q ask for the fade-out (exit 0); a second Ctrl-C exits 130 at once.
        Signals.install()
        terminal = TerminalSession.start(.keys(hideCursor: false), screen: STDERR_FILENO)
        defer { terminal?.restore() }
        screen = showView ? ScreenOutput(reopening: STDERR_FILENO) : nil
        let loop = LiveLoop(terminal: terminal, screen: screen)
        self.loop = loop
        // The stop signals' pipe stays readable once one came: it wakes the loop once.
        loop.watch(Signals.wakeDescriptor) {
            loop.unwatch(Signals.wakeDescriptor)
            return .carryOn
        }
        if let media {
            loop.watch(media.wakeDescriptor) {
                self.handleMediaCommands()
                return .carryOn
            }
        }
        loop.onKeys = { events in
            events.forEach(self.handleKey)
            return .carryOn
        }
        loop.onTurn = { try self.afterInput() ? .carryOn : .stop }
        // Nothing else is due but the end fade.
        loop.secondsUntilDue = { self.transport.secondsUntilDue(atMost: .infinity) }
        // A lost device wakes the loop at once: the playback's ended descriptor, read while the
        // transport plays on it (not while it reopens a lost one, whose descriptor stays readable).
        loop.endedDescriptor = { self.transport.deviceError == nil ? self.transport.endedDescriptor : -1 }
        if showView {
            loop.frame = { self.statusFrame() }
            loop.frameInterval = AmbientSession.frameSeconds
        }
        try loop.run()
        clearLine()
        // -v: what the stream played (its frames are the music's own time) and the device's faults.
        if verbose { StandardError.write(transport.stats.summary(sampleRate: transport.sampleRate) + "\n") }
    }

    /// After the keys and media commands of a turn: the transport ticked. False when it is over.
    private func afterInput() throws -> Bool {
        if transport.state == .playing || transport.state == .paused {
            media?.update(status: transport.isPaused ? .paused : .playing)
        }
        if stopRequested { transport.requestStop(fade: AmbientTransport.stopFadeSeconds) }
        try transport.tick()
        switch transport.state {
        case .finished, .stopped: return false
        case .waitingForDevice: guard try waitForDevice() else { return false }
        default: break
        }
        return true
    }

    /// Space pauses and resumes; n / Right / > and p / Left / < step through the bundled presets
    /// as the media keys' Next and Previous do.
    private func handleKey(_ key: InputEvent) {
        switch key {
        case .char("q"), .char("Q"): quitRequested = true
        case .char(" "): transport.setPaused(!transport.isPaused)
        case .char("n"), .char("N"), .char(">"), .arrow(.right): stepPreset(next: true)
        case .char("p"), .char("P"), .char("<"), .arrow(.left): stepPreset(next: false)
        default: break
        }
    }

    /// Crossfades to the neighbouring bundled preset (ignored once the music fades out).
    private func stepPreset(next: Bool) {
        guard transport.state != .fadingOut else { return }
        let preset = next ? transport.next() : transport.previous()
        media?.update(status: transport.isPaused ? .paused : .playing, title: preset.name, length: transport.duration)
    }

    /// Play, pause and stop as the keys do; Next and Previous crossfade to the neighbouring bundled
    /// preset over 2 s at the same loudness (a press during a crossfade waits for it to end).
    /// Once the music fades out, commands are dropped.
    private func handleMediaCommands() {
        // Every command is taken (its wake descriptor must go quiet), the late ones dropped.
        while let command = media?.poll() {
            guard transport.state != .fadingOut else { continue }
            switch command {
            case .playPause: transport.setPaused(!transport.isPaused)
            case .play: transport.setPaused(false)
            case .pause: transport.setPaused(true)
            case .stop, .quit: quitRequested = true
            case .next, .previous: stepPreset(next: command == .next)
            }
        }
    }

    /// The device is gone. Without --reconnect: exit 74. With it: the transport tries to reopen it
    /// once a second until it is back at the same rate (the generator keeps its place, so the music
    /// resumes where it stopped); q or Ctrl-C ends the wait. False when stopped meanwhile.
    private func waitForDevice() throws -> Bool {
        guard reconnect else {
            clearLine()
            terminal?.restore()
            let context = transport.deviceError?.context ?? ""
            throw BoopExit(.ioError, "\(device): playback device lost (\(context)); use --reconnect to wait for it")
        }
        let note = shown("\(device): playback device lost; waiting for it to return (Ctrl-C stops)")
        clearLine()
        StandardError.write(note + "\n")
        while !stopRequested {
            if try transport.reopenDevice() {
                StandardError.write(shown("\(device): device is back; resuming") + "\n")
                if verbose { describe() }
                return true
            }
            _ = try waitForStop(seconds: AmbientTransport.reopenInterval)
        }
        transport.requestStop()   // nothing to fade without a device: closes
        return false
    }

    /// Waits up to `seconds` in the loop (keys, media commands and stop signals wake it),
    /// returning early when a stop is requested.
    private func waitForStop(seconds: Double) throws -> Bool {
        let end = LiveLoop.now() + seconds
        while !stopRequested {
            let left = end - LiveLoop.now()
            if left <= 0 { return false }
            _ = try loop?.wait(seconds: left)
        }
        return true
    }

    func describe() {
        StandardError.write(shown(transport.info.describe(device: device)) + "\n")
    }

    /// The status line when it changed ("" when not: nothing is written).
    private func statusFrame() -> String {
        let view = AmbientCommand.view(
            preset: transport.preset, seed: transport.seed, status: transport.status, rate: transport.sampleRate,
            paused: transport.isPaused, columns: StatusLine.columns(of: STDERR_FILENO))
        guard view != lastView else { return "" }
        lastView = view
        return "\r\u{1B}[K\(view)"
    }

    private func clearLine() {
        guard showView, let screen else { return }
        // Given up to a second: a terminal that stopped reading must not hold the exit.
        screen.drain(seconds: 1)
        screen.write("\r\u{1B}[K")
        screen.drain(seconds: 1)
        lastView = ""
    }
}
