import Glibc

/// Why a recording could not be read: the file is not there or cannot be opened (the caller's
/// 66), or its content is not a recording it can score (65). The message names the file.
public struct RecordingError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case missing, unreadable, content }
    public let kind: Kind
    public let message: String
    public var description: String { message }
}

/// A recording of sung notes for `train match --input`: WAV (read as `WavFile` reads it) or FLAC
/// (what `boop listen` records), mixed to mono.
public struct RecordingFile: Sendable {
    public let sampleRate: Double
    public let samples: [Float]

    /// The samples and their rate. Each failure names the file and what was expected.
    public static func read(path: String) throws(RecordingError) -> RecordingFile {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let why = errno == ENOENT ? "no such file" : "cannot be read (\(String(cString: strerror(errno))))"
            throw RecordingError(kind: errno == ENOENT ? .missing : .unreadable, message: "\(path): \(why)")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw RecordingError(kind: .unreadable, message: "\(path): a folder, expected a WAV or FLAC recording")
        }
        guard let magic = firstBytes(path, 4) else {
            throw RecordingError(kind: .unreadable, message: "\(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        if magic == Array("fLaC".utf8) { return try Sndfile.read(path) }
        do {
            let wav = try WavFile(path: path)
            return RecordingFile(sampleRate: wav.sampleRate, samples: wav.samples)
        } catch {
            if case .ioError = error {
                throw RecordingError(kind: .unreadable, message: "\(path): cannot be read")
            }
            let text = "\(error)".includes("RIFF/WAVE") ? "\(path): expected a WAV or FLAC recording" : error.context
            throw RecordingError(kind: .content, message: text)
        }
    }

    private static func firstBytes(_ path: String, _ n: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: n)
        let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, n) }
        return got < 0 ? nil : Array(bytes.prefix(got))
    }
}

/// FLAC through libsndfile, the library `boop listen` writes it with. The engine loads it only
/// for writing, so reading opens it here the same way (at first use, by its soname), and a
/// machine without it gets a one-line error rather than a missing-library failure at start.
enum Sndfile {
    /// SF_INFO's layout: frames (sf_count_t), then five ints.
    private struct Info {
        var frames: Int64 = 0
        var sampleRate: Int32 = 0
        var channels: Int32 = 0
        var format: Int32 = 0
        var sections: Int32 = 0
        var seekable: Int32 = 0
    }
    private typealias Open = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> OpaquePointer?
    private typealias ReadFrames = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?, Int64) -> Int64
    private typealias Close = @convention(c) (OpaquePointer?) -> Int32
    private typealias StrError = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private static let modeRead: Int32 = 0x10

    static func read(_ path: String) throws(RecordingError) -> RecordingFile {
        guard let lib = dlopen("libsndfile.so.1", RTLD_NOW | RTLD_LOCAL), let openSym = dlsym(lib, "sf_open"),
            let readSym = dlsym(lib, "sf_readf_float"), let closeSym = dlsym(lib, "sf_close"),
            let errSym = dlsym(lib, "sf_strerror")
        else {
            throw RecordingError(kind: .content, message: "\(path): FLAC needs libsndfile (libsndfile1), not found")
        }
        let open = unsafeBitCast(openSym, to: Open.self)
        let readFrames = unsafeBitCast(readSym, to: ReadFrames.self)
        let close = unsafeBitCast(closeSym, to: Close.self)
        let strerror = unsafeBitCast(errSym, to: StrError.self)
        var info = Info()
        guard let file = withUnsafeMutablePointer(to: &info, { open(path, modeRead, UnsafeMutableRawPointer($0)) }) else {
            let why = strerror(nil).map { String(cString: $0) } ?? "unknown error"
            throw RecordingError(kind: .content, message: "\(path): expected a FLAC recording (\(why))")
        }
        defer { _ = close(file) }
        let channels = Int(info.channels)
        guard channels > 0, info.sampleRate > 0, info.frames >= 0, info.frames < Int64(Int32.max) else {
            throw RecordingError(kind: .content, message: "\(path): expected a FLAC recording with samples")
        }
        var interleaved = [Float](repeating: 0, count: Int(info.frames) * channels)
        let got = interleaved.withUnsafeMutableBufferPointer { readFrames(file, $0.baseAddress, info.frames) }
        var mono = [Float](repeating: 0, count: Int(max(0, got)))
        for i in mono.indices {
            var sum: Float = 0
            for c in 0..<channels { sum += interleaved[i * channels + c] }
            mono[i] = sum / Float(channels)
        }
        return RecordingFile(sampleRate: Double(info.sampleRate), samples: mono)
    }
}
