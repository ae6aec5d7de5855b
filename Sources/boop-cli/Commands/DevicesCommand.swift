import ArgumentParser
import Foundation
import PixelBoopCore

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the ALSA playback and capture devices, with descriptions (the default marked *).",
        discussion: """
            Any NAME shown can be passed as -D NAME to play, tone, ambient and listen. Hardware \
            devices are also reachable as hw:CARD,DEV (raw) or plughw:CARD,DEV (with conversion).
            """)

    @Flag(name: .long, help: "Print a JSON array of {name, description, playback, capture, default}.")
    var json = false

    func run() throws {
        runReportingErrors {
            let devices = try AudioDevices.list()
            if json {
                print(DevicesCommand.json(devices))
            } else {
                print(DevicesCommand.table(devices), terminator: "")
            }
        }
    }

    static func table(_ devices: [AudioDevice]) -> String {
        var out = ""
        for (title, keep) in [("Playback devices", { (d: AudioDevice) in d.playback }),
                              ("Capture devices", { (d: AudioDevice) in d.capture })] {
            let rows = devices.filter(keep)
            out += "\(title):\n"
            if rows.isEmpty { out += "  (none)\n" }
            let width = min(40, rows.map(\.name.count).max() ?? 0)
            for d in rows {
                let mark = d.isDefault ? "*" : " "
                let pad = String(repeating: " ", count: max(0, width - d.name.count))
                out += "\(mark) \(d.name)\(pad)  \(d.description)\n"
            }
        }
        return out
    }

    static func json(_ devices: [AudioDevice]) -> String {
        let items = devices.map { d in
            "{\"name\":\(jsonString(d.name)),\"description\":\(jsonString(d.description)),"
                + "\"playback\":\(d.playback),\"capture\":\(d.capture),\"default\":\(d.isDefault)}"
        }
        return "[" + items.joined(separator: ",") + "]"
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
            if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
        }
    }
    return out + "\""
}
