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

/// The song the transport plays, and where it is heard.
extension PatternTransport {
    /// From now on the transport plays `newSong` (an editor's change; its chain looped for ever, or
    /// `loops` times as given at init) from the next step to be queued, heard within the lookahead.
    public func playSong(_ newSong: Song, seed: UInt64? = nil) {
        sync.locked { sequencer.replaceSong(newSong, fromStep: nextStep, seed: seed) }
        sync.wake()
    }

    /// The song as it plays (a version-1 pattern: its one-pattern song, at its tempo now).
    public var playingSong: Song { sync.locked { sequencer.song } }

    /// What the listener hears now, while the music plays.
    public var heardPosition: SongPosition? {
        sync.locked {
            guard _state == .playing || _state == .paused else { return nil }
            let k = sequencer.step(atFrame: playback.audibleFrame)
            guard let (_, seg) = sequencer.segment(ofStep: k) else { return nil }
            let length = sequencer.song.patterns[seg.pattern].length
            return SongPosition(entry: seg.entry, pattern: seg.pattern, step: (k - seg.firstStep) % length, bpm: seg.bpm)
        }
    }

    /// Lock held: the first frame of step k.
    func frameLocked(ofStep k: Int) -> UInt64 { sequencer.frame(ofStep: k) }

    /// Lock held: the step sounding at `frame`.
    func stepLocked(atFrame frame: UInt64) -> Int { sequencer.step(atFrame: frame) }

    /// Lock held: step k starts on `frame` (start, resume).
    func restartLocked(step k: Int, atFrame frame: UInt64) { sequencer.restart(step: k, atFrame: frame) }

    /// Lock held: nothing queued any more (stop, pause, a new start).
    func clearPending() { pending.removeAll() }

    /// Lock held: whether outside tempos (a JACK transport's, a MIDI clock's) move the music: a
    /// version-1 pattern follows them; a song keeps the tempos its chain gives.
    var followsTempo: Bool { sequencer.song.version1 != nil }
}
