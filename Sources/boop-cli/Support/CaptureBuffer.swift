import Glibc
import PixelBoopCore

/// What a capture stream delivered, gathered by a task of its own and taken by the command's
/// thread in its loop: `readiness` turns readable when something arrived, so the loop (`listen`,
/// `train match`, the editor's voice) sleeps until then rather than looking again and again.
final class CaptureBuffer: Sendable {
    private struct State {
        var events: [StreamEvent] = []
        var frames = 0
        var ended = false
        /// The gathering task has begun (the runtime had a thread for it).
        var gathering = false
    }
    private let state = LockedBox(State())
    private let wake = WakePipe()

    /// The most samples kept between takes (10 s at 16 kHz): older buffers are dropped, so a
    /// device that delivers faster than real time (the null PCM) or a long pause cannot pile up
    /// a backlog.
    static let capacity = 160_000

    /// Readable once something was gathered and not yet taken (-1 when no pipe could be made:
    /// the loop then wakes only for its deadlines).
    var readiness: Int32 { wake?.descriptor ?? -1 }

    /// Takes `stream`'s events and its end, from a task of its own.
    func gather(from stream: AudioStream) {
        Task.detached { [self] in
            state.withLock { $0.gathering = true }
            wake?.wake()
            for await event in stream.events { add(event) }
            add(nil)
        }
    }

    /// Whether the gathering task began within `seconds`. The concurrency runtime starts its
    /// threads only when a task needs one, and where none can start then (`ulimit -v` with the
    /// capture's memory taken) the task never runs and nothing would ever arrive: the caller says
    /// so and ends instead of waiting for ever. The wake it raised is drained by the next take.
    func waitUntilGathering(seconds: Double) -> Bool {
        let end = LoopClock.monotonicSeconds() + seconds
        while !state.withLock({ $0.gathering }) {
            let left = end - LoopClock.monotonicSeconds()
            guard left > 0 else { return false }
            var fd = pollfd(fd: readiness, events: Int16(POLLIN), revents: 0)
            // Without a pipe nothing wakes this wait: it looks again every 10 ms.
            _ = readiness >= 0 ? poll(&fd, 1, Int32(min(left, 1) * 1000) + 1) : poll(nil, 0, 10)
        }
        return true
    }

    /// One event of the stream (nil: the stream ended), and the readiness raised.
    func add(_ event: StreamEvent?) {
        state.withLock { s in
            guard let event else {
                s.ended = true
                return
            }
            s.events.append(event)
            if case .samples(let samples, _, _, _) = event { s.frames += samples.count }
            while s.frames > Self.capacity, let i = s.events.firstIndex(where: { if case .samples = $0 { true } else { false } })
            {
                if case .samples(let dropped, _, _, _) = s.events.remove(at: i) { s.frames -= dropped.count }
            }
        }
        wake?.wake()
    }

    /// Every event since the last take, in order, and whether the stream has ended.
    func takeEvents() -> (events: [StreamEvent], ended: Bool) {
        wake?.drain()
        return state.withLock { s in
            defer {
                s.events.removeAll(keepingCapacity: true)
                s.frames = 0
            }
            return (s.events, s.ended)
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
