import Foundation
import Glibc
import Testing

@testable import PixelBoopCore

/// The wake pipe (WakePipe.swift): `wake()` from any thread makes the descriptor readable, so a
/// thread sleeping in poll(2) wakes, until `drain()`; `wake()` never blocks.
@Suite("Wake pipe")
struct WakePipeTests {
    /// poll(2) on the pipe's end: true when it is readable within `milliseconds`.
    static func readable(_ pipe: WakePipe, milliseconds: Int32) -> Bool {
        var fds = pollfd(fd: pipe.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fds, 1, milliseconds) == 1 && fds.revents & Int16(POLLIN) != 0
    }

    @Test("asleep until woken; readable after wake(); asleep again after drain()")
    func wakeAndDrain() throws {
        let pipe = try #require(WakePipe())
        #expect(!Self.readable(pipe, milliseconds: 0))
        pipe.wake()
        pipe.wake()
        #expect(Self.readable(pipe, milliseconds: 0))
        pipe.drain()
        #expect(!Self.readable(pipe, milliseconds: 0))
        pipe.drain()   // nothing to read: returns at once (non-blocking)
    }

    @Test("a wake from another thread ends a poll that would otherwise sleep")
    func wakesAPoll() throws {
        let pipe = try #require(WakePipe())
        let thread = Thread { pipe.wake() }
        thread.start()
        // The timeout only bounds a failing test: the wake ends the poll, whenever it comes.
        #expect(Self.readable(pipe, milliseconds: 60_000))
    }

    @Test("wake() never blocks, even far past what the pipe holds; one drain empties it")
    func neverBlocks() throws {
        let pipe = try #require(WakePipe())
        for _ in 0..<200_000 { pipe.wake() }   // a pipe holds 64 KiB: the rest are dropped
        #expect(Self.readable(pipe, milliseconds: 0))
        pipe.drain()
        #expect(!Self.readable(pipe, milliseconds: 0))
    }

    @Test("the end to watch is non-blocking and closed on exec")
    func flags() throws {
        let pipe = try #require(WakePipe())
        #expect(fcntl(pipe.descriptor, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(pipe.descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }
}
