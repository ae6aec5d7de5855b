import Foundation
import Testing

@testable import PixelBoopCore

@Suite("The editor's status line")
struct EditorViewStatusLineTests {
    @Test("the status line fits any width, keeps the name whole while it fits, shortens the rest first")
    func statusLine() {
        var view = EditorView(colorMode: .truecolor)
        var m = EditorModel(version1: Song(name: "t"))
        m.toggle()
        let name = "a-rather-long-pattern-file-name-for-the-status-line.json"
        for sound in [
            SoundStatus.device(name: "pulse", latencyMilliseconds: 8.7), .silent("no sound device: editing silently"),
            .reconnecting
        ] {
            for width in [200, 120, 80, 70, 60, 58, 57, 40, 20, 5, 1] {
                let line = view.statusText(model: m, playing: true, sound: sound, name: name + "*", width: width)
                #expect(line.count <= width, "width \(width): \(line)")
                if name.count + 2 <= width { #expect(line.contains(name + "*"), "width \(width): \(line)") }
            }
        }
        let at80 = view.statusText(
            model: m, playing: false, sound: .device(name: "pulse", latencyMilliseconds: 8.7), name: name + "*", width: 80)
        #expect(at80 == " \(name)*│mel│1/16│C4│120│■│n1")
        // A device being reconnected says so on an 80-column line with a usual file name.
        let reconnecting = view.statusText(
            model: m, playing: true, sound: .reconnecting, name: "reconnect.json*", width: 80)
        #expect(reconnecting.contains("reconnecting"), "\(reconnecting)")
        let f = view.frame(
            model: m, width: 80, height: 24, playStep: nil, playing: false,
            sound: .device(name: "pulse", latencyMilliseconds: 8.7), fileName: name)
        #expect(f.text(row: 23).hasPrefix(" \(name)*"))
    }

    @Test("`i` shows in the status line while step entry is on, and in the keys (`?`)")
    func stepEntryShown() {
        let view = EditorView(colorMode: .truecolor)
        var m = EditorModel(version1: Song(name: "t"))
        let sound = SoundStatus.device(name: "pulse", latencyMilliseconds: 8.7)
        #expect(!view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: 120).contains("entry"))
        m.toggleStepEntry()
        #expect(view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: 120).contains("step entry"))
        for width in [80, 40, 20] {
            #expect(view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: width).count <= width)
        }
        let line = EditorView.helpColumns.joined().first { $0.hasPrefix("i ") }
        #expect(line?.contains("MIDI entry / piano") == true && (line?.count ?? 99) <= 38)
        // The help fits 80 x 24 whole: a title, 20 rows and a blank one above the key bar and
        // the status line; every entry within its 38 columns.
        #expect(EditorView.helpColumns.allSatisfy { $0.count <= 20 })
        #expect(EditorView.helpColumns.joined().allSatisfy { $0.count <= 38 })
        #expect(EditorView.helpColumns.joined().contains { $0.hasPrefix("*") && $0.contains("record") })
    }

    @Test("a typed tempo keeps its tenth (97.5), and the status line shows it as the file holds it")
    func tempoTenths() {
        let view = EditorView(colorMode: .truecolor)
        var m = EditorModel(version1: Song(name: "t"))
        m.setBPM(97.54)
        #expect(m.song.bpm == 97.5)
        let sound = SoundStatus.device(name: "pulse", latencyMilliseconds: 8.7)
        #expect(view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: 120).contains("97.5 BPM"))
        m.setBPM(120)
        #expect(view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: 120).contains("120 BPM"))
    }

    @Test("`K` shows piano mode in the status line: its octave, length and step, and chord")
    func pianoShown() {
        let view = EditorView(colorMode: .truecolor)
        var m = EditorModel(version1: Song(name: "t"))
        let sound = SoundStatus.device(name: "pulse", latencyMilliseconds: 8.7)
        m.togglePiano()
        #expect(view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: 120).contains("piano C4 len 1 +1"))
        m.togglePianoChord()
        #expect(view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: 120).contains("+1 chord"))
        for width in [80, 40, 20] {
            #expect(view.statusText(model: m, playing: false, sound: sound, name: "t.json", width: width).count <= width)
        }
    }
}
