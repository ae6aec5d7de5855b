import CAudioEngine
import Foundation

/// Microphone (or any ALSA capture PCM) as an `AsyncStream` of mono Float32 buffers.
///
/// A C++ I/O thread reads the device into a lock-free ring; a reader thread of this class takes
/// whole buffers of `config.bufferFrames` from the ring and yields them as `.samples` events.
/// `start()` yields `.status(.streaming)`, `stop()` yields `.status(.stopped)`; a lost device
/// yields `.error` and then `.status(.stopped)`. Starting twice throws `alreadyStreaming`. A
/// stopped stream may be started again (a new device handle is opened).
public final class AudioStream: @unchecked Sendable {
    public let config: StreamConfig
    /// Events of every start/stop cycle of this stream; finished when the stream is deallocated.
    public let events: AsyncStream<StreamEvent>
    private let continuation: AsyncStream<StreamEvent>.Continuation

    private let lock = NSLock()
    private var capture: OpaquePointer?
    private var reader: Thread?
    private var readerDone: DispatchSemaphore?
    private var stopRequested = false
    private var streaming = false
    private var grantedRate: Double = 0
    private var grantedFormat = ""
    private var grantedChannels = 0

    public init(config: StreamConfig = StreamConfig()) {
        self.config = config
        (events, continuation) = AsyncStream.makeStream(of: StreamEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    deinit {
        stop()
        continuation.finish()
    }

    /// True between a successful `start()` and `stop()` or a device loss.
    public var isStreaming: Bool {
        lock.lock()
        defer { lock.unlock() }
        return streaming
    }

    /// The rate the device granted (0 before the first start).
    public var sampleRate: Double {
        lock.lock()
        defer { lock.unlock() }
        return grantedRate
    }

    /// The device's sample format ("FLOAT_LE", "S32_LE" or "S16_LE") and channel count.
    public var deviceFormat: (format: String, channels: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (grantedFormat, grantedChannels)
    }

    /// Frames lost because the reader fell behind, and recovered device overruns.
    public var losses: (droppedFrames: UInt64, overruns: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        guard let capture else { return (0, 0) }
        let s = boop_capture_get_stats(capture)
        return (s.frames_dropped, s.overruns)
    }

    public func start() throws(AudioError) {
        try config.validate()
        lock.lock()
        if streaming {
            lock.unlock()
            throw AudioError.alreadyStreaming("capture on ALSA PCM '\(config.device)' is already running")
        }
        lock.unlock()
        stop()  // reap a stream that ended on its own (device lost)

        var c = boop_capture_config()
        boop_capture_config_default(&c)
        c.sample_rate = config.sampleRate
        c.channels = UInt32(config.channels)
        // The ring holds at least 8 buffers so a briefly busy reader loses nothing.
        c.ring_frames = UInt32(max(65536, config.bufferFrames * 8))
        var handle: OpaquePointer?
        let status = config.device.withCString { name -> boop_status in
            c.device = name
            return boop_capture_open(&c, &handle)
        }
        guard status == BOOP_OK, let handle else {
            if status == BOOP_ERROR_DEVICE_UNAVAILABLE {
                throw AudioError.deviceUnavailable(
                    "ALSA PCM '\(config.device)' cannot be opened for capture at \(Int(config.sampleRate)) Hz, "
                        + "\(config.channels) channel(s)")
            }
            throw AudioError.from(status, "opening ALSA PCM '\(config.device)' for capture")
        }
        let startStatus = boop_capture_start(handle)
        guard startStatus == BOOP_OK else {
            boop_capture_destroy(handle)
            throw AudioError.from(startStatus, "starting capture on ALSA PCM '\(config.device)'")
        }
        let info = boop_capture_get_info(handle)
        let done = DispatchSemaphore(value: 0)
        lock.lock()
        capture = handle
        grantedRate = info.sample_rate
        grantedFormat = info.format.map { String(cString: $0) } ?? ""
        grantedChannels = Int(info.channels)
        stopRequested = false
        streaming = true
        readerDone = done
        lock.unlock()

        continuation.yield(.status(.streaming))
        let frames = config.bufferFrames
        let rate = info.sample_rate
        let device = config.device
        let box = CaptureHandle(handle)
        let thread = Thread { [weak self] in
            self?.readLoop(box.pointer, frames: frames, rate: rate, device: device)
            done.signal()
        }
        thread.name = "boop.capture.reader"
        thread.qualityOfService = .userInteractive
        lock.lock()
        reader = thread
        lock.unlock()
        thread.start()
    }

    /// Stops capturing promptly and yields `.status(.stopped)` (if it was streaming).
    public func stop() {
        lock.lock()
        let handle = capture
        let done = readerDone
        let wasStreaming = streaming
        stopRequested = true
        lock.unlock()
        guard let handle else { return }
        boop_capture_stop(handle)  // the reader sees running == 0 and returns
        done?.wait()
        boop_capture_destroy(handle)
        lock.lock()
        capture = nil
        reader = nil
        readerDone = nil
        streaming = false
        lock.unlock()
        if wasStreaming { continuation.yield(.status(.stopped)) }
    }

    private func readLoop(_ handle: OpaquePointer, frames: Int, rate: Double, device: String) {
        while true {
            let avail = Int(boop_capture_wait(handle, UInt32(frames), 200))
            if avail >= frames {
                var first: UInt64 = 0
                let buffer = [Float](unsafeUninitializedCapacity: frames) { ptr, count in
                    var got: UInt32 = 0
                    _ = boop_capture_read(handle, ptr.baseAddress, UInt32(frames), &got, &first)
                    count = Int(got)
                }
                continuation.yield(.samples(samples: buffer, sampleRate: rate, frameCount: buffer.count,
                                            timestamp: Double(first) / rate))
                continue
            }
            let stats = boop_capture_get_stats(handle)
            if stats.running == 0 {
                lock.lock()
                let requested = stopRequested
                lock.unlock()
                if !requested && stats.error != BOOP_OK {
                    let message = stats.error == BOOP_ERROR_DEVICE_LOST
                        ? "audio device lost: ALSA PCM '\(device)' disappeared or stopped recovering"
                        : AudioError.from(stats.error, "capture on ALSA PCM '\(device)'").description
                    continuation.yield(.error(code: Int(stats.error.rawValue), message: message))
                    lock.lock()
                    streaming = false
                    lock.unlock()
                    continuation.yield(.status(.stopped))
                }
                return
            }
        }
    }
}

/// Carries the C handle into the reader thread's closure.
private final class CaptureHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
