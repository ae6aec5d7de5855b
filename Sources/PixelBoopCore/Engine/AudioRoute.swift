import CAudioEngine

/// The sound system a live command talks to.
public enum AudioBackend: String, Sendable, CaseIterable {
    /// An ALSA PCM (the default): `default`, `pulse`, `hw:0,0`, ...
    case alsa
    /// A client of the running JACK server (jackd, or PipeWire's JACK API): the server's rate
    /// and buffer size are used; no server is `deviceUnavailable`, its shutdown `deviceLost`.
    case jack

    var cValue: boop_backend { self == .jack ? BOOP_BACKEND_JACK : BOOP_BACKEND_ALSA }
}

/// Where sound goes to or comes from: an ALSA PCM, or a JACK client whose ports are connected
/// to the server's physical ports unless `connect` is false.
public struct AudioRoute: Sendable, Equatable, CustomStringConvertible {
    public var backend: AudioBackend
    /// The ALSA PCM name (JACK ignores it: the server decides where the ports lead).
    public var device: String
    /// JACK: connect the client's ports to the system's physical ports.
    public var connect: Bool
    /// JACK: the client's name (the server adds a suffix when it is taken).
    public var clientName: String
    /// A MIDI output `midi_out` carrying the sequencer's notes (and clock): a JACK port, or an
    /// ALSA sequencer port.
    public var midiOut = false
    /// Only external gear sounds. JACK: silence on the audio ports, left unconnected; ALSA: no
    /// PCM is opened, a timer runs the engine's clock.
    public var mute = false
    /// JACK: follow the JACK transport (`play --sync jack`): the playback reports its changes.
    public var followTransport = false
    /// JACK: a port `midi_in` whose MIDI clock the music follows (`play --sync midi`).
    public var followMidiClock = false

    public init(
        device: String = "default", backend: AudioBackend = .alsa, connect: Bool = true,
        clientName: String = "boop"
    ) {
        self.device = device
        self.backend = backend
        self.connect = connect
        self.clientName = clientName
    }

    /// What messages call it: "ALSA PCM 'pulse'" or "JACK client 'boop'".
    public var description: String {
        switch backend {
        case .alsa: "ALSA PCM '\(OneLine.escape(device))'"
        case .jack: "JACK client '\(OneLine.escape(clientName))'"
        }
    }

    /// Why it could not be opened, as the error to throw: the device's reason (`unavailable`), or,
    /// when the address-space limit is what stopped its client library, that (an I/O error, 74:
    /// memory refused, as DESIGN.md's exit codes say).
    func openFailure(_ purpose: String, reason: String) -> AudioError {
        if let refused = memoryRefused(purpose) { return refused }
        return .deviceUnavailable(unavailable(purpose, reason: reason))
    }

    /// Before an ALSA PCM that goes through a sound server opens (`pulse`, `default`), and after
    /// any open failed: the address-space limit, when it leaves too little room for the server's
    /// client library (AddressSpace), as the error to throw. Checked first because libpulse may
    /// otherwise wait for ever for a thread that could not start.
    func memoryRefused(_ purpose: String, beforeOpening: Bool = false) -> AudioError? {
        guard backend == .alsa, !beforeOpening || device.hasPrefix("pulse") || device.hasPrefix("default"),
            let room = AddressSpace.tooTightForAClient()
        else { return nil }
        return .ioError(
            "\(description) cannot be opened for \(purpose): memory refused (ulimit -v limits the address space to \(room.limit) MiB, \(room.free) MiB of it free: too little for the sound server's client library, which needs about \(AddressSpace.clientNeedMiB); raise the limit)"
        )
    }

    /// Why it cannot be opened, in one line, ending with the engine's reason when it gave one
    /// (ALSA's: missing, busy, refused the settings), which tells the user what to change.
    func unavailable(_ purpose: String, reason: String = "") -> String {
        let because = reason.isEmpty ? "" : ": \(OneLine.escape(reason).lowercased())"
        switch backend {
        case .alsa: return "\(description) cannot be opened for \(purpose)\(because)"
        case .jack:
            // A reason from the engine is more than "no server" (one that did not answer in time).
            if !reason.isEmpty { return "\(description) cannot be opened for \(purpose): \(OneLine.escape(reason))" }
            return
                "no JACK server is running, or it refused a client (start jackd or PipeWire's JACK service; boop never starts one)"
        }
    }
}
