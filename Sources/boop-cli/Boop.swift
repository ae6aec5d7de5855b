import ArgumentParser
import PixelBoopCore

@main
struct Boop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boop",
        abstract: "PixelBoop: play and render step-sequencer patterns, tuned tones, capture and ambient music.",
        version: PixelBoopVersion.string,
        subcommands: [
            RenderCommand.self,
        ]
    )
}
