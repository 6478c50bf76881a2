import DocumentCore
import Foundation

/// A sketch read from a path outside a `Document`: for the thumbnailer, the previewer and
/// Export as PNG, which read a file once and draw it.
enum SketchFile {
    /// Reads the sketch at `url`, refusing files larger than `Sketch.largestFile`.
    static func read(_ url: URL) throws(SketchError) -> Sketch {
        let name = url.lastPathComponent
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .damaged(name: name, reason: tr("it cannot be read"))
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: Sketch.largestFile + 1) ?? Data()
        } catch {
            throw .damaged(name: name, reason: error.localizedDescription)
        }
        return try Sketch(reading: data, name: name)
    }

    /// Draws the sketch at `url` into a PNG at `picture`, `edge` pixels on its long side.
    static func exportPNG(_ url: URL, to picture: URL, edge: Int) throws(SketchError) {
        try SketchDrawing.writePNG(read(url), edge: edge, to: picture.path, name: url.lastPathComponent)
    }
}
