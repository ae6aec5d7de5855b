import Foundation
import Glibc
import Testing

@testable import PixelBoopCore

/// The screen's writes on a thread of their own (BlockingScreenWriter.swift), for a blocking
/// descriptor: every byte handed over reaches it, in order, however the writes are cut, and the
/// command's thread never blocks on it.
@Suite("Blocking screen writer")
struct BlockingScreenWriterTests {
    /// A blocking pipe: (read end, write end).
    static func pipeEnds() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    /// Everything read from `fd` until end of file.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return all }
            all += chunk[..<n]
        }
    }

    /// Waits until the writer has written all it was given (its notice pipe says so each time).
    static func waitIdle(_ writer: BlockingScreenWriter) {
        while writer.isBusy {
            var fds = pollfd(fd: writer.doneDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, 1000)
            writer.takeNotices()
        }
    }

    @Test("many writes, several times what a pipe holds, arrive whole and in order; finish closes an owned end")
    func inOrder() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds()
        defer { close(readEnd) }
        let writer = try #require(BlockingScreenWriter(descriptor: writeEnd, owned: true))
        var sent: [UInt8] = []
        for i in 0..<300 {
            let frame = [UInt8](repeating: UInt8(i % 251), count: 1000 + i)
            sent += frame
            writer.write(frame)   // never blocks, though the pipe is full long before the end
        }
        writer.finish()
        // The thread writes what it holds, then closes the descriptor it owns: end of file here.
        #expect(Self.readAll(readEnd) == sent)
        #expect(writer.failure == nil)
    }

    @Test("busy until the bytes are written; idle again once the terminal took them")
    func busy() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let writer = try #require(BlockingScreenWriter(descriptor: writeEnd, owned: false))
        defer { writer.finish() }
        #expect(!writer.isBusy)
        let frame = [UInt8](repeating: 0x41, count: 200_000)
        writer.write(frame)
        #expect(writer.isBusy)   // more than a pipe holds: the thread is blocked until it is read
        var got: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while got.count < frame.count {
            let n = read(readEnd, &chunk, chunk.count)
            if n > 0 { got += chunk[..<n] }
        }
        Self.waitIdle(writer)
        #expect(got == frame && !writer.isBusy && writer.failure == nil)
    }

    @Test("a failed write is kept as its errno; nothing is taken after it")
    func failure() throws {
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)   // writing it fails with EBADF
        try #require(fd >= 0)
        let writer = try #require(BlockingScreenWriter(descriptor: fd, owned: true))
        defer { writer.finish() }
        writer.write(Array("frame".utf8))
        Self.waitIdle(writer)
        #expect(writer.failure == EBADF)
        writer.write(Array("more".utf8))
        #expect(!writer.isBusy)
    }
}
