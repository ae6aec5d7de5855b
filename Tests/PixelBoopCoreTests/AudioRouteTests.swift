import CAudioEngine
import Testing

@testable import PixelBoopCore

/// Where sound goes: the route's name in messages (escaped: a device name cannot drive the
/// terminal), and the one-line reasons a route cannot be opened, for ALSA and for JACK.
@Suite("AudioRoute")
struct AudioRouteTests {
    @Test("names: the ALSA PCM or the JACK client, escaped")
    func names() {
        #expect(AudioRoute().description == "ALSA PCM 'default'")
        #expect(AudioRoute(device: "hw:0,0").description == "ALSA PCM 'hw:0,0'")
        #expect(AudioRoute(backend: .jack, clientName: "boop-2").description == "JACK client 'boop-2'")
        #expect(AudioRoute(device: "evil\n\u{1B}[2J").description == "ALSA PCM 'evil\\n\\e[2J'")
        #expect(AudioBackend.alsa.cValue == BOOP_BACKEND_ALSA)
        #expect(AudioBackend.jack.cValue == BOOP_BACKEND_JACK)
    }

    @Test("an ALSA device that cannot be opened: its name, the purpose, the reason in lower case")
    func alsaUnavailable() {
        let route = AudioRoute(device: "hw:9")
        #expect(route.unavailable("playback") == "ALSA PCM 'hw:9' cannot be opened for playback")
        #expect(
            route.unavailable("capture", reason: "No such device")
                == "ALSA PCM 'hw:9' cannot be opened for capture: no such device")
    }

    @Test("no JACK server: the advice; a server that did not answer: the client, the purpose and the engine's reason as it is")
    func jackUnavailable() {
        let route = AudioRoute(backend: .jack)
        #expect(
            route.unavailable("playback")
                == "no JACK server is running, or it refused a client (start jackd or PipeWire's JACK service; boop never starts one)"
        )
        #expect(
            route.unavailable("capture", reason: "the JACK server did not answer within 5 s (stopped or hung?)")
                == "JACK client 'boop' cannot be opened for capture: the JACK server did not answer within 5 s (stopped or hung?)"
        )
        #expect(route.memoryRefused("playback") == nil)   // only an ALSA client library's room is checked
    }

    @Test("an open failure without an address-space limit (the tests run with none) is the device's reason")
    func openFailure() {
        let route = AudioRoute(device: "hw:9")
        #expect(AddressSpace.tooTightForAClient() == nil)
        let error = route.openFailure("playback", reason: "busy")
        guard case .deviceUnavailable(let text) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(text == "ALSA PCM 'hw:9' cannot be opened for playback: busy")
    }
}
