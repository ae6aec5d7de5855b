import ArgumentParser
import Foundation
import PixelBoopCore

struct AmbientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ambient",
        abstract: "Endless generative ambient music from a preset (live, or to a file with -o).",
        discussion: """
            A detuned pad, an FM lead on a Euclidean rhythm, a granular cloud and ocean noise through a \
            ping-pong delay and an FDN reverb, composed round the circle of fifths. The same preset, seed \
            and rate always give the same music (and with -o the same bytes).
            Live: space pauses and resumes, q or Ctrl-C fades out and exits; --duration stops by itself.
            """)

    @Option(name: .long, help: "A bundled preset name (see --list) or a preset JSON file.")
    var preset: String = "Bright_Bells"

    @Option(name: .long, help: "Seed of the composition (any whole number 0...2^64-1).")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Seconds to play (live: until stopped; with -o: 60), 0.1...86400.")
    var duration: Double?

    @Option(name: [.short, .customLong("output")], help: "Render to this file (.wav, .flac, .ogg) instead of playing.")
    var output: String?

    @Option(name: [.customShort("D"), .customLong("device")], help: "ALSA playback device (default \"default\").")
    var device: String = "default"

    @Option(name: [.short, .customLong("rate")], help: "Sample rate in Hz (default 44100).")
    var rate: Int?

    @Option(name: .long, help: "Sample format of the file: f32 or s16 (default f32 for .wav, s16 otherwise).")
    var sampleFormat: String?

    @Flag(name: .long, help: "List the bundled presets and exit.")
    var list = false

    @Flag(name: .long, help: "Live: when the device disappears, wait for it and resume instead of exiting 74.")
    var reconnect = false

    @Flag(name: .shortAndLong, help: "No terminal view or progress.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print what was negotiated or rendered.")
    var verbose = false

    static let defaultRenderSeconds = 60.0

    mutating func validate() throws {
        try validateRate(rate)
        if let duration, !(duration.isFinite && duration >= 0.1 && duration <= 86400) {
            throw ValidationError("--duration \(duration): expected seconds 0.1...86400")
        }
        if let sampleFormat, SampleFormat(rawValue: sampleFormat) == nil {
            throw ValidationError("--sample-format \(sampleFormat): expected f32 or s16")
        }
        if output != nil && reconnect {
            throw ValidationError("--reconnect: only for live playback, not with -o")
        }
        if device.isEmpty { throw ValidationError("-D/--device: expected an ALSA device name") }
    }

    var sampleRate: Double { Double(rate ?? 44100) }

    /// float32 only fits WAV; FLAC and Ogg get 16-bit unless asked otherwise.
    func fileFormat(for path: String) -> SampleFormat {
        if let sampleFormat, let format = SampleFormat(rawValue: sampleFormat) { return format }
        return path.lowercased().hasSuffix(".wav") ? .f32 : .s16
    }

    func run() throws {
        runReportingErrors {
            if list {
                for line in AmbientPreset.listing { print(line) }
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
        let interrupt = InterruptFlag.install()
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        var lastPercent = -1
        let started = Date()
        do {
            try AmbientEngine.renderOffline(
                preset: preset, seed: seed, sampleRate: sampleRate, duration: seconds, to: path,
                format: fileFormat(for: path),
                progress: showProgress ? { fraction in
                    let percent = Int(fraction * 100)
                    if percent != lastPercent {
                        lastPercent = percent
                        FileHandle.standardError.write(Data("\rrendering \(preset.name): \(percent)%".utf8))
                    }
                } : nil,
                shouldStop: { interrupt.isSet })
        } catch is CancellationError {
            if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            throw BoopExit(.interrupted, "render interrupted; \(path) was not written")
        } catch let error as AudioError {
            if case .cannotCreateFile = error { throw BoopExit(.cannotCreate, error.context) }
            throw error
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if verbose {
            let took = Date().timeIntervalSince(started)
            FileHandle.standardError.write(Data(String(
                format: "wrote %@: %@ seed %llu, %.2f s at %d Hz (%@), rendered %.0fx faster than real time\n",
                path, preset.name, seed, seconds, Int(sampleRate), fileFormat(for: path).rawValue, seconds / max(took, 1e-6)).utf8))
        }
    }

    func playLive(_ startPreset: AmbientPreset) throws {
        var preset = startPreset
        var playback = try AudioPlayback(device: device, sampleRate: sampleRate, channels: AmbientEngine.channels)
        let rate = playback.sampleRate
        var engine = try AmbientEngine(preset: preset, seed: seed, sampleRate: rate, maxBlockFrames: 4096)
        try playback.start(ambient: engine)
        if verbose { describe(playback) }

        // Media keys / playerctl (MPRIS). Next and Previous step through the bundled presets.
        // Without a session bus ambient carries on and says so only under -v.
        let media = MediaControls(identity: "PixelBoop", nextPrevious: true, onUnavailable: verbose ? { line in
            FileHandle.standardError.write(Data("\(line)\n".utf8))
        } : nil)
        media?.update(status: .playing, title: preset.name, length: duration)
        defer { media?.update(status: .stopped); media?.close() }

        LiveControls.install()
        defer { LiveControls.restoreTerminal() }
        let showView = !quiet && isatty(STDERR_FILENO) == 1
        let endFade = duration.map { AmbientEngine.endFadeSeconds(duration: $0) }
        var paused = false
        var fadingOut = false
        var lastView = ""

        while true {
            switch LiveControls.nextKey(timeoutMilliseconds: 50) {
            case " ":
                if !fadingOut {
                    paused.toggle()
                    engine.setPaused(paused, fadeSeconds: 0.25)
                }
            case "q", "Q":
                LiveControls.requestStop()
            default: break
            }
            while let command = media?.poll(), !fadingOut {
                switch command {
                case .playPause, .play, .pause:
                    let wanted = command == .playPause ? !paused : command == .pause
                    if wanted != paused {
                        paused = wanted
                        engine.setPaused(paused, fadeSeconds: 0.25)
                    }
                case .stop, .quit:
                    LiveControls.requestStop()
                case .next, .previous:
                    // Switch presets: fade the current one briefly, then a fresh engine on the same device.
                    let all = AmbientPreset.bundled
                    let index = all.firstIndex { $0.name == preset.name } ?? 0
                    let step = command == .next ? 1 : all.count - 1
                    preset = all[(index + step) % all.count]
                    engine.fadeOut(seconds: 0.1)
                    let deadline = Date().addingTimeInterval(1)
                    while !engine.status.finished && Date() < deadline { usleep(5000) }
                    playback.stop(drain: true)
                    // A stopped AudioPlayback cannot be started again: reopen, as --reconnect does.
                    playback = try AudioPlayback(device: device, sampleRate: rate, channels: AmbientEngine.channels)
                    engine = try AmbientEngine(preset: preset, seed: seed, sampleRate: rate, maxBlockFrames: 4096)
                    if paused { engine.setPaused(true, fadeSeconds: 0) }
                    try playback.start(ambient: engine)
                    media?.update(status: paused ? .paused : .playing, title: preset.name, length: duration)
                }
            }
            if !fadingOut { media?.update(status: paused ? .paused : .playing) }
            if LiveControls.stopRequested && !fadingOut {
                engine.fadeOut(seconds: 0.02)  // Ctrl-C, q, SIGTERM: the DESIGN's 20 ms fade
                fadingOut = true
            }
            let status = engine.status
            if let duration, let endFade, !fadingOut, Double(status.frame) / rate >= duration - endFade {
                engine.fadeOut(seconds: endFade)
                fadingOut = true
            }
            if fadingOut && status.finished {
                playback.stop(drain: true)  // the fade is already in the device buffer: let it play
                break
            }
            if let error = playback.stats.error {
                playback.stop()
                guard reconnect else {
                    if showView { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                    LiveControls.restoreTerminal()
                    throw BoopExit(.ioError, "\(device): playback device lost (\(error.context)); use --reconnect to wait for it")
                }
                guard let resumed = waitForDevice(rate: rate, showView: showView) else { break }
                playback = resumed
                try playback.start(ambient: engine)
                if verbose { describe(playback) }
            }
            if showView {
                let view = AmbientCommand.view(preset: preset, seed: seed, status: status, rate: rate, paused: paused)
                if view != lastView {
                    FileHandle.standardError.write(Data("\r\u{1B}[K\(view)".utf8))
                    lastView = view
                }
            }
        }
        if showView { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// With --reconnect: reopens the device once a second until it is back at the same rate (the
    /// generator keeps its place, so the music resumes where it stopped). nil when stopped meanwhile.
    func waitForDevice(rate: Double, showView: Bool) -> AudioPlayback? {
        let note = "\(device): playback device lost; waiting for it to return (Ctrl-C stops)"
        FileHandle.standardError.write(Data(((showView ? "\r\u{1B}[K" : "") + note + "\n").utf8))
        while !LiveControls.stopRequested {
            if let playback = try? AudioPlayback(device: device, sampleRate: rate, channels: AmbientEngine.channels),
               playback.sampleRate == rate {
                FileHandle.standardError.write(Data("\(device): device is back; resuming\n".utf8))
                return playback
            }
            for _ in 0..<20 where !LiveControls.stopRequested {
                if LiveControls.nextKey(timeoutMilliseconds: 50) == "q" { LiveControls.requestStop() }
            }
        }
        return nil
    }

    func describe(_ playback: AudioPlayback) {
        let i = playback.info
        FileHandle.standardError.write(Data(String(
            format: "%@: %@, %d Hz, %d ch, period %d, buffer %d frames (%.1f ms)%@\n",
            device, i.format, Int(i.sampleRate), i.channels, i.periodFrames, i.bufferFrames,
            i.bufferSeconds * 1000, i.realtime ? ", SCHED_FIFO" : "").utf8))
    }

    /// One status line: preset, seed, key, chord, layer meters, output level, time.
    static func view(preset: AmbientPreset, seed: UInt64, status s: AmbientStatus, rate: Double, paused: Bool) -> String {
        func bar(_ rms: Float) -> String {
            let db = 20 * log10(max(Double(rms), 1e-6))
            let n = max(0, min(6, Int(((db + 54) / 9).rounded())))
            return String(repeating: "\u{2588}", count: n) + String(repeating: "\u{00B7}", count: 6 - n)
        }
        let peak = max(s.peakLeft, s.peakRight)
        let peakDb = peak > 0 ? String(format: "%4.0f dB", 20 * log10(Double(peak))) : "  -inf"
        let seconds = Int(Double(s.frame) / rate)
        let state = s.finished ? "stopped" : (paused ? "paused " : (s.fading ? "fading " : "playing"))
        return "\(preset.name) #\(seed)  \(s.key) \(s.scale)  \(s.chord.padding(toLength: 7, withPad: " ", startingAt: 0))"
            + " pad \(bar(s.levelPad)) lead \(bar(s.levelLead)) grain \(bar(s.levelGrain)) ocean \(bar(s.levelOcean))"
            + "  \(peakDb)  \(String(format: "%d:%02d", seconds / 60, seconds % 60))  \(state)"
    }
}

/// Keys and signals of a live session. Ctrl-C, SIGTERM and q request a fade-out (exit 0); a second
/// Ctrl-C exits 130 at once. The terminal goes to non-canonical, no-echo mode while playing, and
/// every way out restores it, including from the signal handler (tcsetattr is async-signal-safe).
enum LiveControls {
    nonisolated(unsafe) private static var interrupts: sig_atomic_t = 0
    nonisolated(unsafe) private static var terminations: sig_atomic_t = 0
    nonisolated(unsafe) private static var quit: sig_atomic_t = 0
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var rawMode: sig_atomic_t = 0

    static var stopRequested: Bool { interrupts > 0 || terminations > 0 || quit > 0 }
    static func requestStop() { quit = 1 }

    static func install() {
        signal(SIGINT) { _ in
            LiveControls.interrupts += 1
            if LiveControls.interrupts > 1 {
                if LiveControls.rawMode != 0 { tcsetattr(STDIN_FILENO, TCSANOW, &LiveControls.saved) }
                _exit(130)
            }
        }
        signal(SIGTERM) { _ in LiveControls.terminations += 1 }
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)  // ISIG stays: Ctrl-C is still a signal
        raw.c_cc.6 = 0  // VMIN
        raw.c_cc.5 = 0  // VTIME
        if tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 { rawMode = 1 }
    }

    static func restoreTerminal() {
        if rawMode != 0 {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            rawMode = 0
        }
    }

    /// The next key pressed, waiting at most `timeoutMilliseconds` (also the loop's pacing).
    static func nextKey(timeoutMilliseconds: Int32) -> Character? {
        guard rawMode != 0 else {
            usleep(useconds_t(timeoutMilliseconds) * 1000)
            return nil
        }
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, timeoutMilliseconds) > 0 else { return nil }
        var byte: UInt8 = 0
        guard read(STDIN_FILENO, &byte, 1) == 1 else { return nil }
        return Character(UnicodeScalar(byte))
    }
}
