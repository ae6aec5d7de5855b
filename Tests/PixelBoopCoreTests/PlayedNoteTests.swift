import Testing

@testable import PixelBoopCore

/// A note from a MIDI keyboard (PlayedNote.swift), as the editor takes it from a channel message.
@Suite("Played note")
struct PlayedNoteTests {
    @Test("a note-on with velocity 0 is a note-off, as MIDI says")
    func zeroVelocity() {
        #expect(!PlayedNote(pitch: 60, velocity: 0, on: true).on)
        #expect(PlayedNote(pitch: 60, velocity: 1, on: true).on)
        #expect(!PlayedNote(pitch: 60, velocity: 100, on: false).on)
        #expect(PlayedNote(status: 0x90, data1: 64, data2: 0) == PlayedNote(pitch: 64, velocity: 0, on: false))
    }

    @Test("note-on and note-off on any channel; the channel and the time kept")
    func channelMessages() {
        #expect(
            PlayedNote(status: 0x93, data1: 60, data2: 100, time: 48_000)
                == PlayedNote(pitch: 60, velocity: 100, on: true, channel: 3, time: 48_000))
        #expect(PlayedNote(status: 0x8F, data1: 61, data2: 64) == PlayedNote(pitch: 61, velocity: 64, on: false, channel: 15))
    }

    @Test("data bytes keep their seven bits; other messages are not notes")
    func others() {
        let masked = PlayedNote(status: 0x90, data1: 0xBC, data2: 0xFF)
        #expect(masked?.pitch == 0x3C && masked?.velocity == 127)
        for status: UInt8 in [0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0, 0xF8, 0x7F, 0x00] {
            #expect(PlayedNote(status: status, data1: 60, data2: 100) == nil, "status \(status)")
        }
    }

    @Test("channel 10 (9 counted from 0) is General MIDI's drums")
    func drums() {
        #expect(PlayedNote(status: 0x99, data1: 36, data2: 90)!.isDrum)
        #expect(!PlayedNote(status: 0x98, data1: 36, data2: 90)!.isDrum)
        #expect(!PlayedNote(status: 0x9A, data1: 36, data2: 90)!.isDrum)
    }
}
