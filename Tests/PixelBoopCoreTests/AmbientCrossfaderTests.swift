import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

/// The ambient crossfader (AmbientCrossfader.swift): plays one piece, fades (equal power) into the
/// next on request, refuses a fade while one runs, and lets the faded-out piece go once the audio
/// thread no longer renders it. The test renders the crossfader's source as the audio thread would.
@Suite("Ambient crossfader")
struct AmbientCrossfaderTests {
    static let rate = 22050.0

    static func piece(_ name: String, seed: UInt64) throws -> AmbientEngine {
        try AmbientEngine(preset: AmbientPreset.named(name)!, seed: seed, sampleRate: rate)
    }

    /// `frames` stereo frames of `source`, rendered in blocks of 1000 frames (or fewer).
    static func render(_ source: boop_source, frames: Int) -> [Float] {
        var out = [Float](repeating: 0, count: frames * 2)
        var done = 0
        while done < frames {
            let n = min(1000, frames - done)
            let status = out.withUnsafeMutableBufferPointer {
                source.render(source.context, $0.baseAddress! + done * 2, UInt32(n))
            }
            #expect(status == BOOP_OK)
            done += n
        }
        return out
    }

    @Test("before a fade it plays the first piece sample for sample")
    func passThrough() throws {
        let fader = try AmbientCrossfader(first: try Self.piece("Bright_Bells", seed: 3))
        let twin = try Self.piece("Bright_Bells", seed: 3)
        #expect(!fader.isFading && fader.outgoing == nil)
        #expect(Self.render(fader.renderSource, frames: 22050) == twin.render(frames: 22050))
    }

    @Test("a fade makes the next piece current; a second fade is refused while it runs; collect lets the old go after it")
    func fade() throws {
        let first = try Self.piece("Bright_Bells", seed: 3)
        let next = try Self.piece(AmbientPreset.bundled.last!.name, seed: 4)
        let fader = try AmbientCrossfader(first: first)
        try fader.fade(to: next, seconds: 0.5)
        #expect(fader.current === next && fader.outgoing === first && fader.isFading)
        let third = try Self.piece("Bright_Bells", seed: 5)
        #expect {
            try fader.fade(to: third, seconds: 0.5)
        } throws: { error in
            guard case AudioError.alreadyStreaming = error else { return false }
            return true
        }
        #expect(fader.current === next)   // the refused fade changed nothing
        fader.collect()
        #expect(fader.outgoing === first)   // still fading: kept alive
        _ = Self.render(fader.renderSource, frames: Int(0.6 * Self.rate))
        #expect(!fader.isFading)
        fader.collect()
        #expect(fader.outgoing == nil)
        try fader.fade(to: third, seconds: 0.5)   // a new fade once the last is over
        #expect(fader.current === third && fader.outgoing === next)
    }

    @Test("once the fade is over the output is the next piece, as it plays alone from the fade's start")
    func afterTheFade() throws {
        let fader = try AmbientCrossfader(first: try Self.piece("Bright_Bells", seed: 3))
        _ = Self.render(fader.renderSource, frames: 5000)
        let name = AmbientPreset.bundled.last!.name
        try fader.fade(to: try Self.piece(name, seed: 9), seconds: 0.2)
        let faded = Self.render(fader.renderSource, frames: 22050)
        let alone = try Self.piece(name, seed: 9).render(frames: 22050)
        let after = Int(0.25 * Self.rate) * 2
        #expect(Array(faded[after...]) == Array(alone[after...]))
        #expect(Array(faded[..<after]) != Array(alone[..<after]))   // the first piece is heard in the fade
    }

    @Test("a fade time outside 0.001 ... 60 s is refused, and the piece playing stays")
    func badTimes() throws {
        let first = try Self.piece("Bright_Bells", seed: 3)
        let fader = try AmbientCrossfader(first: first)
        for seconds in [0, -1, 61, .nan] {
            #expect(throws: AudioError.self, "\(seconds) s") {
                try fader.fade(to: try Self.piece("Bright_Bells", seed: 1), seconds: seconds)
            }
        }
        #expect(fader.current === first && fader.outgoing == nil && !fader.isFading)
    }
}
