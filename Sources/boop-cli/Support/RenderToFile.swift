import Glibc
import PixelBoopCore

/// The contract every `-o` render shares (render, tone, ambient): Ctrl-C is polled between blocks
/// and ends with exit 130 and no file; a percentage shows on stderr when it is a terminal; an
/// output that cannot be created is exit 73; `-v` reports the length and the speed.
/// `body` gets the progress callback (nil when hidden) and the stop test, and returns the frames
/// written.
func renderToFile(
    title: String, output: String, sampleRate: Double, quiet: Bool, verbose: Bool,
    detail: @autoclosure () -> String = "",
    _ body: (_ progress: ((Double) -> Void)?, _ shouldStop: () -> Bool) throws -> UInt64
) throws {
    Signals.install()
    try checkOutput(output)
    let showProgress = !quiet && isatty(STDERR_FILENO) == 1
    var lastPercent = -1
    let started = Timestamp()
    let progress: ((Double) -> Void)? =
        showProgress
        ? { fraction in
            let percent = Int(fraction * 100)
            if percent != lastPercent {
                lastPercent = percent
                StandardError.write("\rrendering \(shown(title)): \(percent)%")
            }
        } : nil
    let frames: UInt64
    do {
        frames = try body(progress, { Signals.interrupted })
    } catch is CancellationError {
        if showProgress { StandardError.write("\n") }
        throw interruptedExit(output)
    } catch let error as AudioError {
        if case .cannotCreateFile = error { throw BoopExit(.cannotCreate, error.context) }
        throw error
    }
    if showProgress { StandardError.write("\r\u{1B}[K") }
    if verbose {
        let seconds = Double(frames) / sampleRate
        let took = Timestamp().timeIntervalSince(started)
        let extra = detail()
        // The names in it (the output, a pattern's or preset's name) are shown escaped.
        StandardError.write(
            shown(
                String(
                    cFormat: "wrote %@: %@%.2f s at %d Hz, rendered %.0fx faster than real time",
                    output, extra.isEmpty ? "" : extra + ", ", seconds, Int(sampleRate), seconds / max(took, 1e-6)))
                + "\n")
    }
}

/// What a render stopped by a signal ends with: 130, or 74 when the terminal hung up (a closed
/// terminal is an I/O failure of the session, not the user's Ctrl-C).
func interruptedExit(_ output: String) -> BoopExit {
    if Signals.firstSignal == SIGHUP {
        return BoopExit(.ioError, "the terminal hung up (SIGHUP) during the render; \(output) was not written")
    }
    return BoopExit(.interrupted, "render interrupted; \(output) was not written")
}

/// The same contract for a Standard MIDI File: a stop signal ends the write between pieces of the
/// file (130, no file), an output that cannot be created is 73. `write` gets the stop test and
/// returns false when it stopped.
func writeMidiFile(output: String, _ write: (_ shouldStop: @escaping () -> Bool) throws -> Bool) throws {
    Signals.install()
    try checkOutput(output)
    guard try write({ Signals.interrupted }) else { throw interruptedExit(output) }
}

/// Refuses an output that cannot be created (a directory, a device, a missing or read-only
/// folder, a name too long for the file system) with exit 73 before any rendering starts.
func checkOutput(_ output: String) throws {
    do {
        try OutputPath.check(output)
    } catch {
        throw BoopExit(.cannotCreate, error.context)
    }
}
