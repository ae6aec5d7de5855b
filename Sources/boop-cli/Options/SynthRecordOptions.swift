import ArgumentParser
import PixelBoopCore

/// `synth --record FILE`: what the synth plays, as audio or as the MIDI it received.
struct SynthRecordOptions: ParsableArguments {
    static let extensions = ["wav", "flac", "ogg", "mid"]

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Record what is played: .wav (32-bit float), .flac (16-bit), .ogg, or .mid (the MIDI messages on their frames).",
            valueName: "file"))
    var record: String?

    func check() throws {
        guard let record else { return }
        let ext = record.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if !record.contains(".") || !Self.extensions.contains(ext) {
            throw ValidationError("--record \(shown(record)): expected a name ending in .wav, .flac, .ogg or .mid")
        }
    }

    /// Opens the file before the synth starts, so that a path that cannot be written fails before
    /// anything plays.
    func begin(_ synth: LiveSynth) throws {
        if let record { try synth.record(to: record) }
    }

    /// After the synth stopped: the file renamed into place (or nothing under its name, exit 74).
    func finish(_ synth: LiveSynth, log: (String) -> Void) throws {
        guard let record else { return }
        let dropped = try synth.finishRecording(path: record)
        if dropped > 0 { log("--record \(record): the writer fell behind; \(dropped) frames or messages are missing") }
    }
}
