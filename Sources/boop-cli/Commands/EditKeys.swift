import Glibc
import PixelBoopCore

/// The editor's keys (docs/DESIGN.md, "The editor"; the README's key table; `?`): the grid's, and
/// those of the chain and track panels while one is open.
extension EditSession {
    /// A key on the grid; a status ends the session.
    func gridKey(_ event: InputEvent, readAt: Double) -> Int32? {
        if model.piano != nil, pianoKey(event) { return nil }
        if noteKey(event, readAt: readAt) != nil || songKey(event) || recordKey(event) { return nil }
        switch event {
        case .char("p"): togglePlay()
        case .char("G"): toggleChainLoop()
        case .char("i"): model.toggleStepEntry()
        case .char("K"): model.togglePiano()
        case .control("l"):
            // Ctrl-L, as in every full-screen program: the whole screen drawn again.
            size = TerminalSession.size()
            writer.invalidate()
        case .char("f"): model.changeSwing(by: 5)
        case .char("F"): model.changeSwing(by: -5)
        case .char("+"): model.changeBPM(by: 5)
        case .char("-"): model.changeBPM(by: -5)
        case .char("="): model.changeBPM(by: 1)
        case .char("_"): model.changeBPM(by: -1)
        case .char("b"): ask(.tempo, label: "tempo (BPM)", text: Limits.text(model.song.bpm))
        case .char("<"), .char(","): model.changeLength(steps: -1)
        case .char(">"), .char("."): model.changeLength(steps: 1)
        case .char("N"): ask(.length, label: "pattern length in steps (1...64)", text: "\(model.songPattern.length)")
        case .char("u"): model.undo()
        case .control("r"): model.redo()
        case .char("s"), .control("s"): save()
        case .char("W"): askSavePath(label: "save as")
        case .char("E"): ask(.export, label: "export to (.wav or .mid)", text: exportSuggestion)
        case .char("S"): ask(.scale, label: "scale (C major, A minor, ..., off)", text: model.scale?.name ?? "C major")
        case .char("?"): model.showHelp = true
        case .char("}"): model.selectPattern(by: 1)
        case .char("{"): model.selectPattern(by: -1)
        case .char("c"): model.addPattern(clone: true)
        case .char("n"): model.addPattern(clone: false)
        case .char("g"):
            model.panel = .chain
            model.moveChainCursor(by: 0)
        case .char("I"): model.panel = .instrument
        case .char("m"): model.toggleMute()
        case .char("M"): model.toggleSolo()
        case .char("q"), .control("c"):
            if model.isModified { model.question = .saveBeforeQuit } else { return 0 }
        case .mouse(let button, let column, let row, let pressed, let drag):
            mouse(button, column: column, row: row, pressed: pressed, drag: drag, readAt: readAt)
        default: break
        }
        return nil
    }

    /// The song's finer keys on the grid: steps inserted and deleted, the whole track, fill mode,
    /// and the typed velocity, condition and track length. False for any other key.
    private func songKey(_ event: InputEvent) -> Bool {
        switch event {
        case .char("e"), .insert: model.insertStep()
        case .char("d"): model.deleteStep()
        case .control("a"): model.selectAll()
        case .char("Q"):
            model.fillMode.toggle()
            model.message = model.fillMode ? "fill mode: FILL notes play, !FILL notes rest (Q again: off)" : "fill mode off"
            replacePatternInTransport()
        case .char("V"):
            ask(
                .velocity, label: "velocity (\(Limits.text(Velocity.levels)), or normal, accent, sustain)",
                text: model.velocity.rawValue)
        case .char("Y"):
            ask(
                .condition, label: "condition (a:b up to 64:64, FILL, PRE, NEI; ! negates; empty: none)",
                text: model.songNoteUnderCursor?.condition?.text ?? "")
        case .char("C"):
            ask(
                .trackLength, label: "\(model.track.rawValue)'s own length (1...64; empty: the pattern's)",
                text: model.songPattern.trackLengths[model.track].map(String.init) ?? "")
        default: return false
        }
        return true
    }

    /// Piano mode's keys (EditorModel+Piano.swift); false for any other key, which then acts as
    /// on the grid (arrows, Tab, p, Ctrl-S, Ctrl-C ...).
    private func pianoKey(_ event: InputEvent) -> Bool {
        switch event {
        case .char(let c) where PianoEntry.keys[c] != nil:
            if let note = model.pianoNote(c) { audition(note) }
        case .char("-"): model.changePiano(octave: -1)
        case .char("="): model.changePiano(octave: 1)
        case .char("["): model.changePiano(length: -1)
        case .char("]"): model.changePiano(length: 1)
        case .char("9"): model.changePiano(advance: -1)
        case .char("0"): model.changePiano(advance: 1)
        case .char("/"): model.togglePianoChord()
        case .char(" "): model.move(steps: max(model.piano?.advance ?? 1, 1))
        case .backspace, .delete: model.remove()
        case .escape, .char("K"): model.togglePiano()
        default: return false
        }
        return true
    }

