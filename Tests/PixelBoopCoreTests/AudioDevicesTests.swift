import Foundation
import Testing

@testable import PixelBoopCore

@Suite("AudioDevices")
struct AudioDevicesTests {
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
}
