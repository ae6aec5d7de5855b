import FoundationEssentials
import Glibc

/// Where a song is heard: its chain entry, the pattern (an index in `Song.patterns`) and the
/// step inside that pattern.
public struct SongPosition: Sendable, Equatable {
    public var entry: Int
    public var pattern: Int
    public var step: Int
    public var bpm: Double
}

/// A song through the transport: the same scheduling, auditions, pause and device handling as a
/// pattern, with the events a `SongSequencer` makes (the chain, its tempo changes, the groove and
/// the instruments: note for note what `render` writes with the same seed).
extension PatternTransport {
    /// From now on the transport plays `song` (its chain looped for ever, or `loops` times as
    /// given at init), from the next step to be queued; nil goes back to the pattern.
    public func playSong(_ newSong: Song?, seed: UInt64? = nil) {
        sync.locked {
            guard let newSong else {
                song = nil
                return
            }
            if song == nil {
                var s = SongSequencer(song: newSong, sampleRate: sampleRate, loops: nil, seed: seed)
                if _state == .playing { s.restart(step: nextStep, atFrame: _sequencer.frame(ofStep: nextStep)) }
                song = s
            } else {
                song!.replaceSong(newSong, fromStep: nextStep, seed: seed)
            }
        }
        sync.wake()
    }

    /// The song as it plays (nil: a pattern plays).
    public var playingSong: Song? { sync.locked { song?.song } }

    /// What the listener hears now, while a song plays.
    public var heardPosition: SongPosition? {
        sync.locked {
            guard song != nil, _state == .playing || _state == .paused else { return nil }
            let k = song!.step(atFrame: playback.audibleFrame)
            guard let (_, seg) = song!.segment(ofStep: k) else { return nil }
            let length = song!.song.patterns[seg.pattern].length
            return SongPosition(entry: seg.entry, pattern: seg.pattern, step: (k - seg.firstStep) % length, bpm: seg.bpm)
        }
    }

    /// Lock held: the first frame of step k of what plays.
    func frameLocked(ofStep k: Int) -> UInt64 {
        song != nil ? song!.frame(ofStep: k) : _sequencer.frame(ofStep: k)
    }

    /// Lock held: the step sounding at `frame`.
    func stepLocked(atFrame frame: UInt64) -> Int {
        song != nil ? song!.step(atFrame: frame) : _sequencer.step(atFrame: frame)
    }

    /// Lock held: step k of what plays starts on `frame` (start, resume).
    func restartLocked(step k: Int, atFrame frame: UInt64) {
        if song != nil { song!.restart(step: k, atFrame: frame) }
        _sequencer.restart(step: k, atFrame: frame)
    }

    /// Lock held: nothing queued any more (stop, pause, a new start).
    func clearPending() {
        pending.removeAll()
        songPending.removeAll()
    }

    /// Lock held: queues every song event of the steps that start before the horizon, in play
    /// order; with a MIDI output, their MIDI too.
    func scheduleSong(before horizon: UInt64) throws(AudioError) {
        var events: [SongEvent] = []
        let first = nextStep
        while totalSteps.map({ nextStep < $0 }) ?? true, song!.frame(ofStep: nextStep) < horizon {
            events.append(contentsOf: song!.events(forSteps: nextStep..<(nextStep + 1)))
            nextStep += 1
        }
        if !events.isEmpty { songPending.add(events, order: SongEvent.playOrder) }
        try songPending.flush(before: horizon) { event throws(AudioError) in
            try engine.schedule(event)
            scheduledLog?.append(event)
        }
        guard midi != nil else { return }
        if first < nextStep { midi!.add(song!.spans(forSteps: first..<nextStep), steps: first..<nextStep, song: &song!) }
        if first < nextStep, nextStep == totalSteps { midi!.end(atFrame: song!.frame(ofStep: nextStep)) }
        let playback = self.playback
        try midi!.flush(before: horizon) { bytes, frame throws(AudioError) in try playback.sendMidi(bytes, at: frame) }
    }
}
