import Glibc

extension String {
    /// printf-style formatting without Foundation: each conversion (`%d`, `%lld`, `%6.1f`, `%+.3f`,
    /// `%02X`, `%g`, `%%` ...) goes through C's `snprintf`, in the C locale boop runs in, so the
    /// text is the one `String(format:)` printed. `%@` takes any value and prints its
    /// description; like Foundation's formatter on Linux it ignores a width or flags given to it
    /// (`%8@` prints the text as it is).
    public init(cFormat format: String, _ arguments: Any...) {
        let bytes = Array(format.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var next = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%"),
                let end = bytes[(i + 1)...].firstIndex(where: { String.conversionEnds.contains($0) })
            else {
                out.append(bytes[i])
                i += 1
                continue
            }
            let spec = String(decoding: bytes[i...end], as: UTF8.self)
            i = end + 1
            switch bytes[end] {
            case UInt8(ascii: "%"): out.append(UInt8(ascii: "%"))
            case UInt8(ascii: "@"):
                if next < arguments.count { out += Array(String(describing: arguments[next]).utf8) }
                next += 1
            default:
                precondition(next < arguments.count, "String(cFormat:): too few arguments for \(format)")
                guard let value = arguments[next] as? CVarArg else {
                    preconditionFailure("String(cFormat:): \(spec) needs a number, got \(arguments[next])")
                }
                out += String.cFormatOne(spec, value)
                next += 1
            }
        }
        self = String(decoding: out, as: UTF8.self)
    }

    /// The bytes that end a conversion specification.
    private static let conversionEnds = Set("%@diouxXeEfFgGaAcs".utf8)

    private static func cFormatOne(_ spec: String, _ value: CVarArg) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let size = buffer.count
            let n = withVaList([value]) { args in
                buffer.withUnsafeMutableBufferPointer { b in
                    b.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, size, spec, args) }
                }
            }
            precondition(n >= 0, "String(cFormat:): \(spec) is no valid conversion")
            if Int(n) < size { return Array(buffer[..<Int(n)]) }
            buffer = [UInt8](repeating: 0, count: Int(n) + 1)
        }
    }
}
