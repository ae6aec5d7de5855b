import ArgumentParser
import Glibc
import PixelBoopCore

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the ALSA playback and capture devices (the default marked *), and the JACK ports when a server runs.",
        discussion: """
            Any ALSA NAME shown can be passed as -D NAME to play, tone, ambient and listen. Hardware \
            devices are also reachable as hw:CARD,DEV (raw) or plughw:CARD,DEV (with conversion). \
            With a JACK server running, its audio ports are listed too: --backend jack plays into \
            (or records from) them, connected to the system ports unless --no-connect. MIDI ports \
            follow: the ALSA sequencer's (where /dev/snd/seq exists) and JACK's MIDI ports.
            """)

    @Flag(name: .long, help: "Print a JSON array of {backend, name, description, playback, capture, default}.")
    var json = false

    @Flag(
        name: .long,
        help:
            "Also list ALSA's converter plugins (lavrate, samplerate, speexrate, upmix, vdownmix, speex, ...), hidden by default."
    )
    var all = false

    func run() throws {
        runReportingErrors {
            let devices = try AudioDevices.list(all: all) + AudioDevices.jackPorts()
            // A failed write is 74, a closed pipe a quiet 0 (StandardOutput).
            StandardOutput.write(
                json
                    ? DevicesCommand.json(devices, midi: AudioDevices.midiPorts()) + "\n"
                    : DevicesCommand.table(devices) + DevicesCommand.midiTable(AudioDevices.midiPorts()))
        }
    }

    static func table(_ devices: [AudioDevice]) -> String {
        var out = ""
        let jack = devices.contains { $0.backend == .jack }
        for (title, keep) in [
            ("Playback devices", { (d: AudioDevice) in d.playback && d.backend == .alsa }),
            ("Capture devices", { (d: AudioDevice) in d.capture && d.backend == .alsa }),
            (
                "JACK ports that take audio (--backend jack plays into the physical ones)",
                { (d: AudioDevice) in jack && d.playback && d.backend == .jack }
            ),
            (
                "JACK ports that give audio (--backend jack records from the physical ones)",
                { (d: AudioDevice) in jack && d.capture && d.backend == .jack }
            )
        ] {
            let rows = devices.filter(keep)
            if !jack && title.hasPrefix("JACK") { continue }
            out += "\(title):\n"
            if rows.isEmpty { out += "  (none)\n" }
            let width = min(40, rows.map(\.name.count).max() ?? 0)
            for d in rows {
                let mark = d.isDefault ? "*" : " "
                let pad = String(repeating: " ", count: max(0, width - d.name.count))
                out += "\(mark) \(shown(d.name))\(pad)  \(shown(d.description))\n"
            }
        }
        return out
    }

    /// MIDI sources and sinks (ALSA sequencer and JACK MIDI ports), after the audio devices.
    static func midiTable(_ ports: [AudioDevice]) -> String {
        guard !ports.isEmpty else {
            return "MIDI ports: (none: no ALSA sequencer at /dev/snd/seq and no JACK server)\n"
        }
        var out = ""
        for (title, keep) in [
            ("MIDI sources (boop synth --midi, or --midi-connect on JACK, plays from them)", { (d: AudioDevice) in d.capture }),
            ("MIDI sinks (boop play --midi-out --midi-connect drives them)", { (d: AudioDevice) in d.playback })
        ] {
            let rows = ports.filter(keep)
            out += "\(title):\n"
            if rows.isEmpty { out += "  (none)\n" }
            let width = min(40, rows.map(\.name.count).max() ?? 0)
            for d in rows {
                out +=
                    "  \(shown(d.name))\(String(repeating: " ", count: max(0, width - d.name.count)))  \(shown(d.description))\n"
            }
        }
        return out
    }

    /// Audio devices, then MIDI ports ("kind":"midi"; playback = a sink boop's MIDI out can drive,
    /// capture = a source boop synth can play from).
    static func json(_ devices: [AudioDevice], midi: [AudioDevice] = []) -> String {
        let items = devices.map { ("audio", $0) } + midi.map { ("midi", $0) }
        let objects = items.map { kind, d in
            "{\"backend\":\"\(d.backend.rawValue)\",\"name\":\(jsonString(d.name)),\"description\":\(jsonString(d.description)),"
                + "\"playback\":\(d.playback),\"capture\":\(d.capture),\"default\":\(d.isDefault),\"kind\":\"\(kind)\"}"
        }
        return "[" + objects.joined(separator: ",") + "]"
    }
}

/// A JSON string literal (quotes, backslashes and control characters escaped).
func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if u.value < 0x20 { out += String(cFormat: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
        }
    }
    return out + "\""
}
