import DocumentCore
import DocumentUI
import Foundation

// Sketchbook: a small document-based app on DocumentCore and DocumentUI alone (see
// "Building a document-based app" in DocumentUI's documentation).
//
//   sketchbook [FOLDER]                    the browser on a folder of sketches
//   sketchbook FILE.sketch…                editors
//   sketchbook --thumbnail IN OUT SIZE     a PNG thumbnail (the .thumbnailer's Exec line)
//   sketchbook --preview IN OUT            a PNG preview (the .previewer's Exec line)
//   sketchbook --show FILE.sketch          the previewer on a sketch, as Space shows it

Localization.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())

/// Draws `input` into `output` for Dossier, in its sandbox: no display, no GTK.
func draw(_ input: String, into output: String, edge: Int) -> Int32 {
    do {
        try SketchFile.exportPNG(URL(fileURLWithPath: input), to: URL(fileURLWithPath: output), edge: edge)
        return 0
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        return 1
    }
}

switch arguments.first {
case "--thumbnail" where arguments.count == 4:
    exit(draw(arguments[1], into: arguments[2], edge: Int(arguments[3]) ?? 256))
case "--preview" where arguments.count == 3:
    exit(draw(arguments[1], into: arguments[2], edge: 1200))
case "--show" where arguments.count == 2:
    exit(SketchPreview(url: URL(fileURLWithPath: arguments[1])).run())
case let option? where option.hasPrefix("--"):
    FileHandle.standardError.write(Data((tr("Usage: sketchbook [FOLDER | FILE.sketch…]") + "\n").utf8))
    exit(2)
default:
    exit(SketchbookApplication(arguments: arguments).run())
}
