import Foundation
import Glibc
import Testing

@testable import PixelBoopCore

/// Whether `ulimit -v` leaves a sound server's client library room (AddressSpace.swift): the
/// limit, and what is left under it after what the process maps, both in MiB.
@Suite("Address space", .serialized)
struct AddressSpaceTests {
    static let resource = __rlimit_resource_t(RLIMIT_AS.rawValue)

    /// What the process maps now, in MiB (/proc/self/statm's first field, in pages).
    static func mappedMiB() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = try #require(Int(text.split(separator: " ")[0]))
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
    }

    @Test("no limit: no room to report and never too tight")
    func unlimited() throws {
        var limit = rlimit()
        try #require(getrlimit(Self.resource, &limit) == 0)
        // Only where the test runs without `ulimit -v`, as it usually does.
        guard limit.rlim_cur == rlim_t.max else { return }
        #expect(AddressSpace.room() == nil)
        #expect(AddressSpace.tooTightForAClient() == nil)
    }

    @Test("under a limit: the limit in MiB, and the room left after what is mapped")
    func limited() throws {
        var saved = rlimit()
        try #require(getrlimit(Self.resource, &saved) == 0)
        // A limit far above what the process maps (a tebibyte more), so that nothing else running
        // in this process is refused memory meanwhile; the original limit comes back after.
        let headroom = 1 << 20
        let wanted = rlim_t(try Self.mappedMiB() + headroom) << 20
        var tight = saved
        tight.rlim_cur = min(wanted, saved.rlim_max)
        try #require(setrlimit(Self.resource, &tight) == 0)
        defer { _ = setrlimit(Self.resource, &saved) }
        let limitMiB = Int(tight.rlim_cur >> 20)
        let mapped = try Self.mappedMiB()
        let room = try #require(AddressSpace.room())
        #expect(room.limit == limitMiB)
        // What is mapped is read twice, here and there: other tests running in this process map
        // and unmap meanwhile (a thread's stack, an arena), never a gibibyte.
        #expect(room.free <= limitMiB && abs(limitMiB - room.free - mapped) < 1024)
        if room.free >= AddressSpace.clientNeedMiB {
            #expect(AddressSpace.tooTightForAClient() == nil)
        }
    }
}
