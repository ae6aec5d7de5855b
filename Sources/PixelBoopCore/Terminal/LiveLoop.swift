import Glibc

/// The one control loop of the live commands (play, ambient, edit, train): it sleeps in poll(2)
/// until something is due — a key, a terminal signal, a watched descriptor (media commands, the
/// stop signals' wake pipe), the screen taking a frame that waited, the next deadline the command
/// names, the next frame of its view, or the sound device's end (`endedDescriptor`) — and hands
/// each to the command's handlers. No fixed-rate polling: with nothing due it costs nothing.
///
/// One turn: wait, dispatch what arrived, `onTurn` (the command ticks its transport), then a frame
/// when one is due and the screen is not behind (ScreenOutput: frames are coalesced, never
/// queued, so a terminal that stops reading never stops the loop).
public final class LiveLoop {
    public enum Next: Sendable { case carryOn, stop }

    public let terminal: TerminalSession?
    public let screen: ScreenOutput?
    /// Where the loop reads the time and waits (the system's unless a test drives it).
    public let clock: LoopClock
    private var input = TerminalInput()
    private var watched: [(fd: Int32, handler: () throws -> Next)] = []
    private var dirty = true
    private var nextFrame = 0.0
    private var keysEnded = false

    /// Keys, decoded (a lone ESC once nothing followed it for 30 ms).
    public var onKeys: ([InputEvent]) throws -> Next = { _ in .carryOn }
    /// Terminal signals (TerminalSession.takeEvents).
    public var onTerminalSignal: (Int32) throws -> Next = { _ in .carryOn }
    /// The terminal went away (end of input on stdin).
    public var onHangUp: () throws -> Next = { .stop }
    /// Once a turn, after the input: the command's own work (ticking a transport).
    public var onTurn: () throws -> Next = { .carryOn }
    /// Seconds until the command has something due (its transport's next deadline).
    public var secondsUntilDue: () -> Double = { 1 }
    /// The playback's ended descriptor (AudioPlayback.endedDescriptor) while the command relies on
    /// the device, -1 once it knows the device is gone (while it reopens it): readable, it ends the
    /// wait and `onTurn` learns why from the transport. Asked at every wait, so a reopened device's
    /// new descriptor is the one watched.
    public var endedDescriptor: () -> Int32 = { -1 }
    /// The view: nil draws nothing; `frameInterval` nil redraws only after `redraw()`.
    public var frame: (() -> String)?
    public var frameInterval: Double?

    /// `screen`: where `frame` goes (nil: no view).
    public init(terminal: TerminalSession?, screen: ScreenOutput?, clock: LoopClock = .real) {
        self.terminal = terminal
        self.screen = screen
        self.clock = clock
    }

    /// `handler` runs when `fd` is readable (it must read what woke it, or the loop spins).
    public func watch(_ fd: Int32, _ handler: @escaping () throws -> Next) {
        guard fd >= 0 else { return }
        watched.append((fd, handler))
    }

    /// Stops watching `fd` (a stop signal's wake pipe stays readable once one came).
    public func unwatch(_ fd: Int32) { watched.removeAll { $0.fd == fd } }

    /// The next turn draws a frame (as soon as the screen takes one).
    public func redraw() { dirty = true }

    /// Forgets a half-typed escape sequence (after keys were thrown away).
    public func resetInput() { input = TerminalInput() }

    /// Turns until a handler says stop.
    public func run() throws {
        while try turn(maxWait: .infinity) == .carryOn {}
    }

    /// One turn, waiting at most `maxWait` seconds (a command's own bounded wait).
    @discardableResult
    public func turn(maxWait: Double) throws -> Next {
        if try wait(min(maxWait, secondsUntilDue()), forFrames: true) == .stop { return .stop }
        if try onTurn() == .stop { return .stop }
        drawIfDue()
        return .carryOn
    }

    private func drawIfDue() {
        guard let frame, let screen, !screen.isBusy else { return }
        let now = clock.now()
        let due = dirty || frameInterval.map { _ in now >= nextFrame } ?? false
        guard due else { return }
        dirty = false
        if let frameInterval { nextFrame = now + frameInterval }
        screen.write(frame())
    }

    private func timeout(_ maxWait: Double, forFrames: Bool) -> Int32 {
        var seconds = maxWait
        if forFrames, frame != nil, let screen, !screen.isBusy {
            if dirty { seconds = 0 } else if frameInterval != nil { seconds = min(seconds, nextFrame - clock.now()) }
        }
        if input.isWaiting { seconds = min(seconds, 0.03) }
        // Rounded up, so a wait never ends just before its deadline and spins.
        return Int32((min(max(seconds, 0), 3600) * 1000).rounded(.up))
    }

    /// Waits at most `seconds` (less when a frame is due) and dispatches what arrived; no
    /// `onTurn`, no frame: a command's own wait inside a handler (a lost device's retry).
    public func wait(seconds: Double) throws -> Next { try wait(seconds, forFrames: false) }

    private func wait(_ maxWait: Double, forFrames: Bool) throws -> Next {
        var fds = watched.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let keysAt = fds.count
        let readKeys = terminal != nil && !keysEnded
        fds.append(pollfd(fd: readKeys ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0))
        fds.append(pollfd(fd: terminal?.eventDescriptor ?? -1, events: Int16(POLLIN), revents: 0))
        let busy = screen?.isBusy == true
        fds.append(busy ? screen!.readiness : pollfd(fd: -1, events: 0, revents: 0))
        // Its readiness needs no handler: the turn's onTurn (or the caller of `wait`) follows.
        fds.append(pollfd(fd: endedDescriptor(), events: Int16(POLLIN), revents: 0))
        let ready = clock.poll(&fds, nfds_t(fds.count), timeout(maxWait, forFrames: forFrames))
        guard ready >= 0 else { return .carryOn }   // EINTR: the next turn
        if fds[keysAt + 2].revents != 0 { screen?.flush() }
        if fds[keysAt + 1].revents != 0, let terminal {
            for event in terminal.takeEvents() where try onTerminalSignal(event) == .stop { return .stop }
        }
        if fds[keysAt].revents != 0, let terminal {
            guard let bytes = terminal.takeKeys() else {
                keysEnded = true
                return try onHangUp()
            }
            if try onKeys(input.feed(bytes)) == .stop { return .stop }
        } else if ready == 0 && input.isWaiting {
            if try onKeys(input.flush()) == .stop { return .stop }
        }
        for (i, entry) in watched.enumerated() where fds[i].revents != 0 {
            if try entry.handler() == .stop { return .stop }
        }
        return .carryOn
    }

    /// CLOCK_MONOTONIC in seconds.
    public static func now() -> Double { LoopClock.monotonicSeconds() }
}
