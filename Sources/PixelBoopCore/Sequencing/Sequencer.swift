import FoundationEssentials
import Glibc

/// One thing for the engine to do at an exact frame.
public struct SequencerEvent: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case noteOn(track: TrackKind, pitch: Int, velocity: Velocity, id: UInt32)
        case noteOff(id: UInt32)
        case drum(key: Int, velocity: Velocity)
    }
    public var frame: UInt64
    public var action: Action
    /// The absolute step (loops counted) this event belongs to.
    public var step: Int
}

/// Turns a pattern into frame-exact engine events.
///
/// Step k of the whole run starts on frame `anchorFrame + floor((k - anchorStep) x rate x 60 /
/// (bpm x 4) + 0.5)`, computed from the absolute index and never accumulated, so there is no
/// drift however long it plays and the loop seam is just another step. A tempo change or a new
/// pattern re-anchors at the next step boundary, so nothing jumps.
public struct Sequencer: Sendable {
    public private(set) var pattern: Pattern
    public let sampleRate: Double
    private(set) var anchorStep = 0
    private(set) var anchorFrame: UInt64 = 0
    private var nextNoteID: UInt32 = 1

    public init(pattern: Pattern, sampleRate: Double, startFrame: UInt64 = 0) {
        self.pattern = pattern
        self.sampleRate = sampleRate
        self.anchorFrame = startFrame
    }

    public var framesPerStep: Double { sampleRate * 60.0 / (pattern.bpm * 4.0) }

    /// The first frame of absolute step k.
    /// Steps before the anchor (a step already played when the tempo changed) count back from
    /// it, never below frame 0.
    public func frame(ofStep k: Int) -> UInt64 {
        let offset = (Double(k - anchorStep) * framesPerStep + 0.5).rounded(.down)
        if offset >= 0 { return anchorFrame + UInt64(offset) }
        return anchorFrame - min(anchorFrame, UInt64(-offset))
    }

    /// The absolute step sounding at `frame` (the last step starting at or before it).
    public func step(atFrame frame: UInt64) -> Int {
        guard frame >= anchorFrame else { return anchorStep }
        var k = anchorStep + Int(Double(frame - anchorFrame) / framesPerStep)
        while k > anchorStep && self.frame(ofStep: k) > frame { k -= 1 }
        while self.frame(ofStep: k + 1) <= frame { k += 1 }
        return k
    }

    /// Changes tempo from absolute step `k` on (which must not have been scheduled yet).
    public mutating func setBPM(_ bpm: Double, fromStep k: Int) {
        let start = frame(ofStep: k)
        pattern.bpm = bpm
        anchorStep = k
        anchorFrame = start
    }

    /// Swaps the pattern from absolute step `k` on; its tempo takes over from there.
    public mutating func replacePattern(_ newPattern: Pattern, fromStep k: Int) {
        let start = frame(ofStep: k)
        pattern = newPattern
        anchorStep = k
        anchorFrame = start
    }

    /// Re-anchors so that absolute step `k` starts on `frame` (resume after a pause).
    public mutating func restart(step k: Int, atFrame frame: UInt64) {
        anchorStep = k
        anchorFrame = frame
    }

    /// Gate in frames for a note starting at absolute step k: normal/accent 0.8 x length x step,
    /// sustain the full length (legato: exactly the next note's start frame).
    func offFrame(for note: Note, atStep k: Int) -> UInt64 {
        switch note.velocity {
        case .sustain:
            return frame(ofStep: k + note.length)
        case .normal, .accent:
            let on = frame(ofStep: k)
            return on + UInt64((0.8 * Double(note.length) * framesPerStep).rounded())
        }
    }

    /// Every event whose step lies in `steps` (absolute, loops counted), sorted by frame with
    /// note-offs before note-ons on the same frame (a repeated note re-attacks cleanly).
    public mutating func events(forSteps steps: Range<Int>) -> [SequencerEvent] {
        var out: [SequencerEvent] = []
        let length = pattern.length
        for k in steps {
            let local = ((k % length) + length) % length
            let on = frame(ofStep: k)
            for kind in TrackKind.allCases {
                for note in pattern.notes(kind) where note.step == local {
                    if kind == .rhythm {
                        out.append(SequencerEvent(frame: on, action: .drum(key: note.pitch, velocity: note.velocity), step: k))
                        continue
                    }
                    let id = nextNoteID
                    nextNoteID &+= 1
                    out.append(
                        SequencerEvent(
                            frame: on, action: .noteOn(track: kind, pitch: note.pitch, velocity: note.velocity, id: id), step: k))
                    out.append(SequencerEvent(frame: offFrame(for: note, atStep: k), action: .noteOff(id: id), step: k))
                }
            }
        }
        out.sort(by: SequencerEvent.playOrder)
        return out
    }
}

extension SequencerEvent {
    /// The order events are handed to the engine in: by frame, and on one frame note-offs first,
    /// so a repeated or legato note re-attacks instead of being silenced. The sequencer, live
    /// playback (PatternTransport) and offline renders (PatternRenderer) all sort with it.
    public static func playOrder(_ a: SequencerEvent, _ b: SequencerEvent) -> Bool {
        a.frame != b.frame ? a.frame < b.frame : (a.isNoteOff && !b.isNoteOff)
    }

    /// Note-offs sort before note-ons on a shared frame, so a repeated note re-attacks cleanly.
    public var isNoteOff: Bool { if case .noteOff = action { return true } else { return false } }
}

extension TrackKind {
    /// The engine voice each track plays with.
    public var timbre: Timbre? {
        switch self {
        case .melody: return .melody
        case .chords: return .chords
        case .bass: return .bass
        case .rhythm: return nil
        }
    }
}

extension AudioEngine {
    /// Queues one sequencer event.
    public func schedule(_ event: SequencerEvent, referencePitch: Double = 440) throws(AudioError) {
        switch event.action {
        case .noteOn(let track, let pitch, let velocity, let id):
            let hz = Pitch.frequency(midi: Double(pitch), reference: referencePitch)
            // A pitch above Nyquist cannot exist at this rate (e.g. MIDI 127 at 16 kHz): skip it.
            guard hz < sampleRate / 2 else { return }
            try noteOn(id: id, frequency: hz, gain: velocity.gain, at: event.frame, timbre: track.timbre ?? .melody)
        case .noteOff(let id):
            try releaseNote(NoteID(rawValue: id), at: event.frame)
        case .drum(let key, let velocity):
            try drumHit(key: key, velocity: velocity, at: event.frame)
        }
    }
}
