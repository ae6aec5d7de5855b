import Glibc

extension EditorView {
    /// The status line's text in at most `width` columns, never more (the terminal must not wrap
    /// it). The file name is kept whole: the other fields are shortened first, in order of how
    /// little is lost (the sound's detail, the spaces around the bars, the words around the
    /// numbers, then whole fields), and only a name wider than the screen itself is cut (its end
    /// kept, with the * of unsaved changes).
    /// The sound field's forms, longest first.
    static func soundField(_ sound: SoundStatus) -> [String] {
        switch sound {
        case .silent(let why):
            let short = why.split(separator: ":").first.map(String.init) ?? why
            return [why, short, "silent", ""]
        case .reconnecting:
            return ["sound device lost: reconnecting…", "reconnecting…", "lost", ""]
        case .device(let device, let ms):
            return ["\(device) \(String(cFormat: "%.1f", ms)) ms", device, ""]
        }
    }

    /// `*` recording (it takes over from step entry while the loop plays), else `i` step entry.
    func entryField(model: EditorModel) -> [String] {
        let heard = model.heardVoice.map { " ♪ \($0)" } ?? ""
        if model.recording.armed {
            return [model.recording.summary + heard, "REC q\(model.recording.strength)\(heard)", "REC\(heard)"]
        }
        return model.stepEntry ? ["step entry", "entry", "in"] : [""]
    }

    func statusText(model: EditorModel, playing: Bool, sound: SoundStatus, name: String, width: Int) -> String {
        let sound = EditorView.soundField(sound)
        let track = model.track.rawValue
        let label = model.cursorLabel
        let tag = PitchRange.tag(pitch: model.cursorPitch, kind: model.track, model.song.instrument(model.track))
        // The tempo heard (a chain entry's own, marked, where it is not the song's), as the file
        // holds it: 97.5 stays 97.5, 120 is 120.
        let bpm = Limits.text(model.loopBPM)
        let own = model.loopBPM != model.song.bpm ? " (entry)" : ""
        let fields: [[String]] = [
            [track, String(track.prefix(3)), ""],
            stepField(model: model),
            tag.map { ["\(label) \($0)", "\(label)!"] } ?? [label],
            model.swing == 50
                ? ["\(bpm) BPM\(own)", bpm, ""]
                : ["\(bpm) BPM\(own) swing \(Int(model.swing))%", "\(bpm) sw\(Int(model.swing))", ""],
            loopField(model: model, playing: playing),
            sound,
            // The pattern when the song has more than one, the note under the cursor when there is one.
            model.song.patterns.count > 1
                ? [
                    "pattern \(model.songPattern.name) \(model.current + 1)/\(model.song.patterns.count)", model.songPattern.name,
                    ""
                ]
                : [""],
            noteField(model: model),
            // `i`: played MIDI notes are placed at the cursor.
            entryField(model: model),
            // `Q`: fill mode.
            model.fillMode ? ["FILL", "F", ""] : [""],
            // `K`: the computer keyboard's piano rows place notes.
            model.piano.map { [$0.summary, "piano \(NoteName(midi: ($0.octave + 1) * 12))", "K"] } ?? [""]
        ]
        // The order fields give way: (field, to which alternative); -1 is the bars losing their spaces.
        let steps: [(Int, Int)] = [
            (7, 1), (5, 1), (6, 1), (-1, 0), (4, 1), (3, 1), (8, 1), (1, 1), (0, 1), (5, 2), (5, 3), (4, 2), (3, 2),
            (0, 2), (9, 1), (8, 2), (7, 2), (6, 2), (9, 2), (2, 1), (1, 2)
        ]
        let bar = ascii ? "|" : "│"
        var choice = Array(repeating: 0, count: fields.count)
        var spaced = true
        func text() -> String {
            let parts = [name] + fields.indices.map { fields[$0][min(choice[$0], fields[$0].count - 1)] }.filter { !$0.isEmpty }
            return " " + parts.joined(separator: spaced ? " \(bar) " : bar)
        }
        var line = text()
        for (field, alternative) in steps where line.count > width {
            if field < 0 { spaced = false } else { choice[field] = max(choice[field], alternative) }
            line = text()
        }
        if line.count > width && name.count + 1 <= width { line = " " + name }
        if line.count > width {
            // Only the name is left and it is wider than the screen.
            let more = ascii ? "..." : "…"
            line = width > more.count + 1 ? " " + more + name.suffix(width - 1 - more.count) : String(name.suffix(max(0, width)))
        }
        return line
    }

    /// Playing or stopped, and what the loop plays: the pattern ("playing", "stopped", as ever) or
    /// the song chain (`G`), with the entry heard.
    private func loopField(model: EditorModel, playing: Bool) -> [String] {
        let mark = playing ? (ascii ? ">" : "▶") : (ascii ? "-" : "■")
        guard model.playsChain else { return playing ? ["playing", mark, ""] : ["stopped", mark, ""] }
        let entry = model.heardEntry.map { " \($0 + 1)/\(model.song.chain.count)" } ?? ""
        // The pattern heard, when the song still has it (an edit may have just removed it).
        let name =
            model.heard.flatMap { h in
                model.song.patterns.indices.contains(h.pattern) ? " " + model.song.patterns[h.pattern].name : nil
            } ?? ""
        return playing
            ? ["playing chain\(entry)\(name)", "\(mark) chain\(entry)", "\(mark) chain", mark, ""]
            : ["stopped (chain)", "\(mark) chain", mark, ""]
    }

    /// The cursor's step of the pattern's, and a track's own loop where it has one ("step 3/16 (12)").
    func stepField(model: EditorModel) -> [String] {
        let own = model.songPattern.trackLengths[model.track].map { " (\($0))" } ?? ""
        let of = "\(model.step + 1)/\(model.songPattern.length)\(own)"
        return ["step \(of)", of, ""]
    }

    /// The note under the cursor: its velocity, length and groove (only what differs from a plain note).
    private func noteField(model: EditorModel) -> [String] {
        guard let n = model.songNoteUnderCursor else { return [""] }
        let groove = EditorModel.grooveText(n)
        let tail = groove.isEmpty ? "" : " " + groove
        let v = n.velocity
        let long = v.isLevel ? "velocity \(v.rawValue)" : v.rawValue
        let short = v.isLevel ? "v\(v.rawValue) " : String(v.rawValue.prefix(1))
        return ["\(long) len \(n.length)\(tail)", "\(short)\(n.length)\(tail)", ""]
    }
}