    /// The cursor, notes and block keys; nil when `event` is none of them.
    private func noteKey(_ event: InputEvent, readAt: Double) -> Bool? {
        switch event {
        case .arrow(.up), .char("k"): model.move(rows: 1)
        case .arrow(.down), .char("j"): model.move(rows: -1)
        case .arrow(.left), .char("h"): model.move(steps: -1)
        case .arrow(.right), .char("l"): model.move(steps: 1)
        case .shiftArrow(.up): model.extendBlock(rows: 1)
        case .shiftArrow(.down): model.extendBlock(rows: -1)
        case .shiftArrow(.left): model.extendBlock(steps: -1)
        case .shiftArrow(.right): model.extendBlock(steps: 1)
        case .char("H"): model.jump(steps: -4)
        case .char("L"): model.jump(steps: 4)
        case .char(" "), .enter:
            if let placed = model.toggle() { audition(placed) }
        case .char("1"): model.setVelocity(.normal)
        case .char("2"): model.setVelocity(.accent)
        case .char("3"): model.setVelocity(.sustain)
        case .char("["): model.changeLength(by: -1)
        case .char("]"): model.changeLength(by: 1)
        case .tab: model.cycleTrack(by: 1)
        case .shiftTab: model.cycleTrack(by: -1)
        case .char("v"): model.toggleBlock()
        case .escape: model.clearBlock()
        case .char("y"): model.copyBlock()
        case .char("x"): model.cutBlock()
        case .char("P"): for note in model.paste() { audition(note) }
        case .char("D"): for note in model.duplicateBlock() { audition(note) }
        case .delete, .backspace: model.deleteBlock()
        case .char("t"): model.transpose(by: 1)
        case .char("T"): model.transpose(by: -1)
        case .char("o"): model.transpose(by: 12)
        case .char("O"): model.transpose(by: -12)
        case .char("a"): model.changeProbability(by: 10)
        case .char("A"): model.changeProbability(by: -10)
        case .char("r"): model.changeRatchet(by: 1)
        case .char("R"): model.changeRatchet(by: -1)
        case .char("z"): model.cycleCondition(by: 1)
        case .char("Z"): model.cycleCondition(by: -1)
        case .char("("): model.nudge(by: -1)
        case .char(")"): model.nudge(by: 1)
        default: return nil
        }
        return true
    }

    /// A key while the chain or the track panel is open; Esc (or the key that opened it) closes it.
    func panelKey(_ event: InputEvent, _ panel: EditorModel.Panel) -> Int32? {
        switch (panel, event) {
        case (_, .escape), (.chain, .char("g")), (.instrument, .char("I")): model.panel = nil
        case (_, .char("u")): model.undo()
        case (_, .control("r")): model.redo()
        case (_, .char("q")), (_, .control("c")):
            model.panel = nil
            return gridKey(event, readAt: 0)
        case (.chain, .arrow(.up)), (.chain, .char("k")): model.moveChainCursor(by: -1)
        case (.chain, .arrow(.down)), (.chain, .char("j")): model.moveChainCursor(by: 1)
        case (.chain, .enter): model.openChainEntry()
        case (.chain, .char("a")): model.repeatChainEntry()
        case (.chain, .char("d")): model.duplicateChainEntry()
        case (.chain, .char("n")):
            model.openChainEntry()
            model.addPattern(clone: false)
            model.panel = .chain
        case (.chain, .char("b")):
            ask(
                .entryTempo, label: "entry tempo (BPM; empty: the song's)",
                text: model.song.chain[model.chainIndex].bpm.map { String(Int($0)) } ?? "")
        case (.chain, .char("f")): model.toggleEntryFill()
        case (.chain, .char("p")):
            model.playChain(fromEntry: model.chainIndex)
            restartLoop()
        case (.chain, .char("v")):
            model.markChainRange()
            if model.chainRangeAnchor == nil { restartLoop() }
        case (.chain, .char("t")):
            ask(
                .transpose, label: "entry transpose (semitones -24...24)", text: "\(model.song.chain[model.chainIndex].transpose)"
            )
        case (.chain, .char("r")): ask(.rename, label: "rename pattern", text: model.song.chain[model.chainIndex].pattern)
        case (.chain, .char("x")), (.chain, .delete): model.deleteChainEntry()
        case (.chain, .char("X")): model.deleteChainPattern()
        case (.chain, .char("K")): model.moveChainEntry(by: -1)
        case (.chain, .char("J")): model.moveChainEntry(by: 1)
        case (.chain, .char("+")), (.chain, .char("=")): model.changeRepeats(by: 1)
        case (.chain, .char("-")), (.chain, .char("_")): model.changeRepeats(by: -1)
        case (.chain, .char("]")): model.cycleChainPattern(by: 1)
        case (.chain, .char("[")): model.cycleChainPattern(by: -1)
        case (.instrument, .arrow(.up)), (.instrument, .char("k")): model.moveInstrumentField(by: -1)
        case (.instrument, .arrow(.down)), (.instrument, .char("j")): model.moveInstrumentField(by: 1)
        case (.instrument, .arrow(.left)), (.instrument, .char("h")): model.changeInstrument(by: -1)
        case (.instrument, .arrow(.right)), (.instrument, .char("l")): model.changeInstrument(by: 1)
        case (.instrument, .char("m")): model.toggleMute()
        case (.instrument, .char("M")): model.toggleSolo()
        case (.instrument, .tab): model.cycleTrack(by: 1)
        case (.instrument, .shiftTab): model.cycleTrack(by: -1)
        default: break
        }
        return nil
    }

    /// `G`: the loop plays the song chain, or the pattern on the grid again; a playing loop
    /// starts over in its new mode (the chain from its first entry).
    func toggleChainLoop() {
        model.playsChain.toggle()
        model.chainRange = nil
        model.message =
            model.playsChain ? "the loop plays the song chain (G: the pattern)" : "the loop plays the pattern (G: the chain)"
        guard transport?.state == .playing else { return }
        restartLoop()
    }

    /// The loop starts over with what it now plays (the chain from an entry, a range of entries).
    func restartLoop() {
        guard let transport else {
            model.message = "no sound device: the loop cannot play (editing works)"
            return
        }
        do {
            if transport.state == .playing || transport.state == .paused { try transport.stopLoop() }
            transport.playSong(model.audibleSong)
            try transport.start()
        } catch {
            model.message = "\(error)"
        }
    }

    var exportSuggestion: String {
        PathText.deletingExtension(file) + ".wav"
    }
}
