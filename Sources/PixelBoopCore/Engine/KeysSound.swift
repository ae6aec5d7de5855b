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
