import CAudioEngine
import Dispatch
import Glibc

/// Microphone (or any ALSA capture PCM) as an `AsyncStream` of mono Float32 buffers.
///
/// A C++ I/O thread reads the device into a lock-free ring; a reader thread of this class takes
/// whole buffers of `config.bufferFrames` from the ring and yields them as `.samples` events.
/// `start()` yields `.status(.streaming)`, `stop()` yields `.status(.stopped)`; a lost device
/// yields `.error` and then `.status(.stopped)`. Starting twice throws `alreadyStreaming`. A
/// stopped stream may be started again (a new device handle is opened).
///
/// `@unchecked Sendable`, and why that holds: what changes (`state` with the session's C handle,
/// `stopRequested`, the granted rate and format) is read and written only with `lock` held, and
/// `start()`/`stop()` run whole under `lifecycle`; the rest is constant. The reader thread takes
/// its handle from `state` under `lock`, and the handle is destroyed only after that thread has
/// signalled `readerDone`.
public final class AudioStream: @unchecked Sendable {
    public let config: StreamConfig
    /// Events of every start/stop cycle of this stream; finished when the stream is deallocated.
    public let events: AsyncStream<StreamEvent>
    private let continuation: AsyncStream<StreamEvent>.Continuation

    /// One open device: its handle and the semaphore its reader thread signals once, on return.
    private struct Session {
        let handle: OpaquePointer
        let readerDone: DispatchSemaphore
    }

    /// The lifecycle: idle -> streaming -> (stop) idle, or streaming -> lost (the reader saw the
    /// device go) -> (stop or the next start reaps it) idle.
    private enum State {
        case idle
        case streaming(Session)
        case lost(Session)

        var session: Session? {
            switch self {
            case .idle: return nil
            case .streaming(let s), .lost(let s): return s
            }
        }
    }

    /// Serialises start() and stop() whole, so concurrent calls (a signal handler and the event
    /// loop, say) never both reap one session: the second finds it idle.
    private let lifecycle = Lock()
    /// Guards the fields below; never held while waiting for the reader.
    private let lock = Lock()
    private var state = State.idle
    /// The last session's losses, kept once its handle is gone.
    private var endedLosses: (droppedFrames: UInt64, overruns: UInt64) = (0, 0)
    private var stopRequested = false
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

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// True between a successful `start()` and `stop()` or a device loss.
    public var isStreaming: Bool {
        withLock {
            if case .streaming = state { return true }
            return false
        }
    }

    /// The rate the device granted (0 before the first start).
    public var sampleRate: Double { withLock { grantedRate } }

    /// The device's sample format ("FLOAT_LE", "S32_LE" or "S16_LE") and channel count.
    public var deviceFormat: (format: String, channels: Int) { withLock { (grantedFormat, grantedChannels) } }

    /// Frames lost because the reader fell behind, and recovered device overruns (after a stop:
    /// the session's totals).
    public var losses: (droppedFrames: UInt64, overruns: UInt64) {
        withLock {
            switch state {
            case .idle: return endedLosses
            case .streaming(let session), .lost(let session):
                let s = boop_capture_get_stats(session.handle)
                return (s.frames_dropped, s.overruns)
            }
        }
    }

    /// Opens the device and starts streaming. Throws `alreadyStreaming` while streaming.
    /// Thread safety: any thread.
    public func start() throws(AudioError) {
        try config.validate()
        lifecycle.lock()
        defer { lifecycle.unlock() }
        if isStreaming {
            throw AudioError.alreadyStreaming("capture on \(config.route) is already running")
        }
        reap()   // a stream that ended on its own (device lost)

        let handle = try openDevice()
        let info = boop_capture_get_info(handle)
        let session = Session(handle: handle, readerDone: DispatchSemaphore(value: 0))
        withLock {
            grantedRate = info.sample_rate
            grantedFormat = info.format.map { String(cString: $0) } ?? ""
            grantedChannels = Int(info.channels)
            stopRequested = false
            state = .streaming(session)
        }
        continuation.yield(.status(.streaming))
        let frames = config.bufferFrames
        let rate = info.sample_rate
        let device = config.route
        let done = session.readerDone
        let status = Threads.start(name: "boop.capture.reader") { [weak self] in
            // The session stays in `state` until this thread has signalled `done`.
            if let self, let handle = self.withLock({ self.state.session?.handle }) {
                self.readLoop(handle, frames: frames, rate: rate, route: device)
            }
            done.signal()
        }
        if status != 0 {   // no reader: the session ends here
            done.signal()
            reap()
            throw AudioError.engineStartFailed(
                "cannot start a thread (\(String(cString: strerror(status)))); is memory or the thread count limited?")
        }
    }

