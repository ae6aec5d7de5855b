import ArgumentParser
import PixelBoopCore

extension AudioBackend: ExpressibleByArgument {}

/// The device flags every sound-making command shares. `rate` stays optional so each command
/// applies its own default (44100 Hz for playback, 16000 Hz for capture).
struct DeviceOptions: ParsableArguments {
    @Option(
        name: [.customShort("D"), .customLong("device")],
        help: "ALSA PCM name (e.g. default, pulse, hw:0,0, plughw:1,0); see `boop devices`.")
    var device: String = "default"

    @Option(name: [.customShort("r"), .customLong("rate")], help: "Sample rate in Hz (\(Limits.text(Limits.sampleRate))).")
    var rate: Int?

    @Option(
        name: .long,
        help: "Sound system: alsa (default) or jack (a client 'boop' of the running JACK server, at its rate and buffer size).")
    var backend: AudioBackend = .alsa

    @Flag(
        name: .customLong("no-connect"),
        help:
            "With --backend jack: leave boop's ports unconnected (route them yourself) instead of linking them to the system ports."
    )
    var noConnect = false

    @OptionGroup var verbosity: VerbosityOptions<DeviceOptions>

    static let rateRange = Limits.sampleRate

    mutating func validate() throws {
        if device.isEmpty {
            throw ValidationError("-D/--device: expected an ALSA PCM name such as default or hw:0,0")
        }
        if noConnect && backend != .jack {
            throw ValidationError("--no-connect: only with --backend jack (ALSA has no ports to connect)")
        }
        try validateRate(rate)
        try verbosity.check()
    }

    var verbose: Bool { verbosity.verbose }
    var quiet: Bool { verbosity.quiet }

    /// Where the sound goes (or comes from).
    var route: AudioRoute { AudioRoute(device: device, backend: backend, connect: !noConnect) }

    /// The requested rate, or `defaultRate` when -r was not given.
    func sampleRate(default defaultRate: Double) -> Double {
        rate.map(Double.init) ?? defaultRate
    }
}

extension DeviceOptions: VerboseDetail {
    static let verboseHelp = "Print what was negotiated with the device (and recoveries)."
}

/// A command with the device flags: their values read as the command's own (`device`,
/// `verbose` ...), in one place rather than forwarded in each command.
protocol DeviceCommand {
    var deviceOptions: DeviceOptions { get }
}

extension DeviceCommand {
    var device: String { deviceOptions.device }
    var rate: Int? { deviceOptions.rate }
    var quiet: Bool { deviceOptions.quiet }
    var verbose: Bool { deviceOptions.verbose }
}
