import CMpris
import Dispatch
import Glibc

/// What a desktop media control (keyboard media keys, `playerctl`, a panel widget) asked for.
public enum MediaCommand: Sendable, Equatable, CaseIterable {
    case playPause, play, pause, stop, next, previous, quit
}

/// The state shown to media controls as MPRIS `PlaybackStatus`.
public enum MediaPlaybackStatus: Sendable, Equatable {
    case playing, paused, stopped
}

/// Publishes the running player on the D-Bus session bus as an MPRIS 2.2 media player
/// (`org.mpris.MediaPlayer2.boop.instance<pid>`), so media keys and `playerctl -p boop` can
/// see, pause, resume and quit it.
///
/// All D-Bus work happens on one private control thread — never the audio thread. Remote requests
/// arrive as `MediaCommand`s (through `poll()` or `commands`); the application performs them through
/// the same path as its keyboard and reports what is now true with `update(status:title:)`, which
/// announces the change with `PropertiesChanged`.
///
/// Every method may be called from any thread: the object holds only constants and its `Core`,
/// which guards what changes.
public final class MediaControls: Sendable {
    /// The well-known bus name, e.g. `org.mpris.MediaPlayer2.boop.instance1234`.
    public let busName: String
    /// Remote commands, for async consumers. Holds the 64 newest; use either this or `poll()`.
    public let commands: AsyncStream<MediaCommand>

    private let core: Core

    /// Connects and publishes a player (status Stopped until the first `update`).
    ///
    /// - Parameters:
    ///   - identity: the human-readable player name (`Identity`).
    ///   - nextPrevious: whether `Next`/`Previous` do anything (ambient presets); otherwise
    ///     `CanGoNext`/`CanGoPrevious` are false and those calls have no effect.
    ///   - busAddress: a D-Bus address; nil for the user's session bus. Tests use a private bus.
    ///   - nameSuffix: the part after `org.mpris.MediaPlayer2.`; nil for `boop.instance<pid>`.
    ///   - onUnavailable: receives one line saying why there are no media controls, when there
    ///     are none (no session bus under ssh or CI, name taken ...): from this initialiser, or, for a
    ///     bus lost later, from the `poll()` that first follows the loss, on the caller's thread
    ///     (never the control thread, so it may touch what the caller's loop owns). Commands print
    ///     it only under `-v`.
    /// - Returns: nil when no bus could be used; the program carries on without media controls.
    public init?(
        identity: String = "PixelBoop", nextPrevious: Bool = false, busAddress: String? = nil,
        nameSuffix: String? = nil, onUnavailable: ((String) -> Void)? = nil
    ) {
        var handle: OpaquePointer?
        var err: Int32 = 0
        let status = boop_mpris_create(busAddress, nameSuffix, identity, &handle, &err)
        guard status == BOOP_MPRIS_OK, let handle else {
            var reason = String(cString: boop_mpris_status_string(status))
            if err != 0 { reason += " (\(String(cString: strerror(err))))" }
            onUnavailable?("media controls (MPRIS) off: \(reason)")
            return nil
        }
        busName = String(cString: boop_mpris_bus_name(handle))
        let (stream, continuation) = AsyncStream<MediaCommand>.makeStream(bufferingPolicy: .bufferingNewest(64))
        commands = stream
        core = Core(handle: handle, nextPrevious: nextPrevious, continuation: continuation, onLost: onUnavailable)
        core.start()
    }

    deinit { core.close() }

    /// Publishes the playback state and, when given, the title (pattern or preset name) and length
    /// in seconds (nil: unknown or endless). Emits `PropertiesChanged` for what actually changed.
    public func update(status: MediaPlaybackStatus, title: String? = nil, length: Double? = nil) {
        core.mutate { state in
            state.status = status
            if let title {
                state.title = title
                state.lengthMicroseconds = length.map { Int64(($0 * 1_000_000).rounded()) } ?? -1
            }
        }
    }

    /// What answers the `Position` clients read (no signal carries it, per MPRIS): `source`, in
    /// seconds, asked on the control thread each time a client reads it, so the position comes from
    /// the playback's own clock and no timer keeps it fresh. It must be safe to call from that
    /// thread and must not call this object. Without one the position is 0.
    public func setPositionSource(_ source: @escaping @Sendable () -> Double) {
        core.setPositionSource(source)
    }

