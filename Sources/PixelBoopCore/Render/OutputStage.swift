import CAudioEngine

/// The end of every signal chain: the user's gain, then the true-peak limiter that keeps all
/// boop makes at or under -1 dBTP (see `boop_limiter_create`). Offline, `process` hands on audio
/// aligned with its input: the limiter's look-ahead delay is taken out, so a render is exactly as
/// long as before and a note starts on the same frame; `finish` flushes the last frames.
public final class OutputStage {
    /// The ceiling and the gain range, from the engine's header.
    public static let ceilingDBTP = Double(BOOP_CEILING_DBTP)
    public static let gainRange: ClosedRange<Double> = Double(BOOP_GAIN_DB_MIN)...Double(BOOP_GAIN_DB_MAX)

    internal let handle: OpaquePointer
    public let channels: Int
    public let latencyFrames: Int
    private var toSkip: Int
    private var scratch: [Float] = []

    public init(sampleRate: Double, channels: Int, gainDB: Double = 0) throws(AudioError) {
        guard OutputStage.gainRange.contains(gainDB) else {
            throw AudioError.invalidConfiguration(
                "gain \(gainDB) dB: expected \(Int(BOOP_GAIN_DB_MIN))...\(Int(BOOP_GAIN_DB_MAX)) dB")
        }
        var h: OpaquePointer?
        let status = boop_limiter_create(sampleRate, UInt32(clamping: channels), &h)
        guard status == BOOP_OK, let h else {
            throw AudioError.from(status, "creating the output stage (\(sampleRate) Hz, \(channels) channel(s))")
        }
        boop_limiter_set_gain_db(h, gainDB)
        handle = h
        self.channels = channels
        latencyFrames = Int(boop_limiter_latency_frames(h))
        toSkip = latencyFrames
    }

    deinit { boop_limiter_destroy(handle) }

    /// Changes the gain while playing (glides over 20 ms). Thread safety: any thread.
    public func setGain(dB: Double) {
        boop_limiter_set_gain_db(handle, min(max(dB, OutputStage.gainRange.lowerBound), OutputStage.gainRange.upperBound))
    }

    /// The deepest gain reduction since the last call, in dB (0: the limiter did nothing).
    public func takeReductionDB() -> Double { Double(boop_limiter_take_reduction_db(handle)) }

    /// Offline: limits `samples` and hands the aligned result to `sink` (the first latency frames
    /// of the stage's output, which are its silent pre-roll, are dropped).
    public func process(
        _ samples: UnsafeBufferPointer<Float>,
        into sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) rethrows {
        if scratch.count < samples.count { scratch = [Float](repeating: 0, count: samples.count) }
        try scratch.withUnsafeMutableBufferPointer { buf in
            _ = buf.initialize(from: samples)
            try processInPlace(UnsafeMutableBufferPointer(rebasing: buf[0..<samples.count]), into: sink)
        }
    }

    /// As `process`, limiting the caller's own buffer in place (a render's block buffer, which
    /// it refills next): one copy of every sample fewer.
    public func processInPlace(
        _ samples: UnsafeMutableBufferPointer<Float>,
        into sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) rethrows {
        let frames = samples.count / channels
        boop_limiter_process(handle, samples.baseAddress, UInt32(frames))
        let skip = min(toSkip, frames)
        toSkip -= skip
        if skip < frames {
            try sink(UnsafeBufferPointer(rebasing: samples[(skip * channels)..<(frames * channels)]))
        }
    }

    /// Offline: pushes silence through to deliver the frames still in the look-ahead delay.
    public func finish(into sink: (UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        let pending = latencyFrames - toSkip
        guard pending > 0 else { return }
        let zeros = [Float](repeating: 0, count: pending * channels)
        try zeros.withUnsafeBufferPointer { try process($0, into: sink) }
    }
}

/// An ITU-R BS.1770-4 / EBU R128 loudness meter (integrated, momentary, short-term, true peak).
public final class LoudnessMeter {
    private let handle: OpaquePointer

    public init(sampleRate: Double, channels: Int) throws(AudioError) {
        var h: OpaquePointer?
        let status = boop_loudness_create(sampleRate, UInt32(clamping: channels), &h)
        guard status == BOOP_OK, let h else {
            throw AudioError.from(status, "creating a loudness meter (\(sampleRate) Hz, \(channels) channel(s))")
        }
        handle = h
    }

    deinit { boop_loudness_destroy(handle) }

    public func add(_ interleaved: UnsafeBufferPointer<Float>, frames: Int) {
        boop_loudness_add(handle, interleaved.baseAddress, UInt64(frames))
    }

    /// LUFS; -infinity when nothing passed the gates.
    public var integrated: Double { boop_loudness_integrated(handle) }
    public var momentary: Double { boop_loudness_momentary(handle) }
    public var shortTerm: Double { boop_loudness_short_term(handle) }
    /// dBTP; -infinity for silence.
    public var truePeak: Double { boop_loudness_true_peak(handle) }
}
