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

    /// Takes a screenshot of the whole X screen into `folder` as `name`.png (ImageMagick's
    /// `import`, through `OtherProgram.output(of:)`) and returns where. What is on screen is
    /// the caller's to have waited for (a drawn frame, a node in the accessibility tree).
    @discardableResult
    public static func take(_ name: String) -> URL {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name + ".png")
        OtherProgram.output(of: ["/usr/bin/import", "-window", "root", file.path])
        return file
    }
}
