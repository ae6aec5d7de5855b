import Foundation
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

    @Test("close() while commands arrive and updates are made from other threads: no use of a freed handle")
    func closeWhileCommandsArrive() async throws {
        let bus = try PrivateBus()
        for round in 0..<5 {
            let controls = try #require(
                MediaControls(identity: "PixelBoop", busAddress: bus.address, nameSuffix: "boop.race\(round)"))
            let name = controls.busName
            let caller = Thread {
                // Calls that land after close() fail (the name is gone): expected, not checked.
                let call = [
                    "busctl", "--address=\(bus.address)", "call", name, "/org/mpris/MediaPlayer2",
                    "org.mpris.MediaPlayer2.Player", "PlayPause"
                ]
                for _ in 0..<20 { _ = try? bus.run(call) }
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
        for _ in 0..<200 where got.count < 5 {
            while let c = controls.poll() { got.append(c) }
            try await Task.sleep(nanoseconds: 5_000_000)
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
        // One sleep in poll(2), as `boop play` does; the command wakes it (5 s is only a limit).
        #expect(readable(waitingMilliseconds: 5000))
        var got: [MediaCommand] = []
        while got.count < 2 {
            while let c = controls.poll() { got.append(c) }
            if got.count < 2 { #expect(readable(waitingMilliseconds: 5000)) }
        }
        #expect(got == [.pause, .play])
        #expect(!readable(waitingMilliseconds: 0))
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
        for _ in 0..<200 where got == nil {
            got = controls.poll()
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(got == .playPause)
        controls.update(status: .paused)
        try bus.waitFor(property: "PlaybackStatus", of: controls.busName, equals: "s \"Paused\"")
        #expect(try bus.playerctl(["status"]) == "Paused")
    }
}

/// A dbus-daemon of our own, on a socket in a temporary folder, stopped when the value goes away.
final class PrivateBus {
    static var toolsAvailable: Bool {
        ["/usr/bin/dbus-daemon", "/usr/bin/busctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let address: String
    private let daemon: Process
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("boop-bus-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bus.conf")
        let socket = folder.appendingPathComponent("bus").path
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
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(config.path)", "--nofork", "--nopidfile"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        address = "unix:path=\(socket)"
        for _ in 0..<400 where !FileManager.default.fileExists(atPath: socket) { usleep(5_000) }
    }

    deinit {
        // Not terminate(): Foundation spawns children with the test runner's signal mask, in which
        // SIGTERM is blocked, so dbus-daemon would never see it.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
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
        for _ in 0..<200 {
            last = try property(name, of: service)
            if last == expected { return }
            usleep(10_000)
        }
        Issue.record("\(name): expected \(expected), got \(last)")
    }

    func call(_ method: String, on service: String, interface: String = "org.mpris.MediaPlayer2.Player") throws {
        let r = try run(["busctl", "--address=\(address)", "call", service, "/org/mpris/MediaPlayer2", interface, method])
        #expect(r.status == 0, "\(method): \(r.output)")
    }

    func playerctl(_ arguments: [String]) throws -> String {
        try run(["playerctl", "-p", "boop"] + arguments).output
    }
}
