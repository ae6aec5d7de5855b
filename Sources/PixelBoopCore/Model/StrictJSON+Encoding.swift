import Glibc

extension StrictJSON {
    /// The document as UTF-8, whichever of JSON's encodings it is written in (RFC 8259 section 8.1
    /// and RFC 4627 section 3: UTF-8, UTF-16 or UTF-32, either byte order, told by a byte order
    /// mark or by where the first characters' zero bytes fall, since JSON starts with two ASCII
    /// characters). The parser reads all of them; the checks that look at the bytes (duplicate
    /// keys, the order of a song's patterns) must see the same characters, so a duplicate spelled in
    /// UTF-16 is found and a song in UTF-32 keeps its order. Ill-formed units become U+FFFD.
    static func utf8(_ data: Bytes) -> Bytes {
        let b = [UInt8](data.prefix(4))
        func at(_ i: Int) -> UInt8? { i < b.count ? b[i] : nil }
        enum Form {
            case utf16(big: Bool)
            case utf32(big: Bool)
        }
        let form: Form
        var skip = 0
        if b.starts(with: [0xEF, 0xBB, 0xBF]) {
            return Bytes(data.dropFirst(3))
        } else if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            (form, skip) = (.utf32(big: true), 4)
        } else if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            (form, skip) = (.utf32(big: false), 4)
        } else if b.starts(with: [0xFE, 0xFF]) {
            (form, skip) = (.utf16(big: true), 2)
        } else if b.starts(with: [0xFF, 0xFE]) {
            (form, skip) = (.utf16(big: false), 2)
        } else if b.count == 4, at(0) == 0, at(1) == 0, at(2) == 0 {
            form = .utf32(big: true)
        } else if b.count == 4, at(1) == 0, at(2) == 0, at(3) == 0 {
            form = .utf32(big: false)
        } else if b.count >= 2, at(0) == 0 {
            form = .utf16(big: true)
        } else if b.count >= 2, at(1) == 0 {
            form = .utf16(big: false)
        } else {
            return data
        }
        let bytes = [UInt8](data.dropFirst(skip))
        switch form {
        case .utf16(let big):
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 0
            while i + 1 < bytes.count {
                let (hi, lo) = big ? (bytes[i], bytes[i + 1]) : (bytes[i + 1], bytes[i])
                units.append(UInt16(hi) << 8 | UInt16(lo))
                i += 2
            }
            if bytes.count % 2 != 0 { units.append(0xFFFD) }
            return Bytes(String(decoding: units, as: UTF16.self).utf8)
        case .utf32(let big):
            var scalars = String.UnicodeScalarView()
            var i = 0
            while i + 3 < bytes.count {
                let q =
                    big
                    ? [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]] : [bytes[i + 3], bytes[i + 2], bytes[i + 1], bytes[i]]
                let v = q.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                i += 4
            }
            if bytes.count % 4 != 0 { scalars.append("\u{FFFD}") }
            return Bytes(String(scalars).utf8)
        }
    }
}
