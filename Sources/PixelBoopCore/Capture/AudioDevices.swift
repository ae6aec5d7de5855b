import CAudioEngine
import Glibc

/// An ALSA PCM (or a JACK port) as `boop devices` shows it.
public struct AudioDevice: Sendable, Equatable {
    public var backend: AudioBackend = .alsa
    public let name: String
    public let description: String
    public let playback: Bool
    public let capture: Bool
    public let isDefault: Bool
    // Listed by `AudioDevice.list`; callers only read them (the memberwise initialiser is internal).
}

public enum AudioDevices {
    /// The ALSA PCMs (snd_device_name_hint), "default" first; without `all`, only those that are
    /// devices (see `isDevice`).
    public static func list(all: Bool = false) throws(AudioError) -> [AudioDevice] {
        var list: OpaquePointer?
        let status = boop_device_list_create(&list)
        guard status == BOOP_OK, let list else {
            throw AudioError.deviceUnavailable("ALSA gave no PCM list: \(String(cString: boop_status_string(status)))")
        }
        let devices = entries(list, backend: .alsa)
        return all ? devices : devices.filter { isDevice($0.name) }
    }

    /// Whether a hinted PCM is a place sound goes to or comes from, rather than a plugin that
    /// only transforms it. alsa-plugins hint each of its plugins as a PCM of its own, and these
    /// are no use to `-D` by themselves (each needs a slave, which defaults to another PCM, so
    /// playing "to" one merely adds a conversion in front of the default device):
    /// - rate converters: lavrate*, samplerate*, speexrate* (with their _best, _fast ... variants);
    /// - channel and format converters and effects: upmix, vdownmix, speex (its DSP), a52 and dca
    ///   (AC3/DTS encoders for an S/PDIF slave);
    /// - usbstream (a mode of one snd-usb-us122l card, not a device of its own);
    /// - oss while no OSS device (/dev/dsp) exists: it would only fail to open.
    /// Everything else is kept: `default`, the sound servers (`pulse`, `pipewire`, `jack`), the
    /// cards' hw/plughw/sysdefault/front/dmix/... PCMs, and PCMs the user defined. The hint's IOID
    /// (direction) is kept as given: it says which list a device appears in, not whether it is one.
    /// `boop devices --all` shows them all.
    public static func isDevice(_ name: String, ossPresent: Bool = FileBytes.exists("/dev/dsp"))
        -> Bool
    {
        let base = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
        for prefix in ["lavrate", "samplerate", "speexrate"] where base.hasPrefix(prefix) { return false }
        if ["upmix", "vdownmix", "speex", "a52", "dca", "usbstream"].contains(base) { return false }
        if base == "oss" { return ossPresent }
        return true
    }

    /// The audio ports of the running JACK server ("system:playback_1", ...): `playback` for
    /// ports that take audio, `capture` for ports that give it. Empty when no server runs (none
    /// is started).
    public static func jackPorts() -> [AudioDevice] {
        var list: OpaquePointer?
        guard boop_device_list_create_jack(&list) == BOOP_OK, let list else { return [] }
        return entries(list, backend: .jack)
    }

    /// MIDI ports: the ALSA sequencer's (where /dev/snd/seq exists) and the running JACK server's.
    /// `capture` is a source (something to play `boop synth` from), `playback` a sink (something
    /// `--midi-out` can drive); the description names the system. Empty when there are none.
    public static func midiPorts() -> [AudioDevice] {
        var list: OpaquePointer?
        guard boop_device_list_create_midi(&list) == BOOP_OK, let list else { return [] }
        return entries(list, backend: .jack).map { d in
            var d = d
            if d.description.hasPrefix("ALSA") { d.backend = .alsa }
            return d
        }
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
