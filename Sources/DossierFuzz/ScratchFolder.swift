import Foundation

/// Where the targets put what Dossier would read from a file: a folder of this process's own
/// under `$TMPDIR` (`make fuzz` points it into the build folder), reused for every input.
enum ScratchFolder {
    static let url: URL = {
        let parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((parent + "/dossier-fuzz-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
        guard let made else { fatalError("DossierFuzz: no scratch folder in \(parent): \(String(cString: strerror(errno)))") }
        return URL(fileURLWithPath: made, isDirectory: true)
    }()

    /// A folder inside the scratch folder, made if missing.
    static func folder(_ path: String) -> URL {
        let folder = url.appendingPathComponent(path, isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `data` as the file `path` inside the scratch folder, replacing what was there.
    @discardableResult
    static func write(_ data: Data, to path: String) -> URL {
        let file = url.appendingPathComponent(path, isDirectory: false)
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written in place, without the temporary file and fsync of an atomic write: an input
        // is a few KiB, rewritten thousands of times a second.
        do {
            try data.write(to: file)
        } catch {
            fatalError("DossierFuzz: \(file.path) could not be written: \(error)")
        }
        return file
    }
}
