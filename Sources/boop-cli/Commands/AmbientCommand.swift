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

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var gainOption: GainOption
    var device: String { deviceOptions.device }
    var rate: Int? { deviceOptions.rate }
    var quiet: Bool { deviceOptions.quiet }
    var verbose: Bool { deviceOptions.verbose }

    @Option(name: .long, help: "Sample format of the file: f32 or s16 (default f32 for .wav, s16 otherwise).")
    var sampleFormat: String?

    @Flag(name: .long, help: "List the bundled presets and exit.")
    var list = false

    @Flag(name: .long, help: "Live: when the device disappears, wait for it and resume instead of exiting 74.")
    var reconnect = false

    static let defaultRenderSeconds = 60.0
    /// Preset changes (next/previous) crossfade over this long.
    static let crossfadeSeconds = 2.0

    mutating func validate() throws {
        if let duration, !(duration.isFinite && duration >= 0.1 && duration <= 86400) {
            throw ValidationError("--duration \(duration): expected seconds 0.1...86400")
        }
        if let sampleFormat, SampleFormat(rawValue: sampleFormat) == nil {
            throw ValidationError("--sample-format \(sampleFormat): expected f32 or s16")
        }
        if output != nil && reconnect {
            throw ValidationError("--reconnect: only for live playback, not with -o")
        }
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
        try renderToFile(
            title: preset.name, output: path, sampleRate: sampleRate, quiet: quiet, verbose: verbose,
            detail: "\(preset.name) seed \(seed), \(fileFormat(for: path).rawValue)"
        ) { progress, shouldStop in
            try AmbientEngine.renderOffline(
                preset: preset, seed: seed, sampleRate: sampleRate, duration: seconds, to: path,
                format: fileFormat(for: path), gainDB: gainOption.gain, progress: progress, shouldStop: shouldStop)
        }
    }

    func playLive(_ startPreset: AmbientPreset) throws {
        var preset = startPreset
        var playback = try AudioPlayback(route: deviceOptions.route, sampleRate: sampleRate, channels: AmbientEngine.channels)
        playback.gainDB = gainOption.gain
        if verbose { StandardError.write(gainOption.description + "\n") }
        let rate = playback.sampleRate
        var engine = try AmbientEngine(preset: preset, seed: seed, sampleRate: rate, maxBlockFrames: 4096)
        // Preset changes crossfade inside one stream: no device reopen, no gap.
        let mixer = try AmbientCrossfader(first: engine)
        try playback.start(ambient: mixer)
        if verbose { describe(playback) }

        // Media keys / playerctl (MPRIS). Next and Previous step through the bundled presets.
        // Without a session bus ambient carries on and says so only under -v.
        let media = MediaControls(
            identity: "PixelBoop", nextPrevious: true,
            onUnavailable: verbose
                ? { line in
                    FileHandle.standardError.send(Data("\(line)\n".utf8))
                } : nil)
        media?.update(status: .playing, title: preset.name, length: duration)
        defer {
            media?.update(status: .stopped)
            media?.close()
        }

        // Ctrl-C, SIGTERM and q ask for the fade-out (exit 0); a second Ctrl-C exits 130 at once.
        Signals.install()
        let keys = Keyboard.open()
        defer { keys?.restore() }
        var quitRequested = false
        func stopRequested() -> Bool { quitRequested || Signals.interrupted }
        /// Waits up to 50 ms for a key: the loop's pacing.
        func nextKey() -> Keyboard.Key? {
            if let keys { return keys.wait(timeoutMilliseconds: 50) }
            usleep(50_000)
            return nil
        }
        let showView = !quiet && isatty(STDERR_FILENO) == 1
        let endFade = duration.map { AmbientEngine.endFadeSeconds(duration: $0) }
        var paused = false
        var fadingOut = false
        var wantedPreset: AmbientPreset?
        var lastView = ""

        while true {
            switch nextKey() {
            case .space:
                if !fadingOut {
                    paused.toggle()
                    engine.setPaused(paused, fadeSeconds: 0.25)
                    mixer.outgoing?.setPaused(paused, fadeSeconds: 0.25)
                }
            case .quit:
                quitRequested = true
            default: break
            }
            while let command = media?.poll(), !fadingOut {
                switch command {
                case .playPause, .play, .pause:
                    let wanted = command == .playPause ? !paused : command == .pause
                    if wanted != paused {
                        paused = wanted
                        engine.setPaused(paused, fadeSeconds: 0.25)
                        mixer.outgoing?.setPaused(paused, fadeSeconds: 0.25)
                    }
                case .stop, .quit:
                    quitRequested = true
                case .next, .previous:
                    // The next preset crossfades in over 2 s at the same loudness (a press during
                    // a crossfade waits for it to end).
                    let all = AmbientPreset.bundled
                    let index = all.firstIndex { $0.name == preset.name } ?? 0
                    let step = command == .next ? 1 : all.count - 1
                    preset = all[(index + step) % all.count]
                    wantedPreset = preset
                    media?.update(status: paused ? .paused : .playing, title: preset.name, length: duration)
                }
            }
            mixer.collect()
            if let wanted = wantedPreset, !mixer.isFading, !fadingOut {
                wantedPreset = nil
                let next = try AmbientEngine(preset: wanted, seed: seed, sampleRate: rate, maxBlockFrames: 4096)
                if paused { next.setPaused(true, fadeSeconds: 0) }
                try mixer.fade(to: next, seconds: AmbientCommand.crossfadeSeconds)
                engine = next
            }
            if !fadingOut { media?.update(status: paused ? .paused : .playing) }
            if stopRequested() && !fadingOut {
                engine.fadeOut(seconds: 0.02)   // Ctrl-C, q, SIGTERM: the 20 ms fade
                mixer.outgoing?.fadeOut(seconds: 0.02)
                fadingOut = true
            }
            let status = engine.status
            if let duration, let endFade, !fadingOut, Double(status.frame) / rate >= duration - endFade {
                engine.fadeOut(seconds: endFade)
                mixer.outgoing?.fadeOut(seconds: endFade)
                fadingOut = true
            }
            if fadingOut && status.finished && (mixer.outgoing?.status.finished ?? true) {
                playback.stop(drain: true)   // the fade is already in the device buffer: let it play
                break
            }
            if let error = playback.stats.error {
                playback.stop()
                guard reconnect else {
                    if showView { FileHandle.standardError.send(Data("\r\u{1B}[K".utf8)) }
                    keys?.restore()
                    throw BoopExit(.ioError, "\(device): playback device lost (\(error.context)); use --reconnect to wait for it")
                }
                guard
                    let resumed = waitForDevice(
                        rate: rate, showView: showView,
                        stopRequested: {
                            if nextKey() == .quit { quitRequested = true }
                            return stopRequested()
                        })
                else { break }
                playback = resumed
                playback.gainDB = gainOption.gain
                try playback.start(ambient: mixer)
                if verbose { describe(playback) }
            }
            if showView {
                let view = AmbientCommand.view(preset: preset, seed: seed, status: status, rate: rate, paused: paused)
                if view != lastView {
                    FileHandle.standardError.send(Data("\r\u{1B}[K\(view)".utf8))
                    lastView = view
                }
            }
        }
        if showView { FileHandle.standardError.send(Data("\r\u{1B}[K".utf8)) }
    }

    /// With --reconnect: reopens the device once a second until it is back at the same rate (the
    /// generator keeps its place, so the music resumes where it stopped). nil when stopped meanwhile.
    /// `stopRequested` also paces the wait (it waits for a key for up to 50 ms).
    func waitForDevice(rate: Double, showView: Bool, stopRequested: () -> Bool) -> AudioPlayback? {
        let note = "\(device): playback device lost; waiting for it to return (Ctrl-C stops)"
        FileHandle.standardError.send(Data(((showView ? "\r\u{1B}[K" : "") + note + "\n").utf8))
        while !stopRequested() {
            if let playback = try? AudioPlayback(route: deviceOptions.route, sampleRate: rate, channels: AmbientEngine.channels),
                playback.sampleRate == rate
            {
                FileHandle.standardError.send(Data("\(device): device is back; resuming\n".utf8))
                return playback
            }
            for _ in 0..<20 where !stopRequested() {}
        }
        return nil
    }

    func describe(_ playback: AudioPlayback) {
        FileHandle.standardError.send(Data((playback.info.describe(device: device) + "\n").utf8))
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
