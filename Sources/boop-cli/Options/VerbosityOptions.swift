import ArgumentParser

/// What -v/--verbose prints in one command: its help line.
protocol VerboseDetail {
    static var verboseHelp: String { get }
}

/// `-v/--verbose` and `-q/--quiet` of a command that plays or listens live: at most one of them.
/// -q prints nothing but errors everywhere; what -v adds is the command's own (`Detail`).
struct VerbosityOptions<Detail: VerboseDetail>: ParsableArguments {
    @Flag(name: .shortAndLong, help: ArgumentHelp(Detail.verboseHelp))
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// Called from the command's own validation, where its other checks place it.
    func check() throws {
        if verbose && quiet { throw ValidationError("-v/--verbose and -q/--quiet: expected at most one of them") }
    }
}
