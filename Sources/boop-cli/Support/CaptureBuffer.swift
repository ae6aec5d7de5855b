import Glibc
import PixelBoopCore

/// What a capture stream delivered, gathered by a task of its own and taken by the command's
/// thread in its loop: `readiness` turns readable when something arrived, so the loop (`listen`,
/// `train match`, the editor's voice) sleeps until then rather than looking again and again.
/// @unchecked Sendable: `events` and `ended` are guarded by `lock`; `wake` is a pipe (the kernel
/// serialises it).
final class CaptureBuffer: @unchecked Sendable {
    private let lock = Lock()
    private var events: [StreamEvent] = []
    private var frames = 0
    private var ended = false
    private let wake: (read: Int32, write: Int32)

    /// The most samples kept between takes (10 s at 16 kHz): older buffers are dropped, so a
    /// device that delivers faster than real time (the null PCM) or a long pause cannot pile up
    /// a backlog.
    static let capacity = 160_000

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        wake = (ends[0], ends[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Readable once something was gathered and not yet taken (-1 when no pipe could be made:
    /// the loop then wakes only for its deadlines).
    var readiness: Int32 { wake.read }

    /// Takes `stream`'s events and its end, from a task of its own.
    func gather(from stream: AudioStream) {
        Task.detached { [self] in
            for await event in stream.events { add(event) }
            add(nil)
        }
    }

    /// nil: the stream ended.
    private func add(_ event: StreamEvent?) {
        lock.withLock {
            guard let event else {
                ended = true
                return
            }
            events.append(event)
            if case .samples(let s, _, _, _) = event { frames += s.count }
            while frames > Self.capacity, let i = events.firstIndex(where: { if case .samples = $0 { true } else { false } }) {
                if case .samples(let s, _, _, _) = events.remove(at: i) { frames -= s.count }
            }
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)   // a full pipe is already readable
    }

    /// Every event since the last take, in order, and whether the stream has ended.
    func takeEvents() -> (events: [StreamEvent], ended: Bool) {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(wake.read, &bytes, bytes.count) > 0 {}
        return lock.withLock {
            defer {
                events.removeAll(keepingCapacity: true)
                frames = 0
            }
            return (events, ended)
        }
    }

    /// The samples of every buffer since the last take, run together, the stream's failure (if
    /// one came) and whether it stopped.
    func take() -> (samples: [Float], failure: String?, stopped: Bool) {
        let got = takeEvents()
        var samples: [Float] = []
        var failure: String?
        var stopped = got.ended
        for event in got.events {
            switch event {
            case .samples(let s, _, _, _): samples += s
            case .error(_, let message): failure = message
            case .status(let status): if status == .stopped { stopped = true }
            }
        }
        return (samples, failure, stopped)
    }
}
