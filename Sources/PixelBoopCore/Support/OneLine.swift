import Foundation

/// Makes any text safe to print as part of a one-line message: control characters (newlines,
/// tabs, ESC and the rest of C0, DEL, the C1 range that some terminals also obey) and invalid
/// UTF-8 never reach the terminal raw. A file name, JSON key, note or device name carrying
/// `\n` or `\e[2J` is shown escaped, so an error is one line always and cannot drive the terminal.
public enum OneLine {
    public static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
            case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
            case 0x1B: out.append(contentsOf: "\\e".unicodeScalars)
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
                out.append(contentsOf: String(format: "\\u{%X}", scalar.value).unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
