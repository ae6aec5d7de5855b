import Glibc

/// Steps inserted and deleted as a tracker inserts and deletes rows (Schism Tracker's Insert and
/// Alt-Delete): the rest of the current track moves, the other tracks stay. And the whole track
/// as a block. Each is one undo step.
extension EditorModel {
    /// `e` / Insert: an empty step at the cursor on the current track; its notes from the cursor on
    /// move a step later, a note pushed past the track's end is dropped and one that would reach
    /// past it is shortened (a note already sounding across the cursor keeps its length).
    public mutating func insertStep() {
        let kind = track
        let at = step
        let end = songPattern.length(of: kind)
        let lost = songPattern.notes(kind).filter { $0.step >= at && $0.step + 1 >= end }.count
        editPattern { p in
            guard var notes = p.tracks[kind] else { return }
            notes.removeAll { $0.step >= at && $0.step + 1 >= end }
            for i in notes.indices where notes[i].step >= at {
                notes[i].step += 1
                notes[i].length = min(notes[i].length, end - notes[i].step)
            }
            p.tracks[kind] = notes
        }
        message =
            "\(kind.rawValue): a step inserted at \(at + 1)" + (lost > 0 ? "; \(counted(lost, "note")) pushed past the end" : "")
    }

    /// `d`: the step at the cursor removed from the current track; its notes there are deleted and
    /// the later ones move a step earlier (a note sounding across the cursor is a step shorter).
    public mutating func deleteStep() {
        let kind = track
        let at = step
        let removed = songPattern.notes(kind).filter { $0.step == at }.count
        editPattern { p in
            guard var notes = p.tracks[kind] else { return }
            notes.removeAll { $0.step == at }
            for i in notes.indices {
                if notes[i].step > at {
                    notes[i].step -= 1
                } else if notes[i].step + notes[i].length > at {
                    notes[i].length = max(1, notes[i].length - 1)
                }
            }
            p.tracks[kind] = notes
        }
        message = "\(kind.rawValue): step \(at + 1) deleted" + (removed > 0 ? " with \(counted(removed, "note"))" : "")
    }

    /// Ctrl-A: every step and row of the current track as the block (to copy, move or change).
    public mutating func selectAll() {
        let last = songPattern.length(of: track) - 1
        if track == .rhythm {
            blockAnchor = (0, 0)
            blockEnd = (last, DrumLane.all.count - 1)
        } else {
            blockAnchor = (0, EditorModel.pitchRange.upperBound)
            blockEnd = (last, EditorModel.pitchRange.lowerBound)
        }
        message = "block: the whole \(track.rawValue) track (\(counted(songPattern.notes(track).count, "note")))"
    }
}
