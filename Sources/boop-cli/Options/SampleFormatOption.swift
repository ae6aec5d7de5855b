import ArgumentParser
import PixelBoopCore

/// `--sample-format`, shared by the commands that write an audio file (`render`, `ambient -o`):
/// f32 or s16, by default the file type's own (float for WAV, 16-bit for FLAC and Ogg, which
/// carry no float).
struct SampleFormatOption: ParsableArguments {
    @Option(name: .long, help: "Sample format of the file: f32 or s16 (default f32 for .wav, s16 for .flac and .ogg).")
    var sampleFormat: String?

    mutating func validate() throws {
        if let sampleFormat, SampleFormat(rawValue: sampleFormat) == nil {
            throw ValidationError("--sample-format \(OneLine.escape(sampleFormat)): expected f32 or s16")
        }
    }

    /// The format asked for, or the one natural to `path`'s type.
    func format(forPath path: String) -> SampleFormat {
        sampleFormat.flatMap(SampleFormat.init(rawValue:)) ?? SampleFormat.natural(forPath: path)
    }
}
