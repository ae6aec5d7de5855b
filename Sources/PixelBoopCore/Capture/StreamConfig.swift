import CAudioEngine

/// How a capture stream records (the original design's StreamConfig, on ALSA).
public struct StreamConfig: Sendable, Equatable {
    /// Requested rate in Hz; the device may grant another (see `AudioStream.sampleRate`).
    public var sampleRate: Double
    /// Frames per `samples` event (2048 at 16 kHz = 128 ms).
    public var bufferFrames: Int
    /// Device channels to record; they are averaged to one mono channel.
    public var channels: Int
    /// ALSA PCM name.
    public var device: String
    /// ALSA (default) or a JACK client (the server's rate is used; `sampleRate` is ignored).
    public var backend: AudioBackend = .alsa
    /// JACK: connect the system's capture ports to the client's inputs.
    public var connect = true

    /// The rate asked for when none is given (the limits table's CAPTURE_RATE row).
    public static let defaultSampleRate = Limits.defaultValue(BOOP_LIMIT_CAPTURE_RATE)

    public init(
        sampleRate: Double = StreamConfig.defaultSampleRate, bufferFrames: Int = 2048, channels: Int = 1,
        device: String = "default"
    ) {
        self.sampleRate = sampleRate
        self.bufferFrames = bufferFrames
        self.channels = channels
        self.device = device
    }

    /// Where it records from.
    public var route: AudioRoute { AudioRoute(device: device, backend: backend, connect: connect) }

    /// Throws `invalidConfiguration` naming the field when a value is out of range.
    public func validate() throws(AudioError) {
        try AudioPlayback.check(sampleRate: sampleRate)
        // The buffer is what the pitch detector analyses: its window's range.
        guard Limits.pitchWindow.contains(bufferFrames) else {
            throw AudioError.invalidConfiguration("buffer \(bufferFrames) frames: expected \(Limits.text(Limits.pitchWindow))")
        }
        try AudioPlayback.check(channels: channels)
        guard !device.isEmpty else {
            throw AudioError.invalidConfiguration("device: expected an ALSA PCM name")
        }
    }
}

/// The state a stream reports in `status` events.
public enum StreamStatus: String, Sendable, Equatable {
    case streaming
    case stopped
}

/// What an `AudioStream` delivers.
public enum StreamEvent: Sendable {
    /// One buffer of mono Float32 samples in [-1, 1]. `timestamp` is the capture time of the first
    /// sample in seconds since the stream started (from the sample clock, so it never drifts).
    case samples(samples: [Float], sampleRate: Double, frameCount: Int, timestamp: Double)
    case status(StreamStatus)
    /// `code` is the engine's status (e.g. -5 for a lost device); `message` one readable line.
    case error(code: Int, message: String)
}
