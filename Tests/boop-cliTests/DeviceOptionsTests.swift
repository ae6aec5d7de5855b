import ArgumentParser
import Foundation
import PixelBoopCore
import Testing

@testable import boop_cli

@Suite("The options every live command shares")
struct DeviceOptionsTests {
    @Test("--backend jack and --no-connect on every live command; --no-connect needs jack")
    func backendOption() throws {
        for args in [["play", "p.json"], ["tone", "A4"], ["ambient"], ["listen"]] {
            let command = try Boop.parseAsRoot(args + ["--backend", "jack", "--no-connect"])
            let options: DeviceOptions? =
                (command as? PlayCommand)?.deviceOptions ?? (command as? ToneCommand)?.deviceOptions
                ?? (command as? AmbientCommand)?.deviceOptions ?? (command as? ListenCommand)?.deviceOptions
            let route = try #require(options).route
            #expect(route == AudioRoute(device: "default", backend: .jack, connect: false))
            #expect(route.description == "JACK client 'boop'")
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(args + ["--no-connect"]) }
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(args + ["--backend", "pulse"]) }
        }
        let listen = try parseListen(["--backend", "jack"])
        #expect(listen.streamConfig.backend == .jack && listen.streamConfig.connect)
        #expect(try parseListen([]).deviceOptions.route == AudioRoute(device: "default"))
    }

    @Test("DeviceOptions: rate stays optional so each command applies its own default")
    func deviceOptions() throws {
        let o = try DeviceOptions.parse([])
        #expect(o.device == "default")
        #expect(o.sampleRate(default: 44100) == 44100)
        let r = try DeviceOptions.parse(["-r", "22050", "-D", "pulse"])
        #expect(r.sampleRate(default: 44100) == 22050)
        #expect(r.device == "pulse")
    }
}
