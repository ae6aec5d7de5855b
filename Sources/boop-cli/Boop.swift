import ArgumentParser
import CAudioEngine
import Glibc
import PixelBoopCore

@main
struct Boop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boop",
        abstract: "PixelBoop: play and render step-sequencer patterns, tuned tones, capture and ambient music.",
        version: PixelBoopVersion.string,
        subcommands: [
            PlayCommand.self,
            SynthCommand.self,
            EditCommand.self,
            RenderCommand.self,
            ToneCommand.self,
            AmbientCommand.self,
            ListenCommand.self, TranscribeCommand.self, DevicesCommand.self,
            TrainCommand.self
        ]
    )

    /// Parses and runs like ArgumentParser's own main, except that a usage error is exactly one
    /// line on stderr (`boop: <what was wrong>`) with exit 64 — the tool-wide error contract —
    /// instead of the message followed by the usage block.
    static func main() async {
        // The stop-signal handlers first (they were put in place before main too, see
        // `boopEarlySignals`): a Ctrl-\ now is handled like SIGTERM, never the runtime's
        // crash report. A reader that went away (EPIPE) and the file-size limit (EFBIG) are errors
        // each write reports and each command handles, not signals that kill the process and
        // strand a temporary file.
        Signals.installEarly()
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // Two malloc arenas at most: glibc reserves up to 128 MiB of address space for each
        // thread's own, and boop's few threads allocate little (the audio threads not at all).
        // Under `ulimit -v` that reservation was what ran out first, in whichever thread came
        // next; the limit now goes to what boop itself uses.
        _ = boop_malloc_arenas_limit(2)
        // The Pulse client library logs to stderr ("ftruncate() failed: File too large" under
        // `ulimit -f`, when it falls back from shared memory), which breaks the one-line error
        // contract: its messages go to the system log, unless the user chose a log target.
        if getenv("PULSE_LOG_JOURNAL") == nil { setenv("PULSE_LOG_SYSLOG", "1", 0) }
        // The arguments' own bytes: a file name need not be UTF-8 (see RawBytes).
        let args = (0..<Int(max(CommandLine.argc, 0))).dropFirst().map { i in
            CommandLine.unsafeArgv[i].map { RawBytes.argument($0) } ?? ""
        }
        refuseEarly(args)
        do {
            var command = try parseAsRoot(ToneCommand.liftNotes(from: NegativeValues.joined(args)))
            if let notes = ToneCommand.liftedNotes, var tone = command as? ToneCommand {
                tone.notes = notes
                command = tone
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                // An async command runs on the concurrency runtime's threads, and libdispatch
                // retries for ever when it cannot start one (`ulimit -v`): a clear error instead.
                do { try Signals.checkThreadsCanStart() } catch { fail(error) }
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // Help and --version go through the checked writer: `boop --help >/dev/full` is 74.
                let text = Boop.fullMessage(for: error)
                if !text.isEmpty { StandardOutput.write(text + "\n") }
                Glibc.exit(ExitStatus.ok.rawValue)
            }
            if error is CleanExit || error is ExitCode {
                exit(withError: error)
            }
            let message =
                Boop.message(for: error)
                .split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            StandardError.line(message)
            Glibc.exit(code.rawValue)
        }
    }
}

extension Boop {
    /// What is refused before parsing: `boop help nope`, and hexadecimal numbers.
    static func refuseEarly(_ args: [String]) {
        // ArgumentParser answers `boop help nope` with the root help and exit 0; a misspelt
        // subcommand is a usage error like any other.
        if args.first == "help", args.count > 1, !args[1].hasPrefix("-") {
            let names = configuration.subcommands.compactMap { $0.configuration.commandName }
            if !names.contains(args[1]) {
                StandardError.line("help \(args[1]): unknown subcommand (expected one of \(names.joined(separator: ", ")))")
                Glibc.exit(ExitStatus.usage.rawValue)
            }
        }
        if let refusal = HexNumbers.refusal(args) {
            StandardError.line(refusal)
            Glibc.exit(ExitStatus.usage.rawValue)
        }
    }
}

/// The stop-signal handlers before anything else runs, even the libraries' initialisers: the
/// Swift runtime's crash reporter takes SIGQUIT as it loads unless a handler is already there,
/// and the libraries after it (Foundation, ICU) take ~10 ms to start, so a Ctrl-\ in that window
/// printed a 44-line backtrace. `.preinit_array` is run by the dynamic loader first of all.
/// Before them, a closed standard descriptor gets /dev/null, so no file opened later (a WAV, the
/// history, the signal pipe) takes its number and receives what was meant for stdout or stderr.
@used @section(".preinit_array")
let boopEarlySignals: @convention(c) () -> Void = {
    _ = boop_standard_descriptors_reserve()
    _ = boop_stop_signals_install(-1)
}
