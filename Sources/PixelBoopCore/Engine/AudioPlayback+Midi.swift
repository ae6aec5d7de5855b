import CAudioEngine
import Glibc

/// MIDI out of a JACK playback opened with `AudioRoute.midiOut`: messages stamped with engine
/// frames, written by the process callback at their exact offset in the cycle.
extension AudioPlayback {
    /// Queues one message for engine frame `frame` (in frame order). Throws `queueFull` when the
    /// queue is full (the caller retries later), `invalidConfiguration` without MIDI out.
    public func sendMidi(_ bytes: [UInt8], at frame: UInt64) throws(AudioError) {
        let status = bytes.withUnsafeBufferPointer { boop_playback_midi_send(handle, frame, $0.baseAddress, UInt32($0.count)) }
        guard status == BOOP_OK else { throw AudioError.from(status, "queueing a MIDI message") }
    }

    /// At the next cycle: drops queued MIDI, ends every note sent on, and sends Stop if a clock ran.
    public func midiPanic() { _ = boop_playback_midi_panic(handle) }

    /// True once the last `midiPanic` went out (or there is no MIDI out).
    public var midiPanicDone: Bool { boop_playback_midi_panic_done(handle) != 0 }

    /// Waits (at most `limit` seconds) until the note-offs and Stop of the last `midiPanic` are
    /// out, so they leave before the port goes away. The flag is set by the audio thread, which
    /// wakes no one (a futex or pipe write is a system call): it is read every 2 ms.
    public func waitForMidiPanic(limit: Double = 1) {
        let deadline = Timestamp().addingTimeInterval(limit)
        while !midiPanicDone && stats.error == nil && Timestamp() < deadline { Threads.sleep(seconds: 0.002) }
    }

    /// The next change of the JACK transport, oldest first (a route with `followTransport`).
    func nextTransportEvent() -> boop_transport_event? {
        var e = boop_transport_event()
        return boop_playback_transport_next(handle, &e) != 0 ? e : nil
    }

    /// JACK: connects another client's MIDI output port to `midi_in` (a playback with `midiKeys`).
    public func connectMidiIn(from port: String) throws(AudioError) {
        let status = boop_playback_midi_in_connect(handle, port)
        guard status == BOOP_OK else {
            if status == BOOP_ERROR_INVALID_ARGUMENT {
                throw .invalidConfiguration("--midi \(port): no JACK MIDI output port of that name (see boop devices)")
            }
            throw AudioError.from(status, "connecting \(port) to midi_in")
        }
    }
    /// Slow sync: start `request`'s events are queued for engine frame `frame` (0: withdrawn).
    func armTransport(request: UInt32, frame: UInt64) { _ = boop_playback_transport_arm(handle, request, frame) }

    /// Connects `midi_out` to another client's MIDI input port.
    /// A name no port has is the user's (64); a port that will not connect, the device's (69).
    public func connectMidiOut(to port: String) throws(AudioError) {
        let status = boop_playback_midi_connect(handle, port)
        guard status == BOOP_OK else {
            let what = route.backend == .jack ? "JACK MIDI input port" : "ALSA sequencer port that takes MIDI"
            if status == BOOP_ERROR_INVALID_ARGUMENT {
                throw .invalidConfiguration("--midi-connect \(port): no \(what) of that name (see boop devices)")
            }
            throw .deviceUnavailable("--midi-connect \(port): the \(what) would not connect")
        }
    }
}
