import CAudioEngine

/// A JACK keyboard's sound (`boop_keys_sound`): which voice, its gains, and the keys that sound.
struct KeysSound: Equatable {
    var kind: boop_keys_kind
    var index: UInt32
    var gain: Float
    var accentGain: Float
    var accentVelocity: UInt32
    var keys: [UInt8]
}

extension KeysSound {
    var cValue: boop_keys_sound {
        var s = boop_keys_sound()
        s.kind = kind.rawValue
        s.index = index
        s.gain = gain
        s.accent_gain = accentGain
        s.accent_velocity = accentVelocity
        withUnsafeMutableBytes(of: &s.keys) { $0.copyBytes(from: keys) }
        return s
    }
}
