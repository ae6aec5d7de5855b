import Glibc
import PixelBoopCore
import Synchronization
import Testing

@testable import boop_cli

/// The loop of `tone`, `listen` and the `train` exercises, on a virtual clock: its time moves only
/// by the waits the loop asks for (a ready descriptor ends a wait with no time passed), so the test
/// reads exactly when the loop chose to wake, without sleeping.
@Suite("CommandLoop")
struct CommandLoopTests {
    final class VirtualTime: Sendable {
        let state = Mutex((nowMs: Int64(0), waits: [Int32]()))
        var clock: LoopClock {
            LoopClock(
                now: { Double(self.state.withLock { $0.nowMs }) / 1000 },
                poll: { fds, count, timeout in
                    let ready = Glibc.poll(fds, count, 0)
                    self.state.withLock { s in
                        s.waits.append(timeout)
                        if ready == 0 && timeout > 0 { s.nowMs += Int64(timeout) }
                    }
                    return ready
                })
        }
    }

    @Test("a wait lasts exactly as long as asked, and a capture's readiness ends it with no time passed")
    func waitsUntilDue() throws {
        let time = VirtualTime()
        let loop = CommandLoop(keys: false, clock: time.clock)
        #expect(!loop.readsKeys)
        #expect(try loop.wait(seconds: 0.25) == false)
        #expect(time.state.withLock { $0.waits } == [250])
        let buffer = CaptureBuffer()
        var woken = 0
        loop.watch(buffer.readiness) {
            woken += 1
            return .stop
        }
        buffer.add(.samples(samples: [0.5, -0.5], sampleRate: 16000, frameCount: 2, timestamp: 0))
        #expect(try loop.wait(seconds: 10) == false)
        #expect(woken == 1)
        #expect(time.state.withLock { $0.nowMs } == 250)   // the 10 s wait ended at once
        let got = buffer.take()
        #expect(got.samples == [0.5, -0.5] && got.failure == nil && !got.stopped)
        // Taken: the readiness is quiet again, so the next wait sleeps its whole time.
        #expect(try loop.wait(seconds: 0.5) == false)
        #expect(woken == 1)
        #expect(time.state.withLock { $0.nowMs } == 750)
    }

    @Test("the capture keeps at most its capacity, the oldest buffers dropped, and says when it ended")
    func captureCapacity() {
        let buffer = CaptureBuffer()
        let block = [Float](repeating: 0.25, count: 40_000)
        for k in 0..<5 {
            buffer.add(.samples(samples: block, sampleRate: 16000, frameCount: block.count, timestamp: Double(k)))
        }
        buffer.add(.error(code: -5, message: "lost"))
        buffer.add(nil)
        let got = buffer.take()
        #expect(got.samples.count == CaptureBuffer.capacity)
        #expect(got.failure == "lost" && got.stopped)
    }
}
