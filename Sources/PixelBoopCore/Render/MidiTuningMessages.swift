import Glibc

/// A song's tuning in a `.mid` export, as the MIDI Tuning Standard (MTS) says it: real-time Single
/// Note Tuning Change messages (`F0 7F 7F 08 02 tt ll [kk xx yy zz]... F7`) that give every key its
/// own frequency, a semitone and a 14-bit fraction of one (100/16384 = 0.0061 cent). Chosen over the
/// Scale/Octave Tuning messages (`08 08`/`08 09`), which hold only 12 offsets repeated at every
/// octave: a Scala scale may have any number of degrees and any period (19 steps an octave, 13 a
/// tritave) and a mapping may place them on any keys, and only a tuning of each key says all of
/// that. Sent to every device (ID 7F) for tuning program 0, which each pitched channel then selects
/// (RPN 3, the MTS Tuning Program Select). Frequencies outside MTS's range (8.18 Hz ... 12.5 kHz)
/// and keys the mapping leaves unmapped are sent as "no change" (7F 7F 7F).
public enum MidiTuningMessages {
    /// The tuning program the messages fill and the channels select.
    public static let program: UInt8 = 0
    /// Keys per message (the count is one 7-bit byte: 128 keys take two messages).
    static let keysPerMessage = 64

    /// A frequency as MTS frequency data (semitone, then the fraction's high and low 7 bits), or
    /// nil when MTS cannot hold it (0 Hz for an unmapped key, or outside its range).
    public static func frequencyData(hz: Double) -> [UInt8]? {
        guard hz > 0, hz.isFinite else { return nil }
        let semitones = 69 + 12 * log2(hz / 440)
        var whole = Int(semitones.rounded(.down))
        var fraction = Int(((semitones - Double(whole)) * 16384).rounded())
        if fraction == 16384 {
            whole += 1
            fraction = 0
        }
        // 127 + 16383/16384 (7F 7F 7F) is reserved for "no change".
        guard whole >= 0, whole <= 127, !(whole == 127 && fraction == 16383) else { return nil }
        return [UInt8(whole), UInt8(fraction >> 7), UInt8(fraction & 0x7F)]
    }

    /// Keys with a frequency MTS cannot hold (mapped, but below 8.18 Hz or above 12.5 kHz).
    public static func keysOutOfRange(_ tuning: ScalaTuning) -> [Int] {
        tuning.keyHz.indices.filter { tuning.keyHz[$0] > 0 && frequencyData(hz: tuning.keyHz[$0]) == nil }
    }

    /// The Single Note Tuning Change messages for all 128 keys, each a whole system exclusive
    /// message from F0 to F7.
    public static func sysex(_ tuning: ScalaTuning) -> [[UInt8]] {
        stride(from: 0, to: ScalaTuning.keyCount, by: keysPerMessage).map { first in
            let keys = first..<min(first + keysPerMessage, ScalaTuning.keyCount)
            var message: [UInt8] = [0xF0, 0x7F, 0x7F, 0x08, 0x02, program, UInt8(keys.count)]
            for key in keys {
                message.append(UInt8(key))
                message += frequencyData(hz: tuning.keyHz[key]) ?? [0x7F, 0x7F, 0x7F]
            }
            return message + [0xF7]
        }
    }

    /// RPN 3 (Tuning Program Select) to `program` on a channel, then the null RPN so that a later
    /// data entry changes nothing.
    public static func programSelect(channel: UInt8) -> [[UInt8]] {
        let cc = 0xB0 | channel
        return [[cc, 101, 0], [cc, 100, 3], [cc, 6, program], [cc, 101, 127], [cc, 100, 127]]
    }
}
