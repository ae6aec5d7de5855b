import Foundation
import Testing

@testable import PixelBoopCore

/// The offline render loop (OfflineRender.swift): the live engine, scheduler and output stage
/// driven block by block, then the release tail until every voice is silent, at most `tailFrames`.
@Suite("Offline render loop")
struct OfflineRenderTests {
    static let rate = 44100.0

    /// One 16-step pattern at 120 BPM (2 s), with `notes` on the melody.
    static func song(_ notes: [SongNote]) -> Song {
        Song(name: "r", patterns: [SongPattern(name: "A", tracks: notes.isEmpty ? [:] : [.melody: notes])])
    }

    struct Result {
        var frames: UInt64
        var samples: [Float]
        var progress: [Double]
        var events: [SongEvent]
    }

    /// Renders `song` once through `OfflineRender` as `SongRenderer` sets it up.
    static func render(
        _ song: Song, blockFrames: Int, channels: Int = 1, tailSeconds: Double = 4, stopAfter: Int? = nil
    ) throws -> Result {
        var sequencer = SongSequencer(song: song, sampleRate: rate, loops: 1)
        let engine = try AudioEngine(
            configuration: EngineConfiguration(sampleRate: rate, voices: 8, maxBlockFrames: blockFrames, channels: channels))
        let output = try OutputStage(sampleRate: rate, channels: channels)
        let loop = OfflineRender(
            engine: engine, output: output, blockFrames: blockFrames, channels: channels,
            tailFrames: UInt64(tailSeconds * rate))
        var result = Result(frames: 0, samples: [], progress: [], events: [])
        var polls = 0
        result.frames = try loop.run(
            &sequencer, totalSteps: sequencer.totalSteps!,
            schedule: { event throws(AudioError) in
                result.events.append(event)
                try engine.schedule(event)
            },
            progress: { result.progress.append($0) },
            shouldStop: {
                polls += 1
                return stopAfter.map { polls > $0 } ?? false
            },
            sink: { result.samples += $0 })
        return result
    }

    @Test("silence renders exactly the music's frames, the tail none; the sink gets every frame")
    func silence() throws {
        for channels in [1, 2] {
            let r = try Self.render(Self.song([]), blockFrames: 1000, channels: channels)
            #expect(r.frames == 88200)   // 16 sixteenths at 120 BPM: 2 s
            #expect(r.samples.count == 88200 * channels && r.samples.allSatisfy { $0 == 0 })
        }
    }

    @Test("a note still ringing at the end gets its release tail, cut at tailFrames")
    func tail() throws {
        let ringing = Self.song([SongNote(step: 15, pitch: 60)])
        let free = try Self.render(ringing, blockFrames: 512)
        #expect(free.frames > 88200 && free.frames < 88200 + 4 * 44100)
        #expect(free.samples.count == Int(free.frames))
        let cut = try Self.render(ringing, blockFrames: 512, tailSeconds: 0.01)
        #expect(cut.frames == 88200 + 441)
        let none = try Self.render(ringing, blockFrames: 512, tailSeconds: 0)
        #expect(none.frames == 88200)
    }

    @Test("the block size changes nothing heard: the same samples from blocks of 64 and of 4096 frames")
    func blockSize() throws {
        let notes = [
            SongNote(step: 0, pitch: 60, length: 3), SongNote(step: 5, pitch: 67, velocity: .accent),
            SongNote(step: 9, pitch: 64, length: 6)
        ]
        let small = try Self.render(Self.song(notes), blockFrames: 64)
        let large = try Self.render(Self.song(notes), blockFrames: 4096)
        #expect(small.frames == large.frames && small.samples == large.samples)
        #expect(small.events == large.events)
        #expect(small.samples.contains { $0 != 0 })
    }

    @Test("events go to the engine in frame order, each before the block it falls in is rendered")
    func eventOrder() throws {
        let notes = (0..<16).map { SongNote(step: $0, pitch: 48 + $0, length: 1) }
        let r = try Self.render(Self.song(notes), blockFrames: 1024)
        #expect(r.events.count == 32)   // a note-on and a note-off each
        #expect(zip(r.events, r.events.dropFirst()).allSatisfy { $0.frame <= $1.frame })
        var sequencer = SongSequencer(song: Self.song(notes), sampleRate: Self.rate, loops: 1)
        let stepFrames: [UInt64] = (0..<16).map { sequencer.frame(ofStep: $0) }
        let onFrames: [UInt64] = r.events.filter { !$0.isNoteOff }.map(\.frame)
        #expect(onFrames == stepFrames)
    }

    @Test("progress rises to 1 as the blocks go out")
    func progress() throws {
        let r = try Self.render(Self.song([SongNote(step: 0, pitch: 60)]), blockFrames: 8192)
        #expect(zip(r.progress, r.progress.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(r.progress.last == 1 && r.progress.first! > 0 && r.progress.count >= 11)
    }

    @Test("a stop asked between blocks ends the render with CancellationError")
    func stop() throws {
        #expect(throws: CancellationError.self) { try Self.render(Self.song([]), blockFrames: 1000, stopAfter: 3) }
        #expect(throws: CancellationError.self) { try Self.render(Self.song([]), blockFrames: 1000, stopAfter: 0) }
    }
}
