import Glibc

/// A WAV file's samples, mixed to mono: PCM 8/16/24/32-bit and IEEE float 32/64 (what `boop
/// listen -o`, sox and most recorders write). Errors name the file and what was expected.
public struct WavFile: Sendable {
    public let sampleRate: Double
    public let samples: [Float]

    public init(path: String) throws(AudioError) {
        guard let data = FileBytes.read(path) else {
            throw AudioError.ioError("\(path): cannot be read")
        }
        let bytes = [UInt8](data)
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw AudioError.invalidConfiguration("\(path): expected a WAV file (RIFF/WAVE)")
        }
        var offset = 12
        var format = 0
        var channels = 0
        var rate = 0
        var bits = 0
        var body: Range<Int>?
        while offset + 8 <= bytes.count {
            let size = u32(offset + 4)
            let start = offset + 8
            let end = min(bytes.count, start + size)
            if bytes[offset..<offset + 4] == [0x66, 0x6D, 0x74, 0x20], end - start >= 16 {
                format = u16(start)
                channels = u16(start + 2)
                rate = u32(start + 4)
                bits = u16(start + 14)
                if format == 0xFFFE, end - start >= 26 { format = u16(start + 24) }
            } else if bytes[offset..<offset + 4] == [0x64, 0x61, 0x74, 0x61] {
                body = start..<end
                break
            }
            offset = start + size + (size & 1)
        }
        guard let body, channels > 0, rate > 0, [1, 3].contains(format),
            (format == 1 && [8, 16, 24, 32].contains(bits)) || (format == 3 && [32, 64].contains(bits))
        else {
            throw AudioError.invalidConfiguration(
                "\(path): expected a WAV of PCM 8/16/24/32-bit or float 32/64-bit samples")
        }
        let width = bits / 8
        let frames = body.count / (width * channels)
        var out = [Float](repeating: 0, count: frames)
        bytes.withUnsafeBytes { raw in
            for i in 0..<frames {
                var sum = 0.0
                for c in 0..<channels {
                    let o = body.lowerBound + (i * channels + c) * width
                    sum += Self.sample(raw, at: o, width: width, float: format == 3)
                }
                out[i] = Float(sum / Double(channels))
            }
        }
        sampleRate = Double(rate)
        samples = out
    }

    private static func sample(_ raw: UnsafeRawBufferPointer, at o: Int, width: Int, float: Bool) -> Double {
        if float {
            return width == 4
                ? Double(Float(bitPattern: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self).littleEndian))
                : Double(bitPattern: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian)
        }
        switch width {
        case 1: return (Double(raw[o]) - 128) / 128
        case 2: return Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: Int16.self))) / 32768
        case 3:
            let v = Int32(raw[o]) << 8 | Int32(raw[o + 1]) << 16 | Int32(raw[o + 2]) << 24
            return Double(v) / 2_147_483_648
        default: return Double(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: Int32.self))) / 2_147_483_648
        }
    }
}
