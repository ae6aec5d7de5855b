import CAudioEngine

/// A MIDI keyboard for a control loop (`boop edit --midi`): an ALSA sequencer client subscribed
/// to one source, or on JACK the playback client's port midi_in (`jack`). Its reader (the
/// sequencer's thread, or JACK's process callback) only queues what arrives; the loop takes the
/// notes with `take()` when `descriptor` is readable (the sequencer) or on each of its wakes (JACK,
/// whose audio thread makes no system call to wake anyone), so nothing of the screen or the model
/// runs on another thread.
public final class MidiKeyboard {
    let handle: OpaquePointer
    /// JACK: the MIDI output port to connect to the playback's midi_in (nil on the sequencer).
    public let jackSource: String?
    private var buffer = [boop_midi_event](repeating: boop_midi_event(), count: 64)

    /// `source` as `boop synth --midi` reads it. Throws `.deviceUnavailable` (no sequencer, or it
    /// refused) or `.invalidConfiguration` (nothing matches `source`), each with one line why.
    public init(clientName: String, source: String) throws(AudioError) {
        var out: OpaquePointer?
        var why = [CChar](repeating: 0, count: 256)
        let status = boop_midi_in_open(clientName, source, &out, &why, why.count)
        guard status == BOOP_OK, let out else {
            let reason = String(cBuffer: why)
            switch status {
            case BOOP_ERROR_DEVICE_UNAVAILABLE: throw .deviceUnavailable(reason)
            case BOOP_ERROR_INVALID_ARGUMENT: throw .invalidConfiguration(reason)
            default: throw AudioError.from(status, reason.isEmpty ? "MIDI input" : reason)
            }
        }
        handle = out
        jackSource = nil
    }

    /// On JACK: the notes of the port midi_in of a playback opened with this keyboard (see
    /// `AudioPlayback(midiKeys:)`); `source`, a JACK MIDI output port, is connected to it there.
    public init(jackSource source: String) throws(AudioError) {
        var out: OpaquePointer?
        let status = boop_midi_in_open_jack(source, &out)
        guard status == BOOP_OK, let out else { throw AudioError.from(status, "MIDI input") }
        handle = out
        jackSource = source
    }

    deinit { boop_midi_in_destroy(handle) }

    /// JACK: what the notes sound with in the playback's process callback, on `engine` (the
    /// playback's source).
    func setSound(engine: AudioEngine, sound: KeysSound) throws(AudioError) {
        var s = sound.cValue
        try AudioError.check(boop_midi_in_set_sound(handle, engine.handle, &s), "MIDI keyboard sound")
    }

    /// JACK: what one channel's notes (0-based) sound with instead; nil: as the others.
    func setChannelSound(engine: AudioEngine, channel: Int, sound: KeysSound?) throws(AudioError) {
        let status: boop_status
        if var s = sound?.cValue {
            status = boop_midi_in_set_channel_sound(handle, engine.handle, UInt8(channel), &s)
        } else {
            status = boop_midi_in_set_channel_sound(handle, engine.handle, UInt8(channel), nil)
        }
        try AudioError.check(status, "MIDI keyboard sound of channel \(channel + 1)")
    }

    /// Readable when notes wait; -1 on JACK (see `wakesLoop`).
    public var descriptor: Int32 { boop_midi_in_descriptor(handle) }
    /// False on JACK: nothing wakes the loop for a note, so it calls `take()` on each wake.
    public var wakesLoop: Bool { descriptor >= 0 }
    /// "client:port name" of the source it listens to.
    public var source: String { String(cString: boop_midi_in_source(handle)) }
    public var dropped: UInt64 { boop_midi_in_dropped(handle) }

    /// The notes waiting, oldest first (other messages are left out), each with its time (see
    /// `PlayedNote.time`); at most 64 a call, the descriptor staying readable while more wait.
    public func take() -> [PlayedNote] {
        let n = Int(boop_midi_in_read(handle, &buffer, UInt32(buffer.count)))
        return buffer.prefix(n).compactMap { PlayedNote(status: $0.status, data1: $0.data1, data2: $0.data2, time: $0.frame) }
    }
}
