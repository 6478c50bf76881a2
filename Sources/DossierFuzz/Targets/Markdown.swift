import DecoderService
import DocumentCore
import DocumentUI
import Foundation

extension FuzzTarget {
    /// The Markdown previewer's reading of a file: cmark-gfm's parse as the decoder worker makes
    /// it (here, in this process), the tree's bytes over the wire and their check, the blocks and
    /// markup, the local images it decodes, and the HTML it prints from. Beside the input lie a
    /// picture and a named pipe (`picture.png`, `pipe.png`) for it to show.
    static let markdown = FuzzTarget("markdown", "Markdown files (cmark-gfm's tree, MarkdownDocument, .html)", prepare: {
        let folder = ScratchFolder.folder("markdown")
        ScratchFolder.write(Data(base64Encoded: onePixelPNG)!, to: "markdown/picture.png")
        mkfifo(folder.appendingPathComponent("pipe.png").path, 0o600)
    }, run: { data in
        let file = ScratchFolder.write(data, to: "markdown/input.md")
        let text = String(decoding: data.prefix(MarkdownWorkers.textLimit), as: UTF8.self)
        guard let tree = try? MarkdownParser.parse(Array(text.utf8)) else { return }
        // What a worker sends, the previewer's process must take.
        let received = tree.encoded().withUnsafeBytes { MarkdownNode(decoding: $0) }!
        precondition(received.isWellFormed, "a worker's tree that the previewer refuses")
        let document = MarkdownDocument(source: text, tree: received, base: file.deletingLastPathComponent(), withPictures: true)
        _ = document.html(title: "input.md")
    })
}

/// DossierFixtures' 1×1 PNG (`SampleFiles.png`), in base64.
private let onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="
