import Foundation

/// A new empty folder for one test's files, under the system's temporary folder, named for the
/// test (`prefix`), the process and a fresh UUID, so parallel tests and runs never share one.
func scratchFolder(_ prefix: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UUID())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
