import ArgumentParser
import Foundation
import PixelBoopCore

@main
struct Boop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boop",
        abstract: "PixelBoop: play and render step-sequencer patterns, tuned tones, capture and ambient music.",
        version: PixelBoopVersion.string,
        subcommands: [
            PlayCommand.self,
            EditCommand.self,
            RenderCommand.self,
            ToneCommand.self,
            AmbientCommand.self,
            ListenCommand.self, DevicesCommand.self,
            TrainCommand.self
        ]
    )

    /// Parses and runs like ArgumentParser's own main, except that a usage error is exactly one
    /// line on stderr (`boop: <what was wrong>`) with exit 64 — the tool-wide error contract —
    /// instead of the message followed by the usage block.
    static func main() async {
        // A reader that went away (EPIPE) and the file-size limit (EFBIG) are errors each write
        // reports and each command handles, not signals that kill the process and strand a
        // temporary file. SIGQUIT ends a command that does not handle it without the runtime's
        // crash backtrace (live commands and renders treat it like SIGTERM).
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGQUIT, SIG_DFL)
        // ArgumentParser answers `boop help nope` with the root help and exit 0; a misspelt
        // subcommand is a usage error like any other.
        let args = Array(CommandLine.arguments.dropFirst())
        if args.first == "help", args.count > 1, !args[1].hasPrefix("-") {
            let names = configuration.subcommands.compactMap { $0.configuration.commandName }
            if !names.contains(args[1]) {
                StandardError.line("help \(args[1]): unknown subcommand (expected one of \(names.joined(separator: ", ")))")
                Foundation.exit(ExitStatus.usage.rawValue)
            }
        }
        do {
            var command = try parseAsRoot(ToneCommand.liftNotes(from: args))
            if let notes = ToneCommand.liftedNotes, var tone = command as? ToneCommand {
                tone.notes = notes
                command = tone
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is CleanExit || error is ExitCode {
                exit(withError: error)
            }
            let message =
                Boop.message(for: error)
                .split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            StandardError.line(message)
            Foundation.exit(code.rawValue)
        }
    }
}
