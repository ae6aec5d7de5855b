import CAudioEngine

/// An ALSA PCM (or a JACK port) as `boop devices` shows it.
public struct AudioDevice: Sendable, Equatable {
    public var backend: AudioBackend = .alsa
    public let name: String
    public let description: String
    public let playback: Bool
    public let capture: Bool
    public let isDefault: Bool

    public init(name: String, description: String, playback: Bool, capture: Bool, isDefault: Bool) {
        self.name = name
        self.description = description
        self.playback = playback
        self.capture = capture
        self.isDefault = isDefault
    }
}

public enum AudioDevices {
    /// The ALSA PCMs (snd_device_name_hint), "default" first.
    public static func list() throws(AudioError) -> [AudioDevice] {
        var list: OpaquePointer?
        let status = boop_device_list_create(&list)
        guard status == BOOP_OK, let list else {
            throw AudioError.deviceUnavailable("ALSA gave no PCM list: \(String(cString: boop_status_string(status)))")
        }
        return entries(list, backend: .alsa)
    }

    /// The audio ports of the running JACK server ("system:playback_1", ...): `playback` for
    /// ports that take audio, `capture` for ports that give it. Empty when no server runs (none
    /// is started).
    public static func jackPorts() -> [AudioDevice] {
        var list: OpaquePointer?
        guard boop_device_list_create_jack(&list) == BOOP_OK, let list else { return [] }
        return entries(list, backend: .jack)
    }

    private static func entries(_ list: OpaquePointer, backend: AudioBackend) -> [AudioDevice] {
        defer { boop_device_list_destroy(list) }
        return (0..<boop_device_list_count(list)).map { i in
            let d = boop_device_list_get(list, i)
            var device = AudioDevice(
                name: String(cString: d.name), description: String(cString: d.description),
                playback: d.playback != 0, capture: d.capture != 0, isDefault: d.is_default != 0)
            device.backend = backend
            return device
        }
    }
}