    /// The oldest remote command not yet taken, or nil. Never blocks; safe to call from a UI loop.
    public func poll() -> MediaCommand? { core.poll() }

    /// A descriptor that is readable while a command waits to be taken with `poll()`, so a control
    /// loop can sleep in `poll(2)` on it (with the keyboard) instead of waking up to look.
    /// -1 once closed.
    public var wakeDescriptor: Int32 { core.descriptor() }

    /// Withdraws the player from the bus (also done on deinit). Idempotent.
    public func close() { core.close() }
}

extension MediaControls {
    /// Owns the C handle and the control thread. Separate from `MediaControls` so the thread's
    /// reference does not keep the public object alive.
    ///
    /// Lifecycle: running -> stopping (close() asked, or the bus was lost) -> closed. The handle
    /// is destroyed only by close(), after the control thread has ended, and every wake of the
    /// handle happens under the lock while it is known to be alive.
    ///
    /// `@unchecked Sendable`, and why that holds: everything that changes (`state`, `dirty`,
    /// `stopping`, `pending`, `lost`, `started`, `closeRequested`, `closed`, `positionSource`) is
    /// read and written only with `lock` held. The C handle is used by the control thread alone, except
    /// `boop_mpris_wake` (thread-safe in CMpris.h), which is called with `lock` held while `closed`
    /// is false, and `boop_mpris_destroy`, called once, after the control thread has ended. The
    /// rest is constant (descriptors, the continuation, the semaphore); `onLost` (not Sendable) is
    /// called by `poll()` only, on the application's thread, never by the control thread.
    fileprivate final class Core: @unchecked Sendable {
        struct State: Equatable {
            var status: MediaPlaybackStatus = .stopped
            var title: String?
            var lengthMicroseconds: Int64 = -1
            var nextPrevious = false
        }

        private let handle: OpaquePointer
        /// A pipe: a byte is written when commands arrive; drained when the last one is taken.
        let wakeFd: Int32
        private let wakeWriteFd: Int32
        private let lock = Lock()
        private var state = State()
        private var dirty = true
        private var stopping = false
        private var pending: [MediaCommand] = []
        /// Why the bus was lost, until `poll()` hands it to `onLost`.
        private var lost: String?
        private let continuation: AsyncStream<MediaCommand>.Continuation
        private let onLost: ((String) -> Void)?
        private let finished = DispatchSemaphore(value: 0)
        private var started = false
        private var closeRequested = false
        private var closed = false
        private var positionSource: (@Sendable () -> Double)?

        init(
            handle: OpaquePointer, nextPrevious: Bool, continuation: AsyncStream<MediaCommand>.Continuation,
            onLost: ((String) -> Void)?
        ) {
            self.handle = handle
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for fd in ends {
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                }
            } else {
                ends = [-1, -1]
            }
            wakeFd = ends[0]
            wakeWriteFd = ends[1]
            self.continuation = continuation
            self.onLost = onLost
            state.nextPrevious = nextPrevious
        }

        func start() {
            lock.lock()
            started = true
            lock.unlock()
            // Before the thread's first turn, as CMpris asks; the handle never outlives this object.
            _ = boop_mpris_set_position_source(handle, mprisPosition, Unmanaged.passUnretained(self).toOpaque())
            Threads.start(name: "boop-mpris") { [self] in run() }
        }

        func mutate(wake: Bool = true, _ change: (inout State) -> Void) {
            lock.lock()
            let before = state
            change(&state)
            let changed = state != before
            if changed { dirty = true }
            // Unchanged state costs nothing, so a UI loop may report its status every iteration.
            // The wake (an eventfd write) happens under the lock: close() cannot destroy the
            // handle in between.
            if changed && wake && !stopping && !closed { boop_mpris_wake(handle) }
            lock.unlock()
        }

        func setPositionSource(_ source: @escaping @Sendable () -> Double) {
            lock.lock()
            positionSource = source
            lock.unlock()
        }

        /// On the control thread, while a client reads `Position`: the source is called outside
        /// the lock (it may take the application's own).
        func positionMicroseconds() -> Int64 {
            lock.lock()
            let source = positionSource
            lock.unlock()
            guard let seconds = source?(), seconds.isFinite, seconds > 0 else { return 0 }
            return Int64(min(seconds, 1e12) * 1_000_000)
        }

