import Foundation
import Glibc
import Testing

@testable import PixelBoopCore

/// The screen's output (ScreenOutput.swift): on a non-blocking descriptor it never blocks, keeps
/// what the terminal does not take and writes it on `flush()`; on a blocking one a thread writes.
/// Either way every byte arrives, in order.
@Suite("Screen output")
struct ScreenOutputTests {
    /// A pipe whose write end is non-blocking when `nonBlocking`: (read end, write end).
    static func pipeEnds(nonBlocking: Bool) throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        if nonBlocking { _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    /// Reads what the pipe holds now (its read end is non-blocking).
    static func readNow(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return all }
            all += chunk[..<n]
        }
    }

    /// The terminal reads, the output flushes when its descriptor is ready, until nothing waits.
    static func pump(_ out: ScreenOutput, _ readEnd: Int32) -> [UInt8] {
        var got = readNow(readEnd)
        while out.isBusy && out.failure == nil {
            var fds = [out.readiness, pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, 1000)
            out.flush()
            got += readNow(readEnd)
        }
        return got + readNow(readEnd)
    }

    static func text(_ n: Int, _ seed: Int) -> String {
        String((0..<n).map { Character(UnicodeScalar(UInt8(0x41 + ($0 * 7 + seed) % 26))) })
    }

    @Test("a frame the terminal takes at once is written whole and leaves nothing waiting")
    func smallFrame() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds(nonBlocking: true)
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let out = ScreenOutput(descriptor: writeEnd)
        out.write("\u{1B}[1;1Hhello ✓")
        #expect(!out.isBusy && out.failure == nil)
        #expect(Self.readNow(readEnd) == Array("\u{1B}[1;1Hhello ✓".utf8))
        #expect(out.readiness.fd == writeEnd && out.readiness.events == Int16(POLLOUT))
    }

    @Test("what a full terminal does not take waits, never blocking, and goes out in order on flush")
    func fullTerminal() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds(nonBlocking: true)
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let out = ScreenOutput(descriptor: writeEnd)
        let first = Self.text(300_000, 1)
        let second = Self.text(1000, 2)
        out.write(first)   // more than a pipe holds: returns with the rest waiting
        #expect(out.isBusy)
        out.write(second)   // behind the first, never interleaved
        let got = Self.pump(out, readEnd)
        #expect(got == Array((first + second).utf8))
        #expect(!out.isBusy)
    }

    @Test("a blocking descriptor is written from a thread: the bytes arrive in order all the same")
    func blockingDescriptor() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds(nonBlocking: false)
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let out = ScreenOutput(descriptor: writeEnd)
        #expect(out.readiness.fd != writeEnd && out.readiness.events == Int16(POLLIN))
        let frames = (0..<5).map { Self.text(100_000, $0) }
        for f in frames { out.write(f) }   // never blocks the caller
        let got = Self.pump(out, readEnd)
        #expect(got == Array(frames.joined().utf8))
        #expect(out.failure == nil)
    }

    @Test("a descriptor that cannot be written fails with its errno; nothing is written after it")
    func failure() throws {
        let fd = open("/dev/null", O_RDONLY | O_NONBLOCK | O_CLOEXEC)   // writing it fails with EBADF
        try #require(fd >= 0)
        defer { close(fd) }
        let out = ScreenOutput(descriptor: fd)
        out.write("frame")
        #expect(out.failure == EBADF)
        out.write("more")
        out.drain(seconds: 1)
        #expect(out.failure == EBADF)
    }

    @Test("one write pass goes on from where the last stopped, stops at a full pipe, and names a failure")
    func writePass() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds(nonBlocking: true)
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let bytes = Array(Self.text(16, 3).utf8)
        var written = 4
        #expect(ScreenOutput.write(bytes, from: &written, to: writeEnd) == nil)
        #expect(written == 16 && Self.readNow(readEnd) == Array(bytes[4...]))
        // More than a pipe holds: the terminal takes part, the rest would block (EAGAIN).
        let large = Array(Self.text(300_000, 4).utf8)
        written = 0
        #expect(ScreenOutput.write(large, from: &written, to: writeEnd) == EAGAIN)
        #expect(written > 0 && written < large.count)
        #expect(Self.readNow(readEnd) == Array(large[..<written]))
        // A descriptor open for reading only: the write's errno, nothing counted as written.
        var none = 0
        #expect(ScreenOutput.write(bytes, from: &none, to: readEnd) == EBADF)
        #expect(none == 0)
    }

    @Test("reopening a descriptor that is not a terminal gives none")
    func notATerminal() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds(nonBlocking: true)
        defer {
            close(readEnd)
            close(writeEnd)
        }
        #expect(ScreenOutput(reopening: writeEnd) == nil)
    }
}
