import Foundation
import Synchronization
import Testing

@testable import PixelBoopCore

/// MPRIS against a real bus and real clients: each test starts its own private dbus-daemon (so it
/// needs no session and cannot disturb the desktop's) and drives the player with `busctl` and
/// `playerctl`, as a media key or panel widget would.
@Suite(
    .serialized,
    .enabled(
        if: PrivateBus.toolsAvailable,
        "needs the CMpris target, dbus-daemon and busctl"))
struct MediaControlsTests {
    @Test func withoutABusInitReturnsNilAndSaysWhy() {
        var reason: String?
        let controls = MediaControls(
            identity: "PixelBoop", busAddress: "unix:path=/nonexistent-\(getpid())/bus",
            onUnavailable: { reason = $0 })
        #expect(controls == nil)
        #expect(reason?.contains("no D-Bus session bus") == true, "\(reason ?? "nil")")
    }

    @Test("a bus slow to start (3 s, as under TSan on a loaded machine) is waited for, not used before it listens")
    func slowBusIsWaitedFor() throws {
        let bus = try PrivateBus(launchDelay: 3)
        let controls = try #require(MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.slow"))
        controls.update(status: .playing, title: "Demo")
        try bus.waitFor(property: "PlaybackStatus", of: controls.busName, equals: "s \"Playing\"")
    }

