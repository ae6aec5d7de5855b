import Glibc

/// Where a song is heard: its chain entry, the pattern (an index in `Song.patterns`) and the
/// step inside that pattern.
public struct SongPosition: Sendable, Equatable {
    public var entry: Int
    public var pattern: Int
    public var step: Int
    public var bpm: Double
}

/// The song the transport plays, and where it is heard.
extension PatternTransport {
    /// From now on the transport plays `newSong` (an editor's change; its chain looped for ever, or
    /// `loops` times as given at init) from the next step to be queued, heard within the lookahead.
    /// The new timeline is laid out before the lock is taken, so the scheduling thread never waits
    /// for it: only the swap, on the step it has reached meanwhile, holds the lock.
    public func playSong(_ newSong: Song, seed: UInt64? = nil) {
        let (current, from) = sync.locked { ($0.sequencer, $0.nextStep) }
        let next = current.prepared(newSong, seed: seed, near: from)
        sync.locked { s in s.sequencer.take(next, fromStep: s.nextStep) }
        sync.wake()
    }

    /// The song as it plays (a version-1 pattern: its one-pattern song, at its tempo now).
    public var playingSong: Song { sync.locked { $0.sequencer.song } }

    /// What the listener hears now, while the music plays.
    public var heardPosition: SongPosition? {
        sync.locked { s in
            guard s.state == .playing || s.state == .paused else { return nil }
            let k = s.sequencer.step(atFrame: s.playback.audibleFrame)
            guard let (_, seg) = s.sequencer.segment(ofStep: k) else { return nil }
            let length = s.sequencer.song.patterns[seg.pattern].length
            return SongPosition(entry: seg.entry, pattern: seg.pattern, step: (k - seg.firstStep) % length, bpm: seg.bpm)
        }
    }
}
