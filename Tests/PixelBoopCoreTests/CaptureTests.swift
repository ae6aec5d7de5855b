import Foundation
import Testing

@testable import PixelBoopCore

private func sineWave(_ f: Double, rate: Double = 16000, frames: Int = 2048, amp: Float = 0.5) -> [Float] {
    (0..<frames).map { amp * Float(sin(2 * Double.pi * f * Double($0) / rate + 0.3)) }
}

@Suite("Capture: StreamConfig, PitchDetector, levels, devices")
struct CaptureTests {
    @Test("StreamConfig defaults are the original design's: 16 kHz, 2048 frames, mono, default device")
    func defaults() {
        let c = StreamConfig()
        #expect(c.sampleRate == 16000)
        #expect(c.bufferFrames == 2048)
        #expect(c.channels == 1)
        #expect(c.device == "default")
    }

    @Test(
        "StreamConfig rejects values out of range, naming the field",
        arguments: [
            StreamConfig(sampleRate: 100), StreamConfig(bufferFrames: 8), StreamConfig(channels: 0),
            StreamConfig(device: "")
        ])
    func invalidConfig(_ config: StreamConfig) {
        #expect(throws: AudioError.self) { try config.validate() }
        let stream = AudioStream(config: config)
        #expect(throws: AudioError.self) { try stream.start() }
        #expect(!stream.isStreaming)
    }

    @Test("YIN finds sines to well under a cent, names the note", arguments: [110.0, 261.63, 440.0, 987.77, 3000.0])
    func pitch(_ f: Double) throws {
        let d = try PitchDetector(sampleRate: 16000, windowFrames: 2048)
        let r = try #require(d.detect(sineWave(f)))
        #expect(abs(Pitch.cents(from: f, to: r.frequency)) < 0.1)
        #expect(r.confidence > 0.9)
        let expected = PitchDetector.nearestNote(to: f)
        #expect(r.note == expected.name)
    }

    @Test("silence and noise are unvoiced")
    func unvoiced() throws {
        let d = try PitchDetector(sampleRate: 16000)
        #expect(d.detect([Float](repeating: 0, count: 2048)) == nil)
        var rng = SystemRandomNumberGenerator()
        let noise = (0..<2048).map { _ in Float.random(in: -0.5...0.5, using: &rng) }
        #expect(d.detect(noise) == nil)
    }

    @Test("invalid detector shapes throw invalidConfiguration")
    func badDetector() {
        #expect(throws: AudioError.self) { try PitchDetector(sampleRate: 16000, windowFrames: 8) }
        #expect(throws: AudioError.self) { try PitchDetector(sampleRate: 16000, minFrequency: 900, maxFrequency: 100) }
    }

    @Test(
        "nearest note and cents",
        arguments: [
            (440.0, "A4", 69, 0.0), (261.6255653, "C4", 60, 0.0), (445.0, "A4", 69, 19.56),
            (27.5, "A0", 21, 0.0), (466.1637615, "A#4", 70, 0.0), (430.0, "A4", 69, -39.80)
        ])
    func nearestNote(_ c: (Double, String, Int, Double)) {
        let n = PitchDetector.nearestNote(to: c.0)
        #expect(n.name == c.1)
        #expect(n.midi == c.2)
        #expect(abs(n.cents - c.3) < 0.01)
    }

    @Test("levels: RMS and peak of a sine, dBFS")
    func levels() {
        let l = SignalLevel.measure(sineWave(440, amp: 0.5))
        #expect(abs(l.rms - 0.5 / 2.0.squareRoot()) < 0.002)
        #expect(abs(l.peak - 0.5) < 0.001)
        #expect(abs(SignalLevel.dbfs(1.0)) < 1e-9)
        #expect(SignalLevel.dbfs(0) == -120)
        #expect(SignalLevel.measure([]).rms == 0)
    }

    @Test("device listing has default first and marked")
    func devices() throws {
        let list = try AudioDevices.list()
        let first = try #require(list.first)
        #expect(first.name == "default")
        #expect(first.isDefault)
        #expect(list.filter(\.isDefault).count == 1)
    }

    @Test("devices: ALSA's converter plugins are not devices; servers, cards and the user's own PCMs are")
    func converterPlugins() throws {
        for name in [
            "lavrate", "lavrate_higher", "samplerate", "samplerate_best", "speexrate", "speexrate_medium", "speex",
            "upmix", "vdownmix", "a52", "dca", "usbstream", "usbstream:CARD=US122L"
        ] {
            #expect(!AudioDevices.isDevice(name), "\(name)")
        }
        for name in [
            "default", "pulse", "jack", "pipewire", "hw:CARD=PCH,DEV=0", "plughw:CARD=PCH,DEV=0",
            "sysdefault:CARD=PCH", "front:CARD=PCH,DEV=0", "dmix:CARD=PCH,DEV=0", "mymic"
        ] {
            #expect(AudioDevices.isDevice(name), "\(name)")
        }
        #expect(AudioDevices.isDevice("oss", ossPresent: true) && !AudioDevices.isDevice("oss", ossPresent: false))
        let all = try AudioDevices.list(all: true)
        let shown = try AudioDevices.list()
        #expect(shown == all.filter { AudioDevices.isDevice($0.name) })
        #expect(shown.first?.name == "default")
    }

    @Test("YIN: silence, then an A4 starting anywhere in a buffer: no reading far from A4 (not a C7 at the onset)")
    func onset() throws {
        let d = try PitchDetector(sampleRate: 16000, windowFrames: 2048)
        let tone = sineWave(440, frames: 3 * 2048)
        var readings = 0
        for onset in stride(from: 0, to: 2048, by: 32) {
            // The buffer holding the onset, then the first full one.
            let signal = [Float](repeating: 0, count: onset) + tone
            for start in [0, 2048] {
                guard let r = d.detect(Array(signal[start..<start + 2048])) else { continue }
                readings += 1
                #expect(abs(Pitch.cents(from: 440, to: r.frequency)) < 5, "onset \(onset): \(r.note) \(r.cents)")
            }
        }
        #expect(readings >= 64)   // every full buffer is read
    }
}
