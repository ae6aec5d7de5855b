// libFuzzer target for everything that reads what a user typed or wrote: the first byte picks the
// reader (pattern file, ambient preset, NOTE argument), the rest is its input. Each must either
// accept it or refuse it with an error; a refusal's message is one line. A crash, a trap or a
// sanitizer report is a finding. Built and run by scripts/fuzz.sh.
import PixelBoopCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let selector = bytes[0] % 3
    let body = Bytes(bytes[1...])
    switch selector {
    case 0:
        do {
            let pattern = try Song.parseVersion1(body, file: "fuzz.json")
            // An accepted pattern is a valid one: read as the one-pattern song every command plays,
            // it renders a block without trapping.
            var renderer = SongRenderer(song: pattern)
            renderer.sampleRate = 8000
            _ = try? renderer.render(progress: nil, shouldStop: { false }, limitingIn: nil) { _ in
                throw CancellationError()
            }
        } catch {
            precondition(!error.message.contains("\n"), "multi-line error: \(error.message)")
        }
    case 1:
        do {
            _ = try AmbientPreset.parse(body, file: "fuzz.json")
        } catch {
            precondition(!error.message.contains("\n"), "multi-line error: \(error.message)")
        }
    default:
        let text = String(decoding: body, as: UTF8.self)
        if let spec = try? NoteSpec.parse(text) {
            if let hz = try? spec.frequency() { precondition(hz.isFinite && hz >= 20 && hz <= 20000, "\(hz) Hz") }
        }
    }
    return 0
}
