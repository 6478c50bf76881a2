import DocumentUI
import Foundation

extension FuzzTarget {
    /// The Markdown previewer's reading of a file: blocks, inlines, link references, the local
    /// images it decodes, and the HTML it prints from.
    static let markdown = FuzzTarget("markdown", "Markdown files (MarkdownDocument.load, .html)") { data in
        let file = ScratchFolder.write(data, to: "markdown/input.md")
        guard let document = try? MarkdownDocument.load(file) else { return }
        _ = document.html(title: "input.md")
    }
}
