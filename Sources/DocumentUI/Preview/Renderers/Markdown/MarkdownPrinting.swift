import DocumentCore
import Foundation

extension MarkdownRenderer: PrintableRenderer {
    /// Printed as the previewer formats it, not as its source: the document's blocks written
    /// as plain HTML (`MarkdownDocument.html`), laid out on paper by WebKit.
    static func printablePages(for item: PreviewItem, type: DocumentType) async throws -> any PrintablePages {
        let url = item.url
        let title = item.displayTitle
        let html = try await blockingWork { () -> Result<String, PreviewError> in
            Result { () throws(PreviewError) -> String in try MarkdownDocument.load(url, withPictures: false).html(title: title) }
        }.get()
        return try await WebPagePDF.pages(of: html, base: url)
    }
}
