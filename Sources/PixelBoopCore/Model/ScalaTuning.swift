import CAudioEngine
import Glibc

/// A tuning read from Scala files: a scale (`.scl`) placed on the keyboard by an optional mapping
/// (`.kbm`), as the engine computes it (`boop_tuning_*`, CAudioEngineKeys.h). A value: the 128 key
/// frequencies are copied out once, so it is shared between threads like any other value.
public struct ScalaTuning: Sendable, Equatable {
    /// The files it was read from, as given (for messages and for a song that names them).
    public let scalePath: String
    public let mappingPath: String?
    /// The scale's description line, as the file holds it (escape it before showing it).
    public let description: String
    /// Degrees in the scale, the period included.
    public let degreeCount: Int
    /// Hz for each MIDI key 0 ... 127; 0 where the mapping leaves a key unmapped.
    public let keyHz: [Double]
    /// The files' text, for the engine's own copy of the tuning (`withHandle`).
    let texts: [UInt8]
    let mappingLength: Int?

    public static let keyCount = 128

    /// Reads both files (at most 1 MiB each; a FIFO is read as it comes, a device refused) and
    /// computes the keys. Throws `PatternError`: `.missingFile` (66) when a file cannot be read,
    /// `.invalid` (65) naming the file, the line and what was expected.
    public static func load(scale: String, mapping: String?) throws(PatternError) -> ScalaTuning {
        let limit = Int(BOOP_TUNING_FILE_BYTES_MAX)
        // A NUL after each text, so that even an empty one has an address (it is not counted).
        let scl = try readAllowingEmpty(scale, limit: limit) + [0]
        let kbm = try mapping.map { (path: String) throws(PatternError) -> Bytes in
            try readAllowingEmpty(path, limit: limit) + [0]
        }
        var handle: OpaquePointer?
        var why = [CChar](repeating: 0, count: 512)
        let status = scl.withUnsafeBytes { sclBytes in
            withOptionalBytes(kbm) { kbmBytes in
                boop_tuning_parse(
                    sclBytes.baseAddress?.assumingMemoryBound(to: CChar.self), sclBytes.count - 1,
                    kbmBytes?.baseAddress?.assumingMemoryBound(to: CChar.self), max((kbmBytes?.count ?? 1) - 1, 0),
                    &handle, &why, why.count)
            }
        }
        guard status == BOOP_OK, let handle else {
            var reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var file = scale
            if let mapping, reason.hasPrefix("mapping, ") {
                file = mapping
                reason.removeFirst("mapping, ".count)
            }
            if status == BOOP_ERROR_OUT_OF_MEMORY { reason = "out of memory while reading the tuning" }
            throw PatternError(.invalid, "\(file): \(reason)")
        }
        defer { boop_tuning_free(handle) }
        return ScalaTuning(
            scalePath: scale, mappingPath: mapping,
            description: String(cString: boop_tuning_description(handle)),
            degreeCount: Int(boop_tuning_degree_count(handle)),
            keyHz: (0..<keyCount).map { boop_tuning_key_hz(handle, Int32($0)) },
            texts: Array(scl.dropLast()) + (kbm.map { Array($0.dropLast()) } ?? []),
            mappingLength: kbm.map { $0.count - 1 })
    }

    /// The engine's tuning made again from the same text (the files are not read again), for a
    /// call that takes a `boop_tuning` (the live synth); freed when `body` returns.
    public func withHandle<R>(_ body: (OpaquePointer) -> R) throws(AudioError) -> R {
        var handle: OpaquePointer?
        let scaleLength = texts.count - (mappingLength ?? 0)
        let status = texts.withUnsafeBufferPointer { all in
            all.withMemoryRebound(to: CChar.self) { chars in
                boop_tuning_parse(
                    chars.baseAddress, scaleLength, mappingLength.map { _ in chars.baseAddress! + scaleLength },
                    mappingLength ?? 0, &handle, nil, 0)
            }
        }
        // The same text parsed once already: only memory can fail it now.
        guard status == BOOP_OK, let handle else { throw AudioError.from(status, "the tuning of \(scalePath)") }
        defer { boop_tuning_free(handle) }
        return body(handle)
    }

    /// The frequency of `key`, or nil when the tuning leaves it unmapped (or it is no MIDI key).
    public func hz(key: Int) -> Double? {
        guard keyHz.indices.contains(key), keyHz[key] > 0 else { return nil }
        return keyHz[key]
    }

    /// An empty file is the parser's to judge ("line 1: expected a description line"), so the
    /// message names the line as every other malformed one does.
    private static func readAllowingEmpty(_ path: String, limit: Int) throws(PatternError) -> Bytes {
        do {
            return try StrictJSON.readInput(path, limit: limit, format: "Scala")
        } catch  where error.kind == .invalid && error.message.hasSuffix("expected a Scala document)") {
            return Bytes()
        }
    }

    private static func withOptionalBytes<R>(_ data: Bytes?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let data else { return body(nil) }
        return data.withUnsafeBytes { body($0) }
    }
}
