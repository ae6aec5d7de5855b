import Foundation
import Testing

@testable import PixelBoopCore

/// The live commands' loop and screen: a turn sleeps until something is due (never a fixed-rate
/// poll), and a screen whose reader stopped never blocks a write.
@Suite("Live loop and screen output")
struct LiveLoopTests {
    /// A pipe whose write end is non-blocking, as the session's screen descriptor is.
    static func pipePair() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    static func drain(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return all }
            all += buffer[0..<n]
        }
    }

    @Test("a reader that stops: writes return at once, frames are not queued, the rest goes out once read")
    func stoppedReader() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        defer {
            close(r)
            close(w)
        }
        let screen = ScreenOutput(descriptor: w)
        let frame = String(repeating: "x", count: 100_000)   // more than a pipe holds (64 KiB)
        // Reaching the next line is the test: a blocking write would never return, as nobody reads.
        screen.write(frame)
        #expect(screen.isBusy)
        // A loop asks before making a frame: while busy, none is made, so nothing piles up.
        screen.flush()
        #expect(screen.failure == nil)
        var got = LiveLoopTests.drain(r)
        screen.flush()
        got += LiveLoopTests.drain(r)
        screen.flush()
        got += LiveLoopTests.drain(r)
        #expect(!screen.isBusy)
        #expect(got.count == frame.utf8.count)
        screen.write("latest")
        #expect(LiveLoopTests.drain(r) == Array("latest".utf8))
    }

    @Test("a reader that went away: the failure is kept, not retried")
    func closedReader() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        close(r)
        defer { close(w) }
        signal(SIGPIPE, SIG_IGN)
        let screen = ScreenOutput(descriptor: w)
        screen.write("frame")
        #expect(screen.failure == EPIPE)
    }

    @Test("a blocking descriptor (a terminal not opened again): written from a thread, never made non-blocking")
    func blockingDescriptor() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (r, w) = (ends[0], ends[1])
        defer { close(r) }
        var screen: ScreenOutput? = ScreenOutput(descriptor: w)
        let frame = String(repeating: "x", count: 100_000)   // more than a pipe holds (64 KiB)
        screen!.write(frame)
        // The write returned though nobody reads (a blocking write here would never return).
        #expect(screen!.isBusy)
        #expect(fcntl(w, F_GETFL) & O_NONBLOCK == 0)
        var got = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while got < frame.utf8.count {
            let n = read(r, &buffer, buffer.count)
            try #require(n > 0)
            got += n
        }
        var ready = screen!.readiness
        #expect(poll(&ready, 1, 30_000) == 1)
        screen!.flush()
        screen!.drain(seconds: 30)
        #expect(!screen!.isBusy && screen!.failure == nil)
        screen!.write("latest")
        screen!.drain(seconds: 30)
        #expect(read(r, &buffer, buffer.count) == 6)
        screen = nil   // the thread ends; a descriptor it was given stays open
        #expect(fcntl(w, F_GETFD) >= 0)
        close(w)
    }

    @Test("the loop sleeps until the deadline it is given, not less, and wakes at once for a watched descriptor")
    func sleepsUntilDue() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        defer {
            close(r)
            close(w)
        }
        let fake = FakeLoopClock()
        let loop = LiveLoop(terminal: nil, screen: nil, clock: fake.clock)
        var turns = 0
        var woken = 0
        var due = 0.25
        loop.secondsUntilDue = { max(0, due - fake.now) }
        loop.onTurn = {
            turns += 1
            return fake.now >= due ? .stop : .carryOn
        }
        loop.watch(r) {
            woken += LiveLoopTests.drain(r).count
            return .carryOn
        }
        try loop.run()
        // One wait, exactly as long as the deadline was away: it woke when due, not before.
        #expect(fake.waits == [250])
        #expect(fake.now == 0.25)
        #expect(turns == 1)
        // A deadline between two milliseconds: the wait is rounded up, so it never ends just
        // before the deadline (a spare turn that finds nothing due and waits again).
        due = 0.2504
        try loop.run()
        #expect(fake.waits == [250, 1])
        #expect(turns == 2)
        var byte: UInt8 = 1
        _ = write(w, &byte, 1)
        loop.secondsUntilDue = { 10 }
        loop.onTurn = { .stop }
        try loop.run()
        #expect(woken == 1)
        // It was ready to wait the 10 s, and the descriptor woke it with no time passed.
        #expect(fake.waits.last == 10_000)
        #expect(fake.now == 0.251)
    }

    @Test("nothing due: one wait as long as the loop waits at all; the device's ended descriptor ends it at once")
    func endedDescriptorWakes() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        defer {
            close(r)
            close(w)
        }
        let fake = FakeLoopClock()
        let loop = LiveLoop(terminal: nil, screen: nil, clock: fake.clock)
        var ended: Int32 = -1   // the command knows the device is gone (or has none): not watched
        loop.endedDescriptor = { ended }
        loop.secondsUntilDue = { .infinity }
        var turns = 0
        loop.onTurn = {
            turns += 1
            return .stop
        }
        try loop.run()
        // No timer of its own: the only wait is the longest poll(2) is given (an hour).
        #expect(fake.waits == [3_600_000])
        ended = r
        var byte: UInt8 = 1
        _ = write(w, &byte, 1)
        let before = fake.now
        try loop.run()
        // The ended descriptor needs no handler: the wait ends with no time passed and the turn
        // follows (where the command's transport learns why).
        #expect(fake.waits.count == 2 && fake.now == before)
        #expect(turns == 2)
    }

    @Test("a view with a frame interval is drawn when each frame is due, not before; redraw() at once")
    func framesOnInterval() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        defer {
            close(r)
            close(w)
        }
        let fake = FakeLoopClock()
        let loop = LiveLoop(terminal: nil, screen: ScreenOutput(descriptor: w), clock: fake.clock)
        var drawnAt: [Double] = []
        loop.frame = {
            drawnAt.append(fake.now)
            return "f"
        }
        loop.frameInterval = 0.125
        loop.secondsUntilDue = { 10 }   // nothing else due: only the frames wake the loop
        var turns = 0
        loop.onTurn = {
            turns += 1
            return turns > 4 ? .stop : .carryOn
        }
        try loop.run()
        #expect(drawnAt == [0, 0.125, 0.25, 0.375])
        #expect(fake.waits == [0, 125, 125, 125, 125])
        // A redraw between frames (the command's state changed) does not wait for the interval.
        fake.advance(ms: 30)
        loop.redraw()
        loop.onTurn = { .carryOn }
        try loop.turn(maxWait: 10)
        #expect(drawnAt.last == 0.53)
        #expect(fake.waits.last == 0)
        #expect(LiveLoopTests.drain(r).count == 5)
    }

    @Test("frames: one per interval at most, none while the screen is behind, the latest once it is not")
    func framesCoalesce() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        defer {
            close(r)
            close(w)
        }
        let screen = ScreenOutput(descriptor: w)
        let fake = FakeLoopClock()
        let loop = LiveLoop(terminal: nil, screen: screen, clock: fake.clock)
        var made = 0
        var state = 0
        loop.frame = {
            made += 1
            return "frame \(state);" + String(repeating: ".", count: 30_000)
        }
        loop.frameInterval = 0.01
        // A command with work every 10 ms: the turns go on while the screen is stuck.
        loop.secondsUntilDue = { 0.01 }
        var turns = 0
        loop.onTurn = {
            turns += 1
            state += 1
            return turns >= 50 ? .stop : .carryOn
        }
        try loop.run()
        // The pipe holds about two frames: after that no frame is made until it is read.
        #expect(made <= 4)
        #expect(screen.isBusy)
        var seen = LiveLoopTests.drain(r)
        loop.onTurn = { .carryOn }
        for _ in 0..<10 where screen.isBusy {
            try loop.turn(maxWait: 0.05)
            seen += LiveLoopTests.drain(r)
        }
        try loop.turn(maxWait: 0.05)
        seen += LiveLoopTests.drain(r)
        let text = String(decoding: seen, as: UTF8.self)
        #expect(text.contains("frame \(state);"))
    }

    @Test("a line view moves up over its last frame, and starts anew after the terminal came back")
    func lineView() {
        var view = LineView(resumeCount: 3)
        #expect(view.frame(["a", "b"], resumeCount: 3) == "a\u{1B}[K\nb\u{1B}[K\n")
        #expect(view.frame(["c", "d"], resumeCount: 3) == "\u{1B}[2Fc\u{1B}[K\nd\u{1B}[K\n")
        #expect(view.frame(["e"], resumeCount: 4) == "e\u{1B}[K\n")
        // Cut to the width less one column, escapes taking no room, attributes reset after a cut.
        #expect(
            view.frame(["abcdef", "a\u{1B}[7mbc\u{1B}[0md"], resumeCount: 4, columns: 4)
                == "\u{1B}[1Fabc\u{1B}[0m\u{1B}[K\na\u{1B}[7mbc\u{1B}[0m\u{1B}[0m\u{1B}[K\n")
    }
}
