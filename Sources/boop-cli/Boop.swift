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
            RenderCommand.self,
            ToneCommand.self,
            AmbientCommand.self,
            ListenCommand.self, DevicesCommand.self,
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
        do {
            var command = try parseAsRoot()
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
            let message = Boop.message(for: error)
                .split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            printError("boop: \(message)")
            Foundation.exit(code.rawValue)
        }
    }
}
