import Glibc
import Testing

@testable import PixelBoopCore

/// The live loop's clock: the system's by default, and the tests' stand-in keeps the same contract
/// (a wait ends at once for a ready descriptor, else after its timeout), with the time in its hands.
@Suite("Loop clock")
struct LoopClockTests {
    @Test("a loop reads the system's clock and poll(2) unless given another")
    func realByDefault() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        defer {
            close(r)
            close(w)
        }
        let loop = LiveLoop(terminal: nil, screen: nil)
        let a = loop.clock.now()
        let b = loop.clock.now()
        #expect(b >= a)
        var fd = pollfd(fd: r, events: Int16(POLLIN), revents: 0)
        #expect(loop.clock.poll(&fd, 1, 0) == 0)
        var byte: UInt8 = 1
        _ = write(w, &byte, 1)
        #expect(loop.clock.poll(&fd, 1, 0) == 1)
    }

    @Test("the stand-in: a wait with nothing ready passes its whole timeout, a ready descriptor none")
    func fakeMovesOnlyByWaits() throws {
        let (r, w) = try LiveLoopTests.pipePair()
        defer {
            close(r)
            close(w)
        }
        let fake = FakeLoopClock()
        let clock = fake.clock
        var fd = pollfd(fd: r, events: Int16(POLLIN), revents: 0)
        #expect(clock.poll(&fd, 1, 1500) == 0)
        #expect(clock.now() == 1.5)
        var byte: UInt8 = 1
        _ = write(w, &byte, 1)
        #expect(clock.poll(&fd, 1, 1500) == 1)
        #expect(fd.revents & Int16(POLLIN) != 0)
        #expect(clock.now() == 1.5)
        fake.advance(ms: 250)
        #expect(clock.now() == 1.75)
        #expect(fake.waits == [1500, 1500])
    }
}
