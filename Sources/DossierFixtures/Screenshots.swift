import Foundation

/// Where UI tests keep their screenshots: `$DOSSIER_SCREENSHOTS` (set by `make test-swift`, so
/// a build folder outside the tree works, as in `make test-distros`), else
/// `.build/test-screenshots` of the current folder.
public enum Screenshots {
    public static var folder: URL {
        if let folder = ProcessInfo.processInfo.environment["DOSSIER_SCREENSHOTS"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/test-screenshots")
    }
}