        func poll() -> MediaCommand? {
            lock.lock()
            let lostNow = lost
            lost = nil
            let command = pending.isEmpty ? nil : pending.removeFirst()
            // Once closed the descriptor's number may name another file (a pipe of the caller's,
            // which a read would block on or steal from): never touched again.
            if pending.isEmpty && wakeFd >= 0 && !closed {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(wakeFd, &bytes, bytes.count) > 0 {}
            }
            lock.unlock()
            // Outside the lock: the application's callback may call back into this object.
            if let lostNow { onLost?(lostNow) }
            return command
        }

        /// Idempotent; safe from any thread, also while commands arrive and updates are made.
        func close() {
            lock.lock()
            let first = !closeRequested
            closeRequested = true
            stopping = true
            if first && started { boop_mpris_wake(handle) }
            lock.unlock()
            guard first else { return }
            if started {
                finished.wait()   // the control thread has ended: nobody else uses the handle
            } else {
                continuation.finish()
            }
            lock.lock()
            closed = true
            if wakeFd >= 0 {
                Glibc.close(wakeFd)
                Glibc.close(wakeWriteFd)
            }
            lock.unlock()
            boop_mpris_destroy(handle)
        }

        /// The wake descriptor, or -1 once closed.
        func descriptor() -> Int32 {
            lock.lock()
            defer { lock.unlock() }
            return closed ? -1 : wakeFd
        }

        private func run() {
            defer {
                continuation.finish()
                finished.signal()
            }
            while true {
                lock.lock()
                let snapshot = dirty ? state : nil
                dirty = false
                let stop = stopping
                lock.unlock()
                if let s = snapshot { apply(s) }
                if stop { return }
                // The timeout is only a safety net: updates and close() wake the wait at once.
                guard boop_mpris_process(handle, 500) == BOOP_MPRIS_OK else {
                    lock.lock()
                    stopping = true
                    lost = "media controls (MPRIS) off: the D-Bus connection was lost"
                    if wakeWriteFd >= 0 {
                        var one: UInt8 = 1
                        _ = write(wakeWriteFd, &one, 1)
                    }
                    lock.unlock()
                    return
                }
                var received: [MediaCommand] = []
                while true {
                    let c = boop_mpris_next_command(handle)
                    guard let command = MediaCommand(c) else { break }
                    received.append(command)
                }
                if !received.isEmpty {
                    lock.lock()
                    pending.append(contentsOf: received)
                    if pending.count > 64 { pending.removeFirst(pending.count - 64) }
                    if wakeWriteFd >= 0 {
                        var one: UInt8 = 1
                        _ = write(wakeWriteFd, &one, 1)
                    }
                    lock.unlock()
                    for command in received { continuation.yield(command) }
                }
            }
        }

        private func apply(_ s: State) {
            let playback: boop_mpris_playback
            switch s.status {
            case .playing: playback = BOOP_MPRIS_PLAYING
            case .paused: playback = BOOP_MPRIS_PAUSED
            case .stopped: playback = BOOP_MPRIS_STOPPED
            }
            // Metadata before status, so a client reacting to "Playing" already sees the new title.
            if let title = s.title { _ = boop_mpris_set_metadata(handle, title, s.lengthMicroseconds) }
            _ = boop_mpris_set_can_go_next_previous(handle, s.nextPrevious ? 1 : 0)
            _ = boop_mpris_set_playback(handle, playback)
        }
    }
}

/// CMpris's position callback: the context is the `Core` whose control thread calls it.
private func mprisPosition(_ context: UnsafeMutableRawPointer?) -> Int64 {
    guard let context else { return 0 }
    return Unmanaged<MediaControls.Core>.fromOpaque(context).takeUnretainedValue().positionMicroseconds()
}

extension MediaCommand {
    fileprivate init?(_ c: boop_mpris_command) {
        switch c {
        case BOOP_MPRIS_COMMAND_PLAY_PAUSE: self = .playPause
        case BOOP_MPRIS_COMMAND_PLAY: self = .play
        case BOOP_MPRIS_COMMAND_PAUSE: self = .pause
        case BOOP_MPRIS_COMMAND_STOP: self = .stop
        case BOOP_MPRIS_COMMAND_NEXT: self = .next
        case BOOP_MPRIS_COMMAND_PREVIOUS: self = .previous
        case BOOP_MPRIS_COMMAND_QUIT: self = .quit
        default: return nil
        }
    }
}
