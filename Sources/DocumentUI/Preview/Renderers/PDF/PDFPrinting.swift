import CGtk
import CPoppler
import DocumentCore
import Foundation

extension PDFRenderer: PrintableRenderer {
    static func printablePages(for item: PreviewItem, type: DocumentType) async throws -> any PrintablePages {
        try await PDFPages(item.url)
    }
}

/// A PDF's own pages for the printer: each drawn by poppler for printing (at the printer's
/// resolution, as vectors) on the whole sheet, centred, and shrunk only when it is larger
/// than the paper; a landscape page on the paper turned. The document is opened for printing alone: the previewer draws its own
/// copy on other threads, and poppler draws a document on one thread at a time.
@MainActor
final class PDFPages: PrintablePages {
    private let document: PopplerDocumentReference
    let pageCount: Int?
    let usesFullPage = true

    /// Opens the document at `url`, off the main thread.
    init(_ url: URL) async throws(PreviewError) {
        document = try await PDFRenderer.openDocument(url).get()
        let count = Int(dossier_pdf_page_count(document.pointer))
        guard count > 0 else { throw PreviewError(tr("The document has no pages.")) }
        pageCount = count
    }

    func isLandscape(page index: Int) -> Bool {
        guard let page = dossier_pdf_get_page(document.pointer, Int32(index)) else { return false }
        defer { g_object_unref(raw(page)) }
        var width = 0.0, height = 0.0
        dossier_pdf_page_size(page, &width, &height)
        return width > height
    }

    func draw(page index: Int, on context: OpaquePointer) {
        guard let page = dossier_pdf_get_page(document.pointer, Int32(index)) else { return }
        defer { g_object_unref(raw(page)) }
        var width = 0.0, height = 0.0
        dossier_pdf_page_size(page, &width, &height)
        guard width > 0, height > 0 else { return }
        let paperWidth = gtk_print_context_get_width(context), paperHeight = gtk_print_context_get_height(context)
        let scale = min(paperWidth / width, paperHeight / height, 1)
        let cr = gtk_print_context_get_cairo_context(context)
        cairo_translate(cr, (paperWidth - width * scale) / 2, (paperHeight - height * scale) / 2)
        cairo_scale(cr, scale, scale)
        dossier_pdf_page_render_for_printing(page, cr)
    }
}
