import ArgumentParser
import Foundation
import PixelBoopCore

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a pattern to an audio file (WAV, FLAC or OGG by extension) or a MIDI file (.mid).",
        discussion: "The same arguments always give the same bytes. The file is written under a temporary name and renamed when complete; an interrupted render exits 130 and leaves no file.")

    @OptionGroup var patternOptions: PatternOptions

    @Option(name: [.short, .customLong("output")], help: "The file to write (.wav, .flac, .ogg; .mid or .midi for a Standard MIDI File).")
    var output: String

    @Option(name: [.short, .customLong("rate")], help: "Sample rate in Hz (default 44100).")
    var rate: Int?

    @Option(name: .long, help: "Sample format: f32 or s16 (default f32).")
    var sampleFormat: String = "f32"

    @Flag(name: .shortAndLong, help: "No progress output.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print what was rendered.")
    var verbose = false

    mutating func validate() throws {
        try validateRate(rate)
        guard SampleFormat(rawValue: sampleFormat) != nil else {
            throw ValidationError("--sample-format \(sampleFormat): expected f32 or s16")
        }
    }

    func run() throws {
        runReportingErrors {
            let pattern = try patternOptions.loadPattern()
            // A MIDI file holds the notes, not sound: no engine, so --rate, --voices and
            // --sample-format do not apply. Same temporary-name-then-rename contract as audio.
            let lowered = output.lowercased()
            if lowered.hasSuffix(".mid") || lowered.hasSuffix(".midi") {
                let loops = patternOptions.loops ?? 1
                try MidiFileWriter.write(pattern, loops: loops, to: output)
                if verbose {
                    FileHandle.standardError.write(Data(String(
                        format: "wrote %@: Standard MIDI File, %d track(s) + tempo track, %d loop(s) at %g bpm\n",
                        output, pattern.tracks.count, loops, pattern.bpm).utf8))
                }
                return
            }
            var renderer = PatternRenderer(pattern: pattern)
            renderer.sampleRate = Double(rate ?? 44100)
            renderer.voices = patternOptions.voices
            renderer.loops = patternOptions.loops ?? 1
            let interrupt = InterruptFlag.install()
            let showProgress = !quiet && isatty(STDERR_FILENO) == 1
            var lastPercent = -1
            let started = Date()
            let frames: UInt64
            do {
                frames = try renderer.render(
                    to: output, format: SampleFormat(rawValue: sampleFormat)!,
                    progress: showProgress ? { fraction in
                        let percent = Int(fraction * 100)
                        if percent != lastPercent {
                            lastPercent = percent
                            FileHandle.standardError.write(Data("\rrendering \(pattern.name): \(percent)%".utf8))
                        }
                    } : nil,
                    shouldStop: { interrupt.isSet })
            } catch is CancellationError {
                if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
                throw BoopExit(.interrupted, "render interrupted; \(output) was not written")
            } catch let error as AudioError {
                if case .cannotCreateFile = error { throw BoopExit(.cannotCreate, error.context) }
                throw error
            }
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if verbose {
                let seconds = Double(frames) / renderer.sampleRate
                let took = Date().timeIntervalSince(started)
                FileHandle.standardError.write(Data(String(
                    format: "wrote %@: %.2f s at %d Hz (%@), rendered %.0fx faster than real time\n",
                    output, seconds, Int(renderer.sampleRate), sampleFormat, seconds / max(took, 1e-6)).utf8))
            }
        }
    }
}
