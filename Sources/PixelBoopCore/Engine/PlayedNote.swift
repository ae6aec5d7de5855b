/// A note from a MIDI keyboard, as the editor takes it: its key, its velocity (1 ... 127; a
/// note-on with velocity 0 is a note-off, as MIDI says) and whether it went down or up.
public struct PlayedNote: Sendable, Equatable {
    public var pitch: Int
    public var velocity: Int
    public var on: Bool
    /// Its MIDI channel, 0-based (9: General MIDI's drums, channel 10).
    public var channel: Int
    /// When it came: on JACK the engine frame its event carried; on the ALSA sequencer the
    /// CLOCK_MONOTONIC nanosecond it arrived.
    public var time: UInt64

    public init(pitch: Int, velocity: Int, on: Bool, channel: Int = 0, time: UInt64 = 0) {
        self.pitch = pitch
        self.velocity = velocity
        self.on = on && velocity > 0
        self.channel = channel
        self.time = time
    }

    /// A channel message's three bytes (any channel): a note-on or note-off, else nil.
    public init?(status: UInt8, data1: UInt8, data2: UInt8, time: UInt64 = 0) {
        let channel = Int(status & 0x0F)
        switch status & 0xF0 {
        case 0x90: self.init(pitch: Int(data1 & 0x7F), velocity: Int(data2 & 0x7F), on: true, channel: channel, time: time)
        case 0x80: self.init(pitch: Int(data1 & 0x7F), velocity: Int(data2 & 0x7F), on: false, channel: channel, time: time)
        default: return nil
        }
    }

    /// General MIDI's drum channel (10): its keys are drums, whatever the track under the cursor.
    public var isDrum: Bool { channel == Self.drumChannel }
    /// General MIDI's drum channel, 0-based.
    public static let drumChannel = 9
}
