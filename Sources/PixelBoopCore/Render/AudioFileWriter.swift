import CAudioEngine

/// Sample format of a rendered file.
public enum SampleFormat: String, Sendable, CaseIterable {
    case f32, s16
    var cValue: boop_sample_format { self == .f32 ? BOOP_SAMPLE_FLOAT32 : BOOP_SAMPLE_INT16 }
}

/// Writes an audio file through libsndfile (WAV, FLAC, OGG by extension) under a temporary name;
/// `commit()` renames it into place, and dropping the writer without committing deletes it, so a
/// failed or interrupted run never leaves a half-written file.
public final class AudioFileWriter {
    private var handle: OpaquePointer?
    public let path: String
    public let channels: Int

    public init(path: String, sampleRate: Double, channels: Int, format: SampleFormat = .f32) throws(AudioError) {
        var writer: OpaquePointer?
        let status = boop_file_writer_open(path, sampleRate, UInt32(clamping: channels), format.cValue, &writer)
        switch status {
        case BOOP_OK: break
        case BOOP_ERROR_INVALID_ARGUMENT:
            throw AudioError.cannotCreateFile("\(path): expected a .wav, .flac or .ogg name (float32 needs .wav)")
        default:
            throw AudioError.cannotCreateFile("\(path): \(String(cString: boop_status_string(status))) (does the folder exist and is it writable?)")
        }
        self.handle = writer
        self.path = path
        self.channels = channels
    }

    deinit { boop_file_writer_abort(handle) }

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
        if status != BOOP_OK { throw AudioError.ioError("\(path): could not finish writing the file") }
    }

    /// Deletes the temporary file.
    public func abort() {
        boop_file_writer_abort(handle)
        handle = nil
    }
}