    private func openDevice() throws(AudioError) -> OpaquePointer {
        var c = boop_capture_config()
        boop_capture_config_default(&c)
        c.sample_rate = config.sampleRate
        c.channels = UInt32(config.channels)
        // The ring holds at least 8 buffers so a briefly busy reader loses nothing.
        c.ring_frames = UInt32(max(65536, config.bufferFrames * 8))
        c.backend = config.backend.cValue
        c.connect = config.connect ? 1 : 0
        let purpose = "capture at \(Int(config.sampleRate)) Hz, \(config.channels) channel(s)"
        if let refused = config.route.memoryRefused(purpose, beforeOpening: true) { throw refused }
        var handle: OpaquePointer?
        var why = [CChar](repeating: 0, count: 256)
        let status = config.device.withCString { name -> boop_status in
            c.device = name
            return boop_capture_open_why(&c, &handle, &why, why.count)
        }
        guard status == BOOP_OK, let handle else {
            if status == BOOP_ERROR_DEVICE_UNAVAILABLE {
                // A microphone another program holds is "busy", a wrong name "no such file".
                throw config.route.openFailure(purpose, reason: String(cBuffer: why))
            }
            throw AudioError.from(status, "opening \(config.route) for capture")
        }
        let startStatus = boop_capture_start(handle)
        guard startStatus == BOOP_OK else {
            boop_capture_destroy(handle)
            throw AudioError.from(startStatus, "starting capture on \(config.route)")
        }
        return handle
    }

    /// Stops capturing promptly and yields `.status(.stopped)` (if it was streaming). Idempotent;
    /// safe from any thread, also while another thread stops or starts the stream.
    public func stop() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        reap()
    }

    /// Ends the current session, if any. The caller holds `lifecycle`.
    private func reap() {
        let (session, wasStreaming): (Session?, Bool) = withLock {
            stopRequested = true
            switch state {
            case .idle: return (nil, false)
            case .streaming(let s): return (s, true)
            case .lost(let s): return (s, false)
            }
        }
        guard let session else { return }
        boop_capture_stop(session.handle)   // the reader sees running == 0 and returns
        session.readerDone.wait()
        let final = boop_capture_get_stats(session.handle)
        boop_capture_destroy(session.handle)
        withLock {
            state = .idle
            endedLosses = (final.frames_dropped, final.overruns)
        }
        if wasStreaming { continuation.yield(.status(.stopped)) }
    }

    private func readLoop(_ handle: OpaquePointer, frames: Int, rate: Double, route: AudioRoute) {
        while true {
            let avail = Int(boop_capture_wait(handle, UInt32(frames), 200))
            if avail >= frames {
                var first: UInt64 = 0
                let buffer = [Float](unsafeUninitializedCapacity: frames) { ptr, count in
                    var got: UInt32 = 0
                    _ = boop_capture_read(handle, ptr.baseAddress, UInt32(frames), &got, &first)
                    count = Int(got)
                }
                continuation.yield(
                    .samples(
                        samples: buffer, sampleRate: rate, frameCount: buffer.count,
                        timestamp: Double(first) / rate))
                continue
            }
            let stats = boop_capture_get_stats(handle)
            if stats.running == 0 {
                let lost: Bool = withLock {
                    guard !stopRequested, stats.error != BOOP_OK, case .streaming(let s) = state else { return false }
                    state = .lost(s)
                    return true
                }
                if lost {
                    let message =
                        stats.error != BOOP_ERROR_DEVICE_LOST
                        ? AudioError.from(stats.error, "capture on \(route)").description
                        : route.backend == .jack
                            ? "audio device lost: the JACK server shut down or dropped \(route)"
                            : "audio device lost: \(route) disappeared or stopped recovering"
                    continuation.yield(.error(code: Int(stats.error.rawValue), message: message))
                    continuation.yield(.status(.stopped))
                }
                return
            }
        }
    }
}