    @Test("a bus that never comes up within the limit fails saying so, and leaves no daemon behind")
    func busThatNeverComesFailsClearly() throws {
        let started = Date()
        #expect {
            _ = try PrivateBus(launchDelay: 30, limit: 0.5)
        } throws: { error in
            "\(error)".contains("private dbus-daemon not ready: no address printed within 0.5 s")
        }
        // The shell was told (lifeline closed) and ended at once: no waiting out its 30 s delay.
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func publishesStatusTitleAndCapabilities() throws {
        let bus = try PrivateBus()
        let controls = try #require(MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.test1"))
        #expect(controls.busName == "org.mpris.MediaPlayer2.boop.test1")
        controls.update(status: .playing, title: "Demo", length: 8)
        try bus.waitFor(property: "PlaybackStatus", of: controls.busName, equals: "s \"Playing\"")
        #expect(
            try bus.property("Metadata", of: controls.busName)
                == "a{sv} 3 \"mpris:trackid\" o \"/org/pixelboop/track/1\" \"xesam:title\" s \"Demo\" \"mpris:length\" x 8000000")
        #expect(try bus.property("Identity", of: controls.busName, interface: "org.mpris.MediaPlayer2") == "s \"PixelBoop\"")
        #expect(try bus.property("CanQuit", of: controls.busName, interface: "org.mpris.MediaPlayer2") == "b true")
        for (name, value) in [
            ("CanPlay", "true"), ("CanPause", "true"), ("CanControl", "true"), ("CanSeek", "false"),
            ("CanGoNext", "false"), ("CanGoPrevious", "false")
        ] {
            #expect(try bus.property(name, of: controls.busName) == "b \(value)", "\(name)")
        }
        controls.update(status: .paused)
        try bus.waitFor(property: "PlaybackStatus", of: controls.busName, equals: "s \"Paused\"")
        controls.close()
        #expect(try bus.run(["busctl", "--address=\(bus.address)", "status", controls.busName]).status != 0)
    }

    @Test("Position is asked of its source at each read (no refresh), within 0 ... the length")
    func positionFromItsSource() throws {
        let bus = try PrivateBus()
        let controls = try #require(MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.pos"))
        #expect(try position(bus, controls) == 0)   // no source yet
        let clock = LockedBox(2.5)
        controls.setPositionSource { clock.withLock { $0 } }
        controls.update(status: .playing, title: "Demo", length: 8)
        try bus.waitFor(property: "PlaybackStatus", of: controls.busName, equals: "s \"Playing\"")
        #expect(try position(bus, controls) == 2_500_000)
        // Nothing is told to the controls: the next read asks again.
        clock.withLock { $0 = 3.25 }
        #expect(try position(bus, controls) == 3_250_000)
        clock.withLock { $0 = 12 }
        #expect(try position(bus, controls) == 8_000_000)   // the 8 s piece's end
        clock.withLock { $0 = -.infinity }
        #expect(try position(bus, controls) == 0)
    }

    private func position(_ bus: PrivateBus, _ controls: MediaControls) throws -> Int64 {
        let text = try bus.property("Position", of: controls.busName)
        return try #require(Int64(text.dropFirst(2)), "Position read as \(text)")
    }

    @Test("after close() the wake descriptor's number is never read again, whatever file it names by then")
    func closedDescriptorUntouched() throws {
        let bus = try PrivateBus()
        let controls = try #require(MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.fd"))
        let old = controls.wakeDescriptor
        #expect(old >= 0)
        controls.close()
        #expect(controls.wakeDescriptor == -1)
        // Another file takes the freed number, holding a byte of its own. An open takes the lowest
        // free number: the ones below it are filled first (dup2 could close a descriptor of a test
        // running beside this one).
        var fillers: [Int32] = []
        var fd = open("/dev/null", O_RDONLY)
        while fd >= 0 && fd < old {
            fillers.append(fd)
            fd = open("/dev/null", O_RDONLY)
        }
        if fd >= 0 { Glibc.close(fd) }   // `old` itself: free again, and now the lowest
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for fd in ends + fillers where fd >= 0 { Glibc.close(fd) } }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var one: UInt8 = 7
        #expect(write(ends[1], &one, 1) == 1)
        #expect(controls.poll() == nil)
        var got: UInt8 = 0
        #expect(read(ends[0], &got, 1) == 1 && got == 7, "poll() after close() read another file's byte")
        if ends[0] != old { print("note: the freed descriptor \(old) went elsewhere; pipe got \(ends[0])") }
    }

    @Test("close() while commands arrive and updates are made from other threads: no use of a freed handle")
    func closeWhileCommandsArrive() async throws {
        let bus = try PrivateBus()
        for round in 0..<5 {
            let controls = try #require(
                MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.race\(round)"))
            let name = controls.busName
            let address = bus.address
            let caller = Thread {
                // Calls that land after close() fail (the name is gone): expected, not checked.
                let call = [
                    "busctl", "--address=\(address)", "call", name, "/org/mpris/MediaPlayer2",
                    "org.mpris.MediaPlayer2.Player", "PlayPause"
                ]
                for _ in 0..<20 { _ = try? PrivateBus.run(call, address: address) }
            }
            caller.start()
            let group = DispatchGroup()
            for k in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    for i in 0..<500 { controls.update(status: (i + k) % 2 == 0 ? .playing : .paused) }
                }
            }
            try await Task.sleep(nanoseconds: 20_000_000)
            DispatchQueue.global().async(group: group) { controls.close() }
            controls.close()
            group.wait()
            controls.update(status: .stopped)   // after close: a no-op, not a crash
            while controls.poll() != nil {}
        }
    }

    @Test func methodCallsBecomeCommandsInOrder() async throws {
        let bus = try PrivateBus()
        let controls = try #require(MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.test2"))
        controls.update(status: .playing, title: "Demo")
        for method in ["PlayPause", "Pause", "Play", "Stop", "Next", "Previous"] {
            try bus.call(method, on: controls.busName)
        }
        try bus.call("Quit", on: controls.busName, interface: "org.mpris.MediaPlayer2")
        // Next and Previous are disabled for patterns: MPRIS says they then do nothing.
        var got: [MediaCommand] = []
        let deadline = Date().addingTimeInterval(PrivateBus.startLimit)
        while got.count < 5 && Date() < deadline {
            while let c = controls.poll() { got.append(c) }
            if got.count < 5 { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        #expect(got == [.playPause, .pause, .play, .stop, .quit])
    }

    @Test("the wake descriptor is readable exactly while a command waits, so a control loop can sleep on it")
    func wakeDescriptorWakesASleepingLoop() throws {
        let bus = try PrivateBus()
        let controls = try #require(MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.test5"))
        controls.update(status: .playing, title: "Demo")
        func readable(waitingMilliseconds: Int32) -> Bool {
            var fd = pollfd(fd: controls.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            return poll(&fd, 1, waitingMilliseconds) == 1
        }
        #expect(controls.wakeDescriptor >= 0)
        #expect(!readable(waitingMilliseconds: 0))
        try bus.call("Pause", on: controls.busName)
        try bus.call("Play", on: controls.busName)
        // One sleep in poll(2), as `boop play` does; the command wakes it (60 s is only a limit).
        #expect(readable(waitingMilliseconds: 60_000))
        var got: [MediaCommand] = []
        while got.count < 2 {
            while let c = controls.poll() { got.append(c) }
            if got.count < 2 { #expect(readable(waitingMilliseconds: 60_000)) }
        }
        #expect(got == [.pause, .play])
        #expect(!readable(waitingMilliseconds: 0))
    }

    @Test("a bus lost later is reported by the next poll(), on the polling thread (never the control thread)")
    func lostBusIsReportedOnThePollingThread() throws {
        var bus: PrivateBus? = try PrivateBus()
        // What onUnavailable saw, and on which thread (by its pthread id): behind a lock, since
        // the callback's thread is what the test is about.
        let seen = Mutex<(lines: [String], threads: [pthread_t])>(([], []))
        let controls = try #require(
            MediaControls(
                identity: "PixelBoop", busAddress: bus!.address, nameSuffix: "boop.lost",
                onUnavailable: { line in
                    seen.withLock {
                        $0.lines.append(line)
                        $0.threads.append(pthread_self())
                    }
                }))
        controls.update(status: .playing, title: "Demo")
        bus = nil   // the daemon is killed
        var fd = pollfd(fd: controls.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fd, 1, 60_000) == 1, "the loss wakes a loop sleeping on the descriptor (60 s is only a limit)")
        #expect(controls.poll() == nil)
        let me = pthread_self()
        #expect(seen.withLock { $0.lines } == ["media controls (MPRIS) off: the D-Bus connection was lost"])
        #expect(seen.withLock { $0.threads.allSatisfy { pthread_equal($0, me) != 0 } })
        #expect(controls.poll() == nil)
        #expect(seen.withLock { $0.lines.count } == 1, "said once")
        fd.revents = 0
        #expect(poll(&fd, 1, 0) == 0, "nothing left to wake for")
    }

    @Test func nextAndPreviousWhenEnabledAndTheAsyncStream() async throws {
        let bus = try PrivateBus()
        let controls = try #require(
            MediaControls(
                identity: "PixelBoop", nextPrevious: true, busAddress: bus.address,
                nameSuffix: "boop.test3"))
        controls.update(status: .playing, title: "Deep Space")
        try bus.waitFor(property: "CanGoNext", of: controls.busName, equals: "b true")
        try bus.call("Next", on: controls.busName)
        try bus.call("Previous", on: controls.busName)
        var iterator = controls.commands.makeAsyncIterator()
        #expect(await iterator.next() == .next)
        #expect(await iterator.next() == .previous)
        controls.update(status: .playing, title: "Glass Rain")
        try bus.waitFor(
            property: "Metadata", of: controls.busName,
            equals: "a{sv} 2 \"mpris:trackid\" o \"/org/pixelboop/track/2\" \"xesam:title\" s \"Glass Rain\"")
        controls.close()
        #expect(await iterator.next() == nil)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl"), "needs playerctl"))
    func playerctlSeesAndControlsIt() async throws {
        let bus = try PrivateBus()
        let controls = try #require(
            MediaControls(
                identity: "PixelBoop", busAddress: bus.address,
                nameSuffix: "boop.instance\(getpid())"))
        controls.update(status: .playing, title: "Lullaby")
        try bus.waitFor(property: "PlaybackStatus", of: controls.busName, equals: "s \"Playing\"")
        #expect(try bus.playerctl(["status"]) == "Playing")
        #expect(try bus.playerctl(["metadata", "title"]) == "Lullaby")
        _ = try bus.playerctl(["play-pause"])
        var got: MediaCommand?
        let deadline = Date().addingTimeInterval(PrivateBus.startLimit)
        while got == nil && Date() < deadline {
            got = controls.poll()
            if got == nil { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        #expect(got == .playPause)
        controls.update(status: .paused)
        try bus.waitFor(property: "PlaybackStatus", of: controls.busName, equals: "s \"Paused\"")
        #expect(try bus.playerctl(["status"]) == "Paused")
    }
}

/// A dbus-daemon of our own, on a socket in a temporary folder, stopped when the value goes away.
///
/// Ready means dbus-daemon has printed its address (`--print-address`), which it does only once it
/// listens on the socket: the tests wait for that, up to `startLimit` (a TSan build on a loaded
/// two-core machine takes seconds to start anything), and fail saying so if it never comes.
/// dbus-daemon runs under a small shell that holds a lifeline pipe from this process: when the pipe
/// closes (deinit, or this test runner dying in any way, even SIGKILL) the shell kills the daemon,
/// so no bus outlives its test. The daemon runs in a process group of its own (`set -m`), killed
/// whole: a process left over from it would keep Foundation from seeing the shell end.
final class PrivateBus {
    static var toolsAvailable: Bool {
        ["/usr/bin/dbus-daemon", "/usr/bin/busctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// How long to wait for the daemon to listen, or for a property or command to arrive.
    static let startLimit: TimeInterval = 60

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let address: String
    private let keeper: Process
    private let lifeline: Pipe
    private let folder: URL

    /// `launchDelay` holds dbus-daemon back that long, as a loaded machine would (for the tests of
    /// the wait itself); `limit` is how long to wait for it.
    init(launchDelay: Double = 0, limit: TimeInterval = PrivateBus.startLimit) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("boop-bus-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bus.conf")
        let socket = folder.appendingPathComponent("bus").path
        let log = folder.appendingPathComponent("dbus-daemon.log").path
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
          "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        // SIGKILL from the shell, not SIGTERM from here: Foundation spawns children with the test
        // runner's signal mask, in which SIGTERM is blocked, so dbus-daemon would never see it.
        keeper = Process()
        keeper.executableURL = URL(fileURLWithPath: "/bin/bash")
        keeper.arguments = [
            "-c",
            """
            set -m
            (sleep "$3" && exec /usr/bin/dbus-daemon --config-file="$1" --nofork --nopidfile --print-address=1) \
                </dev/null 2>"$2" &
            daemon=$!
            cat >/dev/null
            kill -KILL -- "-$daemon" 2>/dev/null
            wait "$daemon" 2>/dev/null
            exit 0
            """,
            "private-bus", config.path, log, String(launchDelay)
        ]
        lifeline = Pipe()
        // Only the shell may hold the lifeline's write end open: not inherited by any other child.
        _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let printed = Pipe()
        keeper.standardInput = lifeline
        keeper.standardOutput = printed
        keeper.standardError = FileHandle.nullDevice
        try keeper.run()
        address = "unix:path=\(socket)"
        do {
            let line = try Self.readLine(from: printed.fileHandleForReading.fileDescriptor, within: limit)
            guard line.contains(socket) else { throw Failure(description: "dbus-daemon printed \(line), not \(socket)") }
        } catch let failure as Failure {
            stop()
            let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "private dbus-daemon not ready: \(failure.description); its stderr: \(stderr)")
        }
    }

    /// The first line written to `fd`, waiting at most `limit` seconds for it.
    private static func readLine(from fd: Int32, within limit: TimeInterval) throws -> String {
        let deadline = Date().addingTimeInterval(limit)
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "no address printed within \(String(format: "%g", limit)) s") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(left, 1) * 1000))
            if r <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 512)
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "it exited before printing its address") }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private var stopped = false
    private func stop() {
        guard !stopped else { return }
        stopped = true
        try? lifeline.fileHandleForWriting.close()
        keeper.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PrivateBus.run(arguments, address: address)
    }

    /// As `run`, from a thread that may not hold the bus (the bus object is not Sendable).
    static func run(_ arguments: [String], address: String) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func property(_ name: String, of service: String, interface: String = "org.mpris.MediaPlayer2.Player") throws -> String {
        try run(["busctl", "--address=\(address)", "get-property", service, "/org/mpris/MediaPlayer2", interface, name]).output
    }

    func waitFor(property name: String, of service: String, equals expected: String) throws {
        var last = ""
        let deadline = Date().addingTimeInterval(Self.startLimit)
        repeat {
            last = try property(name, of: service)
            if last == expected { return }
            usleep(10_000)
        } while Date() < deadline
        Issue.record("\(name): expected \(expected), got \(last) after \(Int(Self.startLimit)) s")
    }

    func call(_ method: String, on service: String, interface: String = "org.mpris.MediaPlayer2.Player") throws {
        let r = try run(["busctl", "--address=\(address)", "call", service, "/org/mpris/MediaPlayer2", interface, method])
        #expect(r.status == 0, "\(method): \(r.output)")
    }

    func playerctl(_ arguments: [String]) throws -> String {
        try run(["playerctl", "-p", "boop"] + arguments).output
    }
}
