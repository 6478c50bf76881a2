import DocumentUI
import Foundation

extension FuzzTarget {
    /// The Markdown previewer's reading of a file: blocks, inlines, link references, the local
    /// images it decodes, and the HTML it prints from. Beside the input lie a picture and a
    /// named pipe (`picture.png`, `pipe.png`) for it to show.
    static let markdown = FuzzTarget("markdown", "Markdown files (MarkdownDocument.load, .html)", prepare: {
        let folder = ScratchFolder.folder("markdown")
        ScratchFolder.write(Data(base64Encoded: onePixelPNG)!, to: "markdown/picture.png")
        mkfifo(folder.appendingPathComponent("pipe.png").path, 0o600)
    }, run: { data in
        let file = ScratchFolder.write(data, to: "markdown/input.md")
        guard let document = try? MarkdownDocument.load(file) else { return }
        _ = document.html(title: "input.md")
    })
}

/// DossierFixtures' 1×1 PNG (`SampleFiles.png`), in base64.
private let onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="
