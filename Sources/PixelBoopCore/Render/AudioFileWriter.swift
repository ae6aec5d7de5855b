import CAudioEngine
import Glibc

/// Sample format of a rendered file.
public enum SampleFormat: String, Sendable, CaseIterable {
    case f32, s16
    var cValue: boop_sample_format { self == .f32 ? BOOP_SAMPLE_FLOAT32 : BOOP_SAMPLE_INT16 }

    /// The format a file gets when none is asked for: float32 only fits WAV (libsndfile has no
    /// float FLAC, and Vorbis takes any input), so FLAC and Ogg get 16-bit.
    public static func natural(forPath path: String) -> SampleFormat {
        path.lowercased().hasSuffix(".wav") ? .f32 : .s16
    }
}

/// Checks an output name before any work is done, so a render never runs for minutes and then
/// fails to create its file: a directory, a device or FIFO (renaming over `/dev/full` would replace
/// it), a missing or unwritable folder, a name longer than the file system takes (a component
/// over NAME_MAX bytes, the whole over PATH_MAX) are all refused as "cannot create" (exit 73).
/// Paths are checked by their bytes on disk (`RawBytes`).
public enum OutputPath {
    public static func check(_ path: String) throws(AudioError) {
        let shown = path
        guard !path.isEmpty else { throw AudioError.cannotCreateFile("(empty name): expected an output file name") }
        let bytes = RawBytes.byteCount(path)
        if bytes >= Int(PATH_MAX) {
            throw AudioError.cannotCreateFile("\(shown.prefix(60))...: name too long (\(bytes) bytes; at most \(PATH_MAX - 1))")
        }
        for component in path.split(separator: "/") {
            let length = RawBytes.byteCount(String(component))
            if length > Int(NAME_MAX) {
                throw AudioError.cannotCreateFile(
                    "\(shown.prefix(60))...: name too long (a part of \(length) bytes; at most \(NAME_MAX) each)")
            }
        }
        var st = stat()
        if RawBytes.withPath(path, { stat($0, &st) }) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR {
                throw AudioError.cannotCreateFile("\(shown): is a directory (expected a file name)")
            }
            if (st.st_mode & S_IFMT) != S_IFREG {
                throw AudioError.cannotCreateFile("\(shown): is not a regular file (expected a file name)")
            }
        }
        if path.hasSuffix("/") {
            throw AudioError.cannotCreateFile("\(shown): is a directory (expected a file name)")
        }
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        var dst = stat()
        guard RawBytes.withPath(folder, { stat($0, &dst) }) == 0, (dst.st_mode & S_IFMT) == S_IFDIR else {
            throw AudioError.cannotCreateFile("\(shown): folder \(folder) does not exist")
        }
        guard RawBytes.withPath(folder, { access($0, W_OK | X_OK) }) == 0 else {
            throw AudioError.cannotCreateFile("\(shown): folder \(folder) is not writable")
        }
    }
}

/// How far a file's commit goes before it returns (docs/DESIGN.md, "Durability"): `.rename` leaves
/// the bytes to the kernel's write-back (a render can be made again), `.sync` flushes the file and
/// its folder first (what cannot be made again: a recording, a saved pattern).
public enum Durability: Sendable {
    case rename, sync
    var cValue: boop_durability { self == .sync ? BOOP_DURABILITY_SYNC : BOOP_DURABILITY_RENAME }
}

/// Writes an audio file through libsndfile (WAV, FLAC, OGG by extension) under a temporary name;
/// `commit()` renames it into place, and dropping the writer without committing deletes it, so a
/// failed or interrupted run never leaves a half-written file.
public final class AudioFileWriter {
    private var handle: OpaquePointer?
    /// The stage the writer runs (`limit(through:)`), kept alive until the writer is done with it.
    private var stage: OutputStage?
    public let path: String
    public let channels: Int

    /// `expectedFrames` (0: unknown) lets a WAV that would pass 4 GiB be written as RF64. A
    /// recording asks for `.sync`; a render keeps `.rename`.
    public init(
        path: String, sampleRate: Double, channels: Int, format: SampleFormat = .f32,
        expectedFrames: UInt64 = 0, durability: Durability = .rename
    ) throws(AudioError) {
        var writer: OpaquePointer?
        let status = RawBytes.withPath(path) {
            boop_file_writer_open_sized($0, sampleRate, UInt32(clamping: channels), format.cValue, expectedFrames, &writer)
        }
        switch status {
        case BOOP_OK: break
        case BOOP_ERROR_INVALID_ARGUMENT:
            throw AudioError.cannotCreateFile("\(path): expected a .wav, .flac or .ogg name (float32 needs .wav)")
        default:
            throw AudioError.cannotCreateFile(
                "\(path): \(String(cString: boop_status_string(status))) (does the folder exist and is it writable?)")
        }
        boop_file_writer_set_durability(writer, durability.cValue)
        self.handle = writer
        self.path = path
        self.channels = channels
    }

    deinit { boop_file_writer_abort(handle) }

    /// Runs `stage` on the writer's own thread: every frame written from now on passes through
    /// it before the file gets it, and `commit()` writes its last frames (`boop_file_writer_set_output`).
    /// Before the first write.
    public func limit(through stage: OutputStage) throws(AudioError) {
        guard let handle else { throw AudioError.ioError("\(path): already closed") }
        let status = boop_file_writer_set_output(handle, stage.handle)
        guard status == BOOP_OK else { throw AudioError.from(status, "\(path): handing the output stage to the writer") }
        self.stage = stage
    }

    /// Appends interleaved samples (a whole number of frames).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        guard let handle else { throw AudioError.ioError("\(path): already closed") }
        let status = boop_file_writer_write(handle, samples.baseAddress, UInt64(samples.count / channels))
        if status != BOOP_OK {
            throw AudioError.ioError("\(path): \(String(cString: boop_file_writer_error(handle)))")
        }
    }

    public func write(_ samples: [Float]) throws(AudioError) {
        var result: Result<Void, AudioError> = .success(())
        samples.withUnsafeBufferPointer { buffer in
            do throws(AudioError) { try write(buffer) } catch { result = .failure(error) }
        }
        try result.get()
    }

    /// Finishes the file and gives it its real name.
    public func commit() throws(AudioError) {
        guard let handle else { return }
        self.handle = nil
        let status = boop_file_writer_commit(handle)
        if status != BOOP_OK {
            let reason = String(cString: boop_file_writer_error(handle))
            boop_file_writer_abort(handle)
            throw AudioError.ioError("\(path): could not finish writing the file (\(reason))")
        }
    }

    /// Deletes the temporary file.
    public func abort() {
        boop_file_writer_abort(handle)
        handle = nil
    }
}
