import Dispatch
import Foundation
import Testing

@testable import PixelBoopCore

/// A live transport's lock and the thread that queues its events under it (SchedulingThread.swift):
/// the step runs on the thread holding the lock, `wake()` runs it again, nil from the step ends it.
@Suite("Scheduling thread")
struct SchedulingThreadTests {
    /// State the step and the test share, touched only inside `locked` (or the step, which holds
    /// the lock): a sanitizer run reports a race if the step ran without it.
    final class Shared: @unchecked Sendable {
        var steps = 0
        var inStep = false
        var threads: Set<UInt> = []
    }

    enum Refusal: Error { case no }

    @Test("locked returns what its body returns and passes its error on")
    func locked() throws {
        let thread = SchedulingThread()
        #expect(thread.locked { 41 + 1 } == 42)
        #expect(throws: Refusal.no) { try thread.locked { () throws(Refusal) -> Int in throw .no } }
        #expect(thread.locked { "again" } == "again")   // the lock was released by the throw
    }

    @Test("the step runs on a thread of its own holding the lock; wake runs it again; nil ends it")
    func steps() {
        let thread = SchedulingThread()
        let shared = Shared()
        let ran = DispatchSemaphore(value: 0)
        thread.start(name: "test-steps") {
            shared.inStep = true
            shared.steps += 1
            shared.threads.insert(UInt(pthread_self()))
            shared.inStep = false
            let done = shared.steps >= 3
            ran.signal()
            return done ? nil : 3600   // asleep (at most maxSleepSeconds) until woken
        }
        thread.start(name: "test-steps-again") { nil }   // a second start does nothing
        for expected in 1...3 {
            ran.wait()
            let seen = thread.locked { (shared.steps, shared.inStep) }
            #expect(seen.0 >= expected && !seen.1)
            thread.wake()
        }
        thread.locked {
            #expect(shared.steps == 3)
            #expect(shared.threads.count == 1 && !shared.threads.contains(UInt(pthread_self())))
        }
        thread.end()
        thread.end()   // idempotent
    }

    @Test("end() inside a step takes no lock (the step holds it): no deadlock, and the lock is free after")
    func endInsideStep() {
        let thread = SchedulingThread()
        let shared = Shared()
        let ran = DispatchSemaphore(value: 0)
        thread.start(name: "test-end") { [thread] in
            shared.steps += 1
            thread.end()
            ran.signal()
            return 0   // would run again at once, were it not ended
        }
        ran.wait()
        thread.wake()
        #expect(thread.locked { shared.steps } >= 1)   // the thread let go of the lock
    }
}
