import Foundation
import Testing

@testable import PixelBoopCore

/// The held note under the singer (`train match --drone`) on ALSA's null device (no sound card;
/// the playback thread paces the engine by the system clock): it sounds without blocking, a new
/// drone replaces the old one, it sits under the reference by its gain, and stopping releases it.
@Suite("SineWaveNotePlayer+Drone: a held note under the singer")
struct SineWaveNotePlayerDroneTests {
    /// Waits for `condition` (a limit for a loaded machine, not a delay).
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { usleep(1000) }
        return condition()
    }

    /// The loudest block rendered over `frames` engine frames from now.
    static func loudest(_ player: SineWaveNotePlayer, frames: UInt64) -> Float {
        let end = player.engine.frameClock + frames
        var peak: Float = 0
        let deadline = Date().addingTimeInterval(20)
        while player.engine.frameClock < end && Date() < deadline {
            peak = max(peak, player.engine.peak)
            usleep(500)
        }
        return peak
    }

    @Test("a drone sounds at once and holds until stopped; a second one replaces the first")
    func holdsAndReplaces() throws {
        let player = try SineWaveNotePlayer.live(device: "null", sampleRate: 48000)
        defer { player.close(drain: false) }
        try player.startDrone(frequency: 110)
        #expect(Self.eventually { player.engine.activeVoices == 1 })
        // Held: still sounding a quarter of a second of engine time later.
        let later = player.engineFrameClock + 12000
        #expect(Self.eventually { player.engineFrameClock >= later })
        #expect(player.engine.activeVoices == 1)
        // Another drone: the first is released (its 8 ms release), one voice holds on.
        try player.startDrone(frequency: 146.83)
        let settled = player.engineFrameClock + 4800
        #expect(Self.eventually { player.engineFrameClock >= settled })
        #expect(player.engine.activeVoices == 1)
        player.stopDrone()
        #expect(Self.eventually { player.engine.activeVoices == 0 })
        player.stopDrone()   // none held: nothing
        #expect(player.engine.droppedEvents == 0)
    }

    @Test("the drone sits under the player's gain by its own: a tenth is 20 dB down")
    func gain() throws {
        let player = try SineWaveNotePlayer.live(device: "null", sampleRate: 48000, gain: 1)
        defer { player.close(drain: false) }
        try player.startDrone(frequency: 220, gain: 1)
        #expect(Self.eventually { player.engine.activeVoices == 1 })
        let full = Self.loudest(player, frames: 4800)
        try player.startDrone(frequency: 220, gain: 0.1)
        _ = Self.loudest(player, frames: 2400)   // the first one's release
        let tenth = Self.loudest(player, frames: 4800)
        player.stopDrone()
        #expect(full > 0.01)
        #expect(abs(tenth / full - 0.1) < 0.005, "full \(full), tenth \(tenth)")
    }

    @Test("a closed player refuses a drone and stopping one does nothing")
    func closed() throws {
        let player = try SineWaveNotePlayer.live(device: "null", sampleRate: 48000)
        player.close(drain: false)
        #expect(throws: AudioError.deviceLost("the player was closed")) { try player.startDrone(frequency: 220) }
        player.stopDrone()
    }
}
