import Foundation
import Testing

@testable import PixelBoopCore

/// The ambient transport's lifecycle on ALSA's null device (present on every machine; the
/// playback thread paces it by the system clock, up to 0.1 s ahead of real time).
@Suite("AmbientTransport")
struct AmbientTransportTests {
    static let presets = AmbientPreset.bundled

    /// Ticks the transport the way a command's loop does until `done` holds; returns every state
    /// seen on the way. 120 s is a limit, not a delay (a debug build among parallel tests on a
    /// loaded two-core machine took more than 20 s for a cross-fade); reaching it is an issue.
    @discardableResult
    static func run(
        _ t: AmbientTransport, until done: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [AmbientTransport.State] {
        var seen = [t.state]
        let deadline = Date().addingTimeInterval(120)
        while !done() {
            guard Date() < deadline else {
                Issue.record("the transport did not get there within 120 s (states: \(seen))", sourceLocation: sourceLocation)
                break
            }
            try t.tick()
            if seen.last != t.state { seen.append(t.state) }
            usleep(UInt32(t.secondsUntilDue(atMost: 0.01) * 1_000_000))
        }
        return seen
    }

    /// True once the music has stood still for a while (a pause has faded).
    static func standsStill(_ t: AmbientTransport) -> Bool {
        let before = t.status.frame
        usleep(30_000)
        return t.status.paused && t.status.frame == before
    }

    static func make(preset: AmbientPreset = presets[0], duration: Double? = nil) throws -> AmbientTransport {
        try AmbientTransport(preset: preset, seed: 7, device: "null", duration: duration)
    }

    @Test("pauses (the music stands still once faded) and resumes where it stood")
    func pauseAndResume() throws {
        let t = try AmbientTransportTests.make()
        #expect(t.state == .ready)
        try t.start()
        #expect(t.state == .playing)
        try AmbientTransportTests.run(t) { t.status.frame > 0 }
        t.setPaused(true)
        #expect(t.state == .paused && t.isPaused)
        t.setPaused(true)   // idempotent
        #expect(t.state == .paused)
        try AmbientTransportTests.run(t) { AmbientTransportTests.standsStill(t) }
        #expect(t.status.paused)
        let stood = t.status.frame
        t.setPaused(false)
        #expect(t.state == .playing && !t.isPaused)
        try AmbientTransportTests.run(t) { t.status.frame > stood }
        #expect(t.status.frame > stood && !t.status.paused)
        t.requestStop()
        try AmbientTransportTests.run(t) { t.state == .finished }
        #expect(t.state == .finished)
    }

    @Test("next and previous crossfade through the bundled presets; a press during a crossfade waits for it")
    func presetCrossfade() throws {
        let all = AmbientTransportTests.presets
        try #require(all.count >= 3)
        let t = try AmbientTransportTests.make(preset: all[0])
        try t.start()
        #expect(t.next() == all[1])
        #expect(t.preset == all[1] && t.playingPreset == all[0] && t.isChangingPreset)
        try t.tick()   // the crossfade starts on the control loop
        #expect(t.playingPreset == all[1])
        #expect(t.next() == all[2])   // chosen during the crossfade: it waits for its end
        #expect(t.isChangingPreset)
        try AmbientTransportTests.run(t) { !t.isChangingPreset }
        #expect(t.playingPreset == all[2] && t.preset == all[2])
        #expect(t.status.frame > 0 && !t.status.finished)
        #expect(t.previous() == all[1])
        #expect(t.previous() == all[0])   // only the last choice is played
        try AmbientTransportTests.run(t) { !t.isChangingPreset }
        #expect(t.playingPreset == all[0])
        #expect(t.previous() == all[all.count - 1])   // wraps round
        t.requestStop()
        try AmbientTransportTests.run(t) { t.state == .finished }
        #expect(t.state == .finished)
    }

    @Test("a preset chosen while paused fades in paused")
    func crossfadeWhilePaused() throws {
        let all = AmbientTransportTests.presets
        let t = try AmbientTransportTests.make(preset: all[0])
        try t.start()
        t.setPaused(true)
        t.next()
        try AmbientTransportTests.run(t) { !t.isChangingPreset && AmbientTransportTests.standsStill(t) }
        #expect(t.playingPreset == all[1] && t.state == .paused && t.status.paused)
        t.setPaused(false)
        try AmbientTransportTests.run(t) { t.status.frame > 0 && !t.status.paused }
        #expect(!t.status.paused)
        t.requestStop()
        try AmbientTransportTests.run(t) { t.state == .finished }
    }

    @Test("--duration: the end fade starts by itself and finishes the music")
    func durationFadesOut() throws {
        let t = try AmbientTransportTests.make(duration: 0.5)
        try t.start()
        let seen = try AmbientTransportTests.run(t) { t.state == .finished }
        // The end fade runs on the transport's own thread, so a slow test thread (a sanitizer, a
        // loaded machine) may first look after it began: the states seen keep their order.
        let order: [AmbientTransport.State] = [.playing, .fadingOut, .finished]
        #expect(seen.last == .finished && seen.allSatisfy(order.contains))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! })
        #expect(t.status.finished)
        let fadeStart = 0.5 - AmbientEngine.endFadeSeconds(duration: 0.5)
        #expect(Double(t.status.frame) / t.sampleRate >= fadeStart)
        #expect(t.stats.error == nil)
        try t.tick()   // nothing left to do
        #expect(t.state == .finished)
    }

    @Test("a requested stop fades out and finishes; pause and preset changes are ignored meanwhile")
    func requestedStop() throws {
        let all = AmbientTransportTests.presets
        let t = try AmbientTransportTests.make(preset: all[0])
        try t.start()
        try AmbientTransportTests.run(t) { t.status.frame > 0 }
        t.requestStop(fade: 0.02)
        #expect(t.state == .fadingOut)
        t.requestStop(fade: 5)   // already fading: the first fade stands
        t.setPaused(true)
        t.next()
        #expect(t.state == .fadingOut && !t.isPaused && t.preset == all[0])
        let seen = try AmbientTransportTests.run(t) { t.state == .finished }
        #expect(seen == [.fadingOut, .finished])
        #expect(t.status.finished)
    }

    @Test("a stop before the start closes without a fade; the transport stays stopped")
    func stopBeforeStart() throws {
        let t = try AmbientTransportTests.make()
        t.requestStop()
        #expect(t.state == .stopped)
        try t.start()
        try t.tick()
        #expect(t.state == .stopped)
        #expect(try t.reopenDevice() == false)   // only while waiting for a lost device
    }

    @Test("a device that does not exist is deviceUnavailable")
    func missingDevice() {
        #expect {
            try AmbientTransport(preset: AmbientTransportTests.presets[0], seed: 1, device: "hw:97,0")
        } throws: { error in
            if case .deviceUnavailable = error as? AudioError { return true }
            return false
        }
    }
}
