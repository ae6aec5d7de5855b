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

    func playLive(_ preset: AmbientPreset) throws {
        // Live playback needs the ALSA AudioPlayback wrapper and the terminal support files.
        throw BoopExit(.unavailable, "live ambient playback is not available in this build yet; use -o FILE.wav")
    }
}
