import Foundation
import Testing

@testable import PixelBoopCore

/// A tuning as MIDI Tuning Standard messages: frequency data decoded back with the standard's
/// formula (semitone + fraction / 16384 above 8.1758 Hz, equal-tempered, A4 = 440 Hz) to within
/// half its resolution (100 / 16384 / 2 cents), the range and the reserved "no change" value, and
/// the Single Note Tuning Change messages' layout byte by byte.
@Suite("MidiTuningMessages")
struct MidiTuningMessagesTests {
    /// The frequency MTS frequency data names.
    static func decoded(_ data: [UInt8]) -> Double {
        let semitones = Double(data[0]) + Double(Int(data[1]) << 7 | Int(data[2])) / 16384
        return 440 * pow(2, (semitones - 69) / 12)
    }

    static func tuning(_ keyHz: [Double]) -> ScalaTuning {
        ScalaTuning(
            scalePath: "t.scl", mappingPath: nil, description: "t", degreeCount: 12, keyHz: keyHz, texts: [],
            mappingLength: nil)
    }

    @Test("equal-tempered keys are whole semitones")
    func equalTempered() {
        #expect(MidiTuningMessages.frequencyData(hz: 440) == [69, 0, 0])
        #expect(MidiTuningMessages.frequencyData(hz: 440 * pow(2, -69.0 / 12)) == [0, 0, 0])
        #expect(MidiTuningMessages.frequencyData(hz: 440 * pow(2, 58.0 / 12)) == [127, 0, 0])
        #expect(MidiTuningMessages.frequencyData(hz: 440 * pow(2, 0.5 / 12)) == [69, 0x40, 0])   // a quarter tone
    }

    @Test("any frequency in range decodes to itself within 0.0031 cents")
    func resolution() throws {
        var hz = 8.2
        while hz < 12500 {
            let data = try #require(MidiTuningMessages.frequencyData(hz: hz))
            #expect(data.allSatisfy { $0 < 128 })
            #expect(abs(1200 * log2(Self.decoded(data) / hz)) <= 100.0 / 16384 / 2 + 1e-9, "\(hz) Hz")
            hz *= 1.0137
        }
    }

    @Test("a fraction that rounds up to a whole semitone carries into it")
    func carry() {
        let justBelow = 440 * pow(2, (1 - 1e-7) / 12)   // 70 - 1e-7 semitones
        #expect(MidiTuningMessages.frequencyData(hz: justBelow) == [70, 0, 0])
    }

    @Test("outside 8.18 Hz ... 12.5 kHz, 0 Hz, NaN and the reserved 7F 7F 7F are no data")
    func outOfRange() {
        for hz in [0, -1, 8.0, 14000, .nan, .infinity] { #expect(MidiTuningMessages.frequencyData(hz: hz) == nil, "\(hz)") }
        let reserved = 440 * pow(2, (127 + 16383.0 / 16384 - 69) / 12)
        #expect(MidiTuningMessages.frequencyData(hz: reserved) == nil)
    }

    @Test("two Single Note Tuning Change messages of 64 keys; unmapped and unholdable keys as no change")
    func sysex() throws {
        var keyHz = (0..<128).map { 440 * pow(2, Double($0 - 69) / 12) }
        keyHz[3] = 0   // unmapped
        keyHz[127] = 20000   // above MTS's range
        let tuning = Self.tuning(keyHz)
        #expect(MidiTuningMessages.keysOutOfRange(tuning) == [127])
        let messages = MidiTuningMessages.sysex(tuning)
        #expect(messages.count == 2)
        for (m, message) in messages.enumerated() {
            #expect(message.count == 7 + 64 * 4 + 1)
            #expect(Array(message.prefix(7)) == [0xF0, 0x7F, 0x7F, 0x08, 0x02, MidiTuningMessages.program, 64])
            #expect(message.last == 0xF7)
            #expect(message.dropFirst().dropLast().allSatisfy { $0 < 0x80 })
            for k in 0..<64 {
                let key = 64 * m + k
                let entry = Array(message[(7 + 4 * k)..<(11 + 4 * k)])
                #expect(entry[0] == UInt8(key))
                let expected: [UInt8] = key == 3 || key == 127 ? [0x7F, 0x7F, 0x7F] : [UInt8(key), 0, 0]
                #expect(Array(entry[1...]) == expected, "key \(key)")
            }
        }
    }

    @Test("the tuning program select: RPN 3 to the program, then the null RPN")
    func programSelect() {
        #expect(
            MidiTuningMessages.programSelect(channel: 9) == [
                [0xB9, 101, 0], [0xB9, 100, 3], [0xB9, 6, 0], [0xB9, 101, 127], [0xB9, 100, 127]
            ])
    }
}
