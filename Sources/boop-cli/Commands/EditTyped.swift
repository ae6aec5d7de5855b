import Glibc
import PixelBoopCore

/// What a line typed at the editor's message line is for.
enum PromptPurpose: Equatable {
    case save, export, tempo, entryTempo, scale, rename, length, trackLength, transpose, condition, velocity, quantize, clickLevel
}

/// The lines typed for something other than saving: a tempo, a scale, a pattern's new name, the
/// file to export to.
extension EditSession {
    func typedLine(_ typed: String, for purpose: PromptPurpose) -> Int32? {
        let text = typed.trimmingWhitespace()
        switch purpose {
        case .save: break
        case .tempo:
            guard let bpm = Double(text), Song.bpmRange.contains(bpm) else {
                model.message =
                    "tempo: expected a number \(Int(Song.bpmRange.lowerBound))...\(Int(Song.bpmRange.upperBound))"
                return nil
            }
            model.setBPM(bpm)
            replacePatternInTransport()
        case .entryTempo:
            if text.isEmpty { return setEntry(nil) }
            guard let bpm = Double(text), Song.bpmRange.contains(bpm) else {
                model.message =
                    "tempo: expected a number \(Int(Song.bpmRange.lowerBound))...\(Int(Song.bpmRange.upperBound))"
                return nil
            }
            return setEntry(bpm)
        case .scale:
            if text.lowercased() == "off" || text.isEmpty {
                model.chooseScale(nil)
                model.message = "scale lock off"
            } else if let scale = Scale(parsing: text) {
                model.chooseScale(scale)
                model.message = "scale lock: \(scale.name)"
            } else {
                model.message = "scale: expected \(Scale.help)"
            }
        case .rename: model.renamePattern(to: text)
        case .length:
            guard let steps = Int(text), (1...64).contains(steps) else {
                model.message = "length: expected a whole number of steps, 1...64"
                return nil
            }
            model.requestLength(steps)
        case .trackLength, .transpose, .condition, .velocity: return songLine(text, for: purpose)
        case .quantize, .clickLevel: recordLine(text, for: purpose)
        case .export: export(to: text)
        }
        return nil
    }

    /// A track's own length, an entry's transpose, a note's condition.
    private func songLine(_ text: String, for purpose: PromptPurpose) -> Int32? {
        switch purpose {
        case .trackLength:
            if text.isEmpty {
                model.setTrackLength(nil)
            } else if let steps = Int(text), SongPattern.lengths.contains(steps) {
                model.setTrackLength(steps)
            } else {
                model.message = "track length: expected a whole number of steps, 1...64, or nothing"
            }
            replacePatternInTransport()
        case .condition:
            if text.isEmpty {
                model.setCondition(nil)
            } else if let c = SongNote.Condition(text: text.uppercased()) {
                model.setCondition(c)
            } else {
                model.message = "condition: expected a:b (1 <= a <= b <= 64), FILL, PRE or NEI, ! to negate"
                return nil
            }
            replacePatternInTransport()
        case .velocity:
            guard
                let v = Velocity(rawValue: text.lowercased())
                    ?? Int(text).flatMap({ Velocity.levels.contains($0) ? .level($0) : nil })
            else {
                model.message = "velocity: expected \(Limits.text(Velocity.levels)), normal, accent or sustain"
                return nil
            }
            model.setVelocity(v)
            replacePatternInTransport()
        case .transpose:
            guard let t = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text), ChainEntry.transposeRange.contains(t) else {
                model.message = "transpose: expected whole semitones, -24...24"
                return nil
            }
            model.setEntryTranspose(t)
            replacePatternInTransport()
        default: break
        }
        return nil
    }

    private func setEntry(_ bpm: Double?) -> Int32? {
        model.setEntryBPM(bpm)
        return nil
    }

    /// `E`: the song as audio (.wav; any other name: 16-bit as `render` writes it) or as a
    /// Standard MIDI File (.mid), exactly as `boop render` writes the saved file, beside the
    /// editing (EditExport.swift). A failure opens the line again with the reason.
    func export(to typed: String) {
        let path = typed == "~" || typed.hasPrefix("~/") ? PatternFile.absolute(typed, home: environment["HOME"]) : typed
        if exportJob != nil {
            model.message = "an export is still running (Esc cancels it)"
            return
        }
        // As Save As does: a file already there is replaced only once agreed to.
        let (exists, folder) = PatternFile.exists(path)
        if exists && !folder {
            model.question = .replaceExport(path: path)
            return
        }
        startExport(to: path, midi: ExportTarget.isMidi(path))
    }
}

/// What an export's name asks for.
enum ExportTarget {
    /// `.mid` or `.midi` (any case): a Standard MIDI File; anything else is audio.
    static func isMidi(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".mid") || lowered.hasSuffix(".midi")
    }
}
