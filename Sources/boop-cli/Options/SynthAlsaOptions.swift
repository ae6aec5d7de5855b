import ArgumentParser
import PixelBoopCore

/// `boop synth`'s flags for the ALSA backend: the PCM it plays through (as `play -D`), its period
/// (also the delay between a sequencer event's arrival and its frame) and the sources to play from.
struct SynthAlsaOptions: ParsableArguments {
    static let defaultRate = Int(LiveSynthAlsa.defaultSampleRate)

    @Option(
        name: [.customShort("D"), .customLong("device")],
        help: "ALSA PCM to play through (default, pulse, hw:0,0, ...; see `boop devices`).")
    var device: String = "default"

    @Option(
        name: [.customShort("r"), .customLong("rate")],
        help: "Sample rate in Hz (\(Limits.text(Limits.sampleRate)), default \(defaultRate)).")
    var rate: Int = defaultRate

    @Option(
        name: .customLong("period-frames"),
        help:
            "ALSA period in frames (\(Limits.text(Limits.periodFrames)), default \(LiveSynthAlsa.defaultPeriodFrames)): MIDI events sound one period after they arrive."
    )
    var period: Int = LiveSynthAlsa.defaultPeriodFrames

    @Option(
        name: .customLong("midi"),
        help: "Play from this ALSA sequencer source: client:port (24:0), a client number, or part of its name; repeatable.")
    var midi: [String] = []

    mutating func validate() throws {
        if device.isEmpty { throw ValidationError("-D/--device: expected an ALSA PCM name such as default or hw:0,0") }
        try validateRange(rate, Limits.sampleRate, option: "-r/--rate", unit: "Hz")
        try validatePeriods(periodFrames: period, periods: nil)
    }

    /// Whether any ALSA-only flag was given (refused with --backend jack).
    var given: Bool {
        device != "default" || rate != Self.defaultRate || period != LiveSynthAlsa.defaultPeriodFrames || !midi.isEmpty
    }

    var config: LiveSynthAlsa { LiveSynthAlsa(device: device, sampleRate: Double(rate), periodFrames: period) }
}
