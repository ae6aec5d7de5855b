import CAudioEngine

/// The end of every signal chain, run by the engine (`boop_output`, "The output stage" in
/// CAudioEngine.h): the user's gain, then the true-peak limiter that keeps all boop makes at or
/// under -1 dBTP. Live, `AudioPlayback` runs the playback's own stage on the audio thread; this
/// class is the offline one. `process` hands on audio aligned with its input (the engine takes the
/// limiter's look-ahead delay out), so a render is exactly as long as before and a note starts on
/// the same frame; `finish` delivers the last frames.
public final class OutputStage {
    /// The ceiling and the gain range, from the engine's header.
    public static let ceilingDBTP = Double(BOOP_CEILING_DBTP)
    public static let gainRange: ClosedRange<Double> = Limits.gainDB

    /// The one place an option becomes the engine's output config (offline and live alike).
    static func config(gainDB: Double) throws(AudioError) -> boop_output_config {
        guard gainDB.isFinite, gainRange.contains(gainDB) else {
            throw AudioError.invalidConfiguration("gain \(gainDB) dB: expected \(Limits.text(Limits.gainDB)) dB")
        }
        var config = boop_output_config()
        boop_output_config_default(&config)
        config.gain_db = gainDB
        return config
    }

    let handle: OpaquePointer
    public let channels: Int
    public let latencyFrames: Int
    private var scratch: [Float] = []

    public init(sampleRate: Double, channels: Int, gainDB: Double = 0) throws(AudioError) {
        var config = try OutputStage.config(gainDB: gainDB)
        var h: OpaquePointer?
        let status = boop_output_create(&config, sampleRate, UInt32(clamping: channels), &h)
        guard status == BOOP_OK, let h else {
            throw AudioError.from(status, "creating the output stage (\(sampleRate) Hz, \(channels) channel(s))")
        }
        handle = h
        self.channels = channels
        latencyFrames = Int(boop_output_latency_frames(h))
    }

    deinit { boop_output_destroy(handle) }

    /// The deepest gain reduction since the last call, in dB (0: the limiter did nothing).
    public func takeReductionDB() -> Double { Double(boop_output_take_reduction_db(handle)) }

    /// Limits a copy of `samples` and hands the aligned result to `sink` (nothing while the
    /// look-ahead fills).
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
        var aligned: UInt32 = 0
        boop_output_process(handle, samples.baseAddress, UInt32(samples.count / channels), &aligned)
        if aligned > 0 { try sink(UnsafeBufferPointer(rebasing: samples[0..<(Int(aligned) * channels)])) }
    }

    /// Delivers the frames still in the look-ahead delay, once the last input went in.
    public func finish(into sink: (UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        var tail = [Float](repeating: 0, count: max(latencyFrames, 1) * channels)
        var frames: UInt32 = 0
        tail.withUnsafeMutableBufferPointer { buf in
            _ = boop_output_finish(handle, buf.baseAddress, UInt32(latencyFrames), &frames)
        }
        if frames > 0 {
            try tail.withUnsafeBufferPointer { try sink(UnsafeBufferPointer(rebasing: $0[0..<(Int(frames) * channels)])) }
        }
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
