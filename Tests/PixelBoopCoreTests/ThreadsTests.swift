import Testing

@testable import PixelBoopCore

/// The lock, the condition and the thread starter that stand in for Foundation's: mutual
/// exclusion under contention, a condition that wakes its waiter and reports a deadline already
/// past at once, and a started thread that runs its body under its name (cut to 15 bytes). No
/// assertion on how long anything took.
@Suite("Threads")
struct ThreadsTests {
    final class Counter: @unchecked Sendable {
        let lock = Lock()
        var value = 0
    }

    @Test("a lock makes increments from many threads exact")
    func lock() {
        let counter = Counter()
        let done = Condition()
        var finished = 0
        let threads = 8
        let each = 10_000
        final class Finished: @unchecked Sendable { var count = 0 }
        let box = Finished()
        for t in 0..<threads {
            #expect(
                Threads.start(name: "counter-\(t)") {
                    for _ in 0..<each { counter.lock.withLock { counter.value += 1 } }
                    done.withLock {
                        box.count += 1
                        done.signal()
                    }
                } == 0)
        }
        done.withLock {
            while box.count < threads { done.wait() }
            finished = box.count
        }
        #expect(finished == threads)
        #expect(counter.lock.withLock { counter.value } == threads * each)
    }

    @Test("a deadline already past, or minus infinity, returns false at once; a signal wakes the waiter")
    func condition() {
        let c = Condition()
        c.lock()
        #expect(!c.wait(until: Timestamp(timeIntervalSince1970: 0)))
        #expect(!c.wait(until: Timestamp(timeIntervalSince1970: -.infinity)))
        c.unlock()
        final class Flag: @unchecked Sendable { var set = false }
        let flag = Flag()
        Threads.start(name: "signaller") {
            c.withLock {
                flag.set = true
                c.broadcast()
            }
        }
        c.withLock {
            // Woken by the broadcast long before this far deadline (a day), which is never asserted on.
            while !flag.set { _ = c.wait(until: Timestamp(timeIntervalSince1970: Timestamp().timeIntervalSince1970 + 86400)) }
        }
        #expect(flag.set)
    }

    @Test("a started thread carries its name, cut to the kernel's 15 bytes")
    func name() {
        let c = Condition()
        final class Seen: @unchecked Sendable { var name: String? }
        let seen = Seen()
        Threads.start(name: "boop-a-very-long-thread-name") {
            let text = FileBytes.text("/proc/thread-self/comm") ?? ""
            c.withLock {
                seen.name = text.trimmingWhitespace().split(separator: "\n").first.map(String.init) ?? ""
                c.signal()
            }
        }
        c.withLock { while seen.name == nil { c.wait() } }
        #expect(seen.name == "boop-a-very-lon")
    }
}
