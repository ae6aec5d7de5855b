import Foundation
import Testing

@testable import PixelBoopCore

// MARK: - Note names

@Suite("Note names, cents and frequencies")
struct NoteNameTests {
    @Test(
        "names parse to the right MIDI numbers",
        arguments: [
            ("A4", 69), ("C4", 60), ("C#5", 73), ("Bb2", 46), ("E#3", 53), ("Fb4", 64), ("B#3", 60), ("Cb4", 59),
            ("C-1", 0), ("G9", 127), ("a4", 69), ("bb2", 46), ("F##3", 55), ("Dbb4", 60), ("C♯4", 61), ("E♭4", 63),
            ("A0", 21), ("C8", 108)
        ])
    func midi(text: String, midi: Int) throws {
        #expect(NoteName(text)?.midi == midi)
        guard case .note(let name, let c) = try NoteSpec.parse(text) else {
            Issue.record("\(text) not a note")
            return
        }
        #expect(name.midi == midi)
        #expect(c == 0)
    }

    @Test("every MIDI number's name round-trips, in sharps and in flats")
    func roundTripNames() {
        for m in 0...127 {
            for flats in [false, true] {
                let name = NoteName(midi: m, preferFlats: flats)
                #expect(name.midi == m)
                #expect(NoteName(name.description) == name, "\(name)")
            }
        }
        #expect(NoteName(midi: 61).description == "C#4")
        #expect(NoteName(midi: 61, preferFlats: true).description == "Db4")
        #expect(NoteName(midi: 0).description == "C-1")
    }

    @Test(
        "cents suffixes and frequencies round-trip through their spelling",
        arguments: [
            "A4", "C4+12.5c", "C4-3c", "Bb2+0.001c", "F#6-49.99c", "A4+100c", "440Hz", "440.5Hz", "27.5Hz", "19999.99Hz"
        ])
    func roundTripSpecs(text: String) throws {
        let spec = try NoteSpec.parse(text)
        #expect(spec.description == text)
        #expect(try NoteSpec.parse(spec.description) == spec)
    }

    @Test("spellings that mean the same parse the same")
    func equivalents() throws {
        #expect(try NoteSpec.parse("440hz") == .frequency(440))
        #expect(try NoteSpec.parse("440HZ") == .frequency(440))
        #expect(try NoteSpec.parse("0440.50Hz") == .frequency(440.5))
        #expect(try NoteSpec.parse("C4+12.50c") == .note(NoteName("C4")!, cents: 12.5))
        #expect(try NoteSpec.parse("c4-.5c") == .note(NoteName("C4")!, cents: -0.5))
        #expect(try NoteSpec.parse("A4+0c") == .note(NoteName("A4")!, cents: 0))
    }

    @Test(
        "non-notes are rejected with a message that says what is accepted",
        arguments: [
            "H9", "A4+x", "", "A", "4", "A44", "A10", "A4+3", "A4 +3c", "A4+3 c", "A4c", "A4+-3c", "A#b4", "Abbb4",
            "C-2", "440", "Hz", "nanHz", "infHz", "1e3Hz", "-440Hz", "+440Hz", "440 Hz", "440Hz+3c", "A4+3cents", "A4+3C",
            "X4", "A4.5", "A-4"
        ])
    func rejections(text: String) {
        #expect(throws: NoteParseError.self) { try NoteSpec.parse(text) }
        #expect(NoteParseError(text: text).description.contains("expected a note name"))
    }

    @Test(
        "frequencies outside 20...20000 Hz are invalidFrequency with the value in the message",
        arguments: [
            ("25000Hz", "25000"), ("5Hz", "5"), ("19.99Hz", "19.99"), ("20000.01Hz", "20000.01"), ("0Hz", "0")
        ])
    func outOfRangeFrequencies(text: String, value: String) {
        do {
            _ = try NoteSpec.parse(text)
            Issue.record("\(text) accepted")
        } catch let error as AudioError {
            guard case .invalidFrequency(let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.hasPrefix("\(value) Hz"))
            #expect(message.contains("20...20000 Hz"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Pitch.validated accepts the edges and rejects non-finite and out-of-range values")
    func validated() throws {
        #expect(try Pitch.validated(20) == 20)
        #expect(try Pitch.validated(20000) == 20000)
        for bad in [19.999, 20000.001, 0, -440, .nan, .infinity, -.infinity] {
            #expect(throws: AudioError.self) { try Pitch.validated(bad) }
            do { try Pitch.validated(bad) } catch {
                guard case .invalidFrequency(let message) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(message.contains(Pitch.formatHz(bad)), "\(message)")
            }
        }
        // Names whose frequency is out of range: the note spelling and the value in the message.
        #expect(
            throws: AudioError.invalidFrequency(
                "8.175798916 Hz (C-1 at A4 = 440 Hz): expected a finite frequency within 20...20000 Hz")
        ) {
            try NoteSpec.parse("C-1").frequency()
        }
        #expect(throws: AudioError.self) { try NoteSpec.parse("B9").frequency(extraCents: 500) }
        #expect(throws: AudioError.self) { try Pitch.validFrequency(midi: 0) }
        #expect(try Pitch.validFrequency(midi: 69, reference: 415) == 415)
    }

    @Test("MIDI + cents + reference -> Hz")
    func formula() throws {
        #expect(Pitch.frequency(midi: 69) == 440)
        #expect(abs(Pitch.frequency(midi: 60) - 261.6255653005986) < 1e-9)
        #expect(abs(Pitch.frequency(midi: 60, cents: 50) - 269.2917795) < 1e-6)
        #expect(Pitch.frequency(midi: 81, reference: 442) == 884)
        #expect(abs(try NoteSpec.parse("C4+12.5c").frequency() - 263.5214119) < 1e-6)
        #expect(try NoteSpec.parse("A4").frequency(reference: 415) == 415)
        #expect(abs(try NoteSpec.parse("1000Hz").frequency(extraCents: 1200) - 2000) < 1e-9)
        #expect(abs(cents(try NoteSpec.parse("A4-3c").frequency(reference: 466), 466) + 3) < 1e-9)
    }

    @Test("frequency -> nearest note and cents")
    func nearest() throws {
        let a = try Pitch.nearestNote(to: 440)
        #expect(a.note == NoteName("A4"))
        #expect(abs(a.cents) < 1e-9)
        let b = try Pitch.nearestNote(to: 1000)
        #expect(b.note == NoteName("B5"))
        #expect(abs(b.cents - 21.309485) < 1e-5)
        let c = try Pitch.nearestNote(to: Pitch.frequency(midi: 60, cents: -12.5))
        #expect(c.note == NoteName("C4"))
        #expect(abs(c.cents + 12.5) < 1e-9)
        let halfway = try Pitch.nearestNote(to: Pitch.frequency(midi: 60, cents: 50))
        #expect(halfway.note == NoteName("C#4"))
        #expect(abs(halfway.cents + 50) < 1e-9)
        #expect(try Pitch.nearestNote(to: 442, reference: 442).note == NoteName("A4"))
        #expect(try Pitch.nearestNote(to: 466.1637615, preferFlats: true).note == NoteName("Bb4"))
        #expect(throws: AudioError.self) { try Pitch.nearestNote(to: 10) }
        for m in 21...108 {
            let (note, off) = try Pitch.nearestNote(to: Pitch.frequency(midi: Double(m), cents: 7.25))
            #expect(note.midi == m)
            #expect(abs(off - 7.25) < 1e-9)
        }
    }
}
