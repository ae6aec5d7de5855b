import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

/// A MIDI keyboard for a control loop (MidiKeyboard.swift). On JACK it has no client of its own
/// until a playback opens it, so it can be made and asked here without a server; the notes
/// themselves come from JACK's process callback or the ALSA sequencer, which the live tests cover
/// (PlayedNoteTests covers how `take()` reads each message).
@Suite("MIDI keyboard")
struct MidiKeyboardTests {
    static func sound(gain: Float = 0.5, kind: boop_keys_kind = BOOP_KEYS_SILENT, index: UInt32 = 0) -> KeysSound {
        KeysSound(
            kind: kind, index: index, gain: gain, accentGain: 1, accentVelocity: 100,
            keys: [UInt8](repeating: 0xFF, count: 16))
    }

    @Test("a JACK keyboard: no descriptor (nothing wakes the loop), its source remembered, nothing waiting")
    func jack() throws {
        let keys = try MidiKeyboard(jackSource: "a2j:Keystation [20] (capture): Keystation MIDI 1")
        #expect(keys.descriptor == -1 && !keys.wakesLoop)
        #expect(keys.jackSource == "a2j:Keystation [20] (capture): Keystation MIDI 1")
        #expect(keys.source == keys.jackSource)
        #expect(keys.take().isEmpty && keys.dropped == 0)
    }

    @Test("the sound a JACK keyboard's notes play with is handed over; a wrong one is refused")
    func sound() throws {
        let keys = try MidiKeyboard(jackSource: "keys")
        let engine = try AudioEngine()
        try keys.setSound(engine: engine, sound: Self.sound())
        try keys.setSound(engine: engine, sound: Self.sound(kind: BOOP_KEYS_INSTRUMENT, index: TrackKind.bass.instrumentSlot))
        #expect(throws: AudioError.self) { try keys.setSound(engine: engine, sound: Self.sound(gain: -1)) }
        #expect(throws: AudioError.self) {
            try keys.setSound(engine: engine, sound: Self.sound(kind: BOOP_KEYS_INSTRUMENT, index: 99))
        }
    }

    @Test("settings wait for the playback's process callback: the seventeenth untaken one is refused")
    func soundQueue() throws {
        let keys = try MidiKeyboard(jackSource: "keys")
        let engine = try AudioEngine()
        for _ in 0..<16 { try keys.setSound(engine: engine, sound: Self.sound()) }
        #expect {
            try keys.setSound(engine: engine, sound: Self.sound())
        } throws: { error in
            guard case AudioError.queueFull = error else { return false }
            return true
        }
    }
}
