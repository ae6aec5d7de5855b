import PixelBoopCore

/// A training trial's tones, for every exercise: appended to the file with `tail` seconds of
/// silence after them, or played on the device until heard, waiting in the session's loop (q or
/// a stop signal ends them at once).
func soundTrial(
    _ sequence: ToneSequence, writer: AudioFileWriter?, player: SineWaveNotePlayer?, tail: Double, loop: CommandLoop
) throws {
    if let writer {
        var renderer = ToneRenderer(sequence: sequence)
        renderer.tailSeconds = tail
        do {
            try renderer.render { try writer.write($0) }
        } catch let e as AudioError {
            throw BoopExit(e)
        }
    } else if let player {
        _ = try player.play(sequence, waiting: loop.wait(seconds:))
    }
}
