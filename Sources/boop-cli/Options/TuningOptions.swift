import ArgumentParser
import PixelBoopCore

/// `--scl FILE [--kbm FILE]`: a Scala tuning, for every command that sounds keys.
struct TuningOptions: ParsableArguments {
    @Option(
        name: .customLong("scl"),
        help: ArgumentHelp(
            "Tune the keys by a Scala scale (.scl): every key at the scale's degree for it.", valueName: "file"))
    var scale: String?

    @Option(
        name: .customLong("kbm"),
        help: ArgumentHelp(
            "Place the --scl scale by a Scala keyboard mapping (.kbm): its key range, middle key, reference key and frequency (default: degree 0 on C4 at 261.626 Hz, one key per degree).",
            valueName: "file"))
    var mapping: String?

    /// `--reference HZ` (A4) of a trainer: a Scala tuning places A4 itself, so both together are
    /// refused (440, the default, is taken as not given).
    func check(reference: Double) throws {
        if scale != nil && reference != 440 {
            throw ValidationError("--reference \(reference): the --scl tuning places A4 itself; expected one of them")
        }
    }

    /// The tuning, or nil without --scl. 66 when a file cannot be read, 65 when one is malformed
    /// (naming the file, the line and what was expected), 64 for --kbm alone.
    func load() throws -> ScalaTuning? {
        guard let scale else {
            if mapping != nil { throw BoopExit(.usage, "--kbm: a keyboard mapping places a scale; expected --scl FILE with it") }
            return nil
        }
        do {
            return try ScalaTuning.load(scale: scale, mapping: mapping)
        } catch {
            throw BoopExit(error.kind == .missingFile ? .noInput : .dataError, error.message)
        }
    }
}
