import Foundation
import Testing

@testable import PixelBoopCore

@Suite("The path line")
struct PathPromptTests {
    @Test("the path line: typing, Backspace, Ctrl-U, Ctrl-W, Enter, Esc; its end shown when long")
    func pathPrompt() {
        var p = PathPrompt(label: "save as", text: "/tmp/a.json")
        #expect(p.apply(.backspace) == .editing && p.text == "/tmp/a.jso")
        _ = p.apply(.char("n"))
        _ = p.apply(.char("é"))
        #expect(p.text == "/tmp/a.jsoné")
        _ = p.apply(.control("w"))
        #expect(p.text == "/tmp/")
        _ = p.apply(.control("u"))
        #expect(p.apply(.enter) == .editing)   // nothing typed: nothing to save to
        for c in "  b.json " { _ = p.apply(.char(c)) }
        #expect(p.apply(.enter) == .done("b.json"))
        #expect(p.apply(.escape) == .cancelled)
        let long = PathPrompt(label: "save as", text: String(repeating: "x", count: 300) + "/end.json")
        let line = long.line(width: 80)
        #expect(line.count <= 80 && line.hasPrefix("save as: …") && line.hasSuffix("/end.json▏"))
    }

    @Test("the proposal is selected: the first character typed replaces it; Backspace or → keep it")
    func proposalSelected() {
        var scale = PathPrompt(label: "scale", text: "C major")
        #expect(scale.selected)
        #expect(scale.line(width: 80) == "scale: C major▏  (typing replaces it; → edits it)")
        for c in "A minor" { _ = scale.apply(.char(c)) }
        #expect(scale.text == "A minor" && !scale.selected)
        #expect(scale.line(width: 80) == "scale: A minor▏")
        var path = PathPrompt(label: "save as", text: "song.json")
        _ = path.apply(.arrow(.right))
        _ = path.apply(.char("x"))
        #expect(path.text == "song.jsonx")
        var tempo = PathPrompt(label: "tempo", text: "120")
        #expect(tempo.apply(.enter) == .done("120"))   // Enter takes the proposal as it is
        #expect(PathPrompt(label: "save as", text: "").selected == false)
        #expect(PathPrompt(label: "scale", text: "C major").line(width: 20) == "scale: C major▏")
    }
}
