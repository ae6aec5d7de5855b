import Glibc
import PixelBoopCore

/// `boop edit -C DEVICE`: a voice sung into the recording (`*`). The capture is read by a task
/// into a `CaptureBuffer` and taken on the editor's loop at each wake (the screen's cadence), so
/// the model and the screen stay on one thread. Notes are taken from it a quarter second at a
/// time once they have ended (`VoiceTake`), and placed as played MIDI notes are
/// (`EditorModel.record`), on the frame the listener heard when they were sung.
final class EditVoice {
    let stream: AudioStream
    let buffer = CaptureBuffer()
    let rate: Double
    let tracker: PitchTracker
    var take: VoiceTake?
    /// The count-in click being looked for in the capture.
    var clickAt: UInt64?
    var nextLook = 0.0
    var nextPitch = 0.0
    /// Samples per capture buffer: the latency assumed where the click never comes back.
    static let bufferFrames = 320
    static let captureRate = StreamConfig.defaultSampleRate
    /// Notes are taken this often (seconds).
    static let lookEvery = 0.25
    /// Marks the capture's notes apart from a keyboard's channels in the model's held keys.
    static let channel = 16

    init(device: String, backend: AudioBackend, connect: Bool) throws {
        var config = StreamConfig(
            sampleRate: EditVoice.captureRate, bufferFrames: EditVoice.bufferFrames, channels: 1, device: device)
        config.backend = backend
        config.connect = connect
        stream = AudioStream(config: config)
        try stream.start()
        rate = stream.sampleRate
        tracker = try PitchTracker(sampleRate: rate, minFrequency: 60, maxFrequency: 1400)
        buffer.gather(from: stream)
    }

    func close() { stream.stop() }
}

extension EditCommand {
    /// Opened before the terminal is taken: a capture device that cannot be opened is one line, 69.
    func openVoice() throws -> EditVoice? {
        guard let captureDevice else { return nil }
        do {
            return try EditVoice(device: captureDevice, backend: deviceOptions.backend, connect: !deviceOptions.noConnect)
        } catch {
            throw BoopExit(.unavailable, "edit: -C \(OneLine.escape(captureDevice)): \(OneLine.escape("\(error)"))")
        }
    }
}

extension EditSession {
    /// On each wake: what was captured, the pitch heard now, the latency once, the notes.
    func tickVoice() {
        guard let voice else { return }
        let got = voice.buffer.take()
        if let failure = got.failure {
            model.message = "capture: \(OneLine.escape(failure)); singing is not heard"
            voice.close()
            self.voice = nil
            return
        }
        guard !got.samples.isEmpty, let transport else { return }
        if voice.take == nil { voice.take = VoiceTake(captureRate: voice.rate, engineRate: transport.sampleRate) }
        voice.take?.append(got.samples)
        if transport.state == .playing { voice.take?.guess(heardNow: transport.audibleFrame) }
        let now = monotonicSeconds()
        if now >= voice.nextPitch {
            voice.nextPitch = now + 0.1
            model.heardVoice = voice.take?.pitchNow(tracker: voice.tracker).map(EditSession.pitchText)
        }
        measureVoiceLatency(voice)
        guard model.recording.armed, transport.state == .playing, voice.clickAt == nil, now >= voice.nextLook else { return }
        voice.nextLook = now + EditVoice.lookEvery
        placeSung(voice.take?.takeNotes(with: Transcriber()) ?? [], transport)
    }

    /// "A4 +12c": the pitch heard, for the status line.
    static func pitchText(_ midi: Double) -> String {
        let key = Int(midi.rounded())
        let cents = Int(((midi - Double(key)) * 100).rounded())
        return "\(NoteName(midi: key))" + (cents == 0 ? "" : String(cFormat: " %+dc", cents))
    }

    /// Recording armed: takes the voice from now on; with a count-in, its first click measures
    /// the capture's latency (once).
    func startVoiceTake() {
        guard let voice, let transport else { return }
        voice.take?.startTake()
        if voice.take?.latency == nil {
            if let click = transport.countInClick { voice.clickAt = click } else { assumeVoiceLatency(voice) }
        }
    }

    private func measureVoiceLatency(_ voice: EditVoice) {
        guard let click = voice.clickAt, var take = voice.take else { return }
        let result = take.calibrate(clickAt: click, within: 1.0)
        voice.take = take
        switch result {
        case .waiting: return
        case .found(let seconds):
            // Against the output's own latency figure: the loopback adds what it left out.
            model.message = String(cFormat: "voice latency measured from the count-in's click (%+.0f ms)", seconds * 1000)
        case .missing: assumeVoiceLatency(voice)
        }
        voice.clickAt = nil
    }

    private func assumeVoiceLatency(_ voice: EditVoice) {
        let seconds = Double(EditVoice.bufferFrames) / voice.rate
        voice.take?.assume(latency: seconds)
        model.message = String(cFormat: "voice latency taken as %.0f ms (its capture buffer): no click came back", seconds * 1000)
    }

    /// Sung notes placed as played ones: the pitch on the scale lock (else the nearest semitone).
    private func placeSung(_ notes: [VoiceTake.SungNote], _ transport: PatternTransport) {
        guard !notes.isEmpty else { return }
        let before = model.audibleSong
        for note in notes {
            let rounded = Int(note.midi.rounded())
            let pitch = Limits.clamp(model.scale?.nearest(rounded) ?? rounded, to: Limits.midiNote)
            let on = PlayedNote(pitch: pitch, velocity: note.velocity, on: true, channel: EditVoice.channel, time: note.on)
            _ = model.record(on, at: transport.position(atFrame: note.on), frame: note.on)
            let off = PlayedNote(pitch: pitch, velocity: 0, on: false, channel: EditVoice.channel, time: note.off)
            _ = model.record(off, at: nil, frame: note.off)
        }
        if model.audibleSong != before { patternChanged() }
    }
}
