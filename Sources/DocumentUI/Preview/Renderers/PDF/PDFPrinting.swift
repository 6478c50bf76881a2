import CGtk
import DocumentCore
import Foundation

extension PDFRenderer: PrintableRenderer {
    static func printablePages(for item: PreviewItem, type: DocumentType) async throws -> any PrintablePages {
        try await PDFPages(item.url)
    }
}

/// A PDF's own pages for the printer: each drawn by the PDF worker for printing (poppler's
/// printing mode: the annotations a printout shows) as a picture of 300 dots an inch (a
/// printer's usual resolution, and the most a page is drawn at; a PDF file, to which GTK
/// gives 72, gets it too, as it may be printed later), on the whole sheet, centred, and shrunk only when
/// it is larger than the paper; a landscape page on the paper turned. Pictures, not vectors:
/// poppler runs only in the worker, and what comes back from it is pixels (a printout's text is
/// not text any more).
@MainActor
final class PDFPages: PrintablePages {
    private let document: PDFDocument
    let pageCount: Int?
    let usesFullPage = true

    /// The resolution a page is drawn at for a printer, in dots an inch.
    static let resolution = 300.0

    /// Opens the document at `url` in the PDF worker, off the main thread.
    init(_ url: URL) async throws(PreviewError) {
        let path = url.rawPath
        let opened = await blockingWork { Result { () throws(PDFError) -> PDFDocument in try PDFDocument.open(path) } }
        switch opened {
        case .success(let document): self.document = document
        case .failure(let error): throw PreviewError(error.description)
        }
        pageCount = document.pageSizes.count
    }

    func isLandscape(page index: Int) -> Bool {
        guard document.pageSizes.indices.contains(index) else { return false }
        let size = document.pageSizes[index]
        return size.width > size.height
    }

    /// Nothing is drawn at once: every page comes from the worker (`drawLater`).
    func draw(page index: Int, on context: OpaquePointer) {}

    /// Asks the worker for page `index` at the printer's resolution on one of Dispatch's
    /// threads, then has it drawn on the printer's page on the main thread (`finish`). The main
    /// thread is not held meanwhile.
    func drawLater(page index: Int, on context: OpaquePointer, finish: @escaping PageFinish) -> Bool {
        guard document.pageSizes.indices.contains(index) else { return false }
        let (width, height) = document.pageSizes[index]
        let paperWidth = gtk_print_context_get_width(context), paperHeight = gtk_print_context_get_height(context)
        let scale = min(paperWidth / width, paperHeight / height, 1)
        // Points on the paper to pixels, kept within what a worker draws.
        var pixels = width * scale * Self.resolution / 72
        let most = sqrt(Double(PDFPageCoding.pixelLimit) * width / height)
        pixels = min(pixels, most, Double(PDFPageCoding.sideLimit), Double(PDFPageCoding.sideLimit) * width / height)
        let pixelWidth = max(1, Int(pixels.rounded(.down)))
        let page = PrintedPage(context: context)
        let document = document
        DispatchQueue.global(qos: .userInitiated).async {
            page.drawing = try? document.draw(page: index, width: pixelWidth, text: false, forPrinting: true)
            finish {
                guard let drawing = page.drawing, let surface = CairoSurface(showing: drawing) else { return }
                let cr = gtk_print_context_get_cairo_context(page.context)
                cairo_translate(cr, (paperWidth - width * scale) / 2, (paperHeight - height * scale) / 2)
                cairo_scale(cr, width * scale / Double(drawing.width), width * scale / Double(drawing.width))
                cairo_set_source_surface(cr, surface.pointer, 0, 0)
                cairo_paint(cr)
            }
        }
        return true
    }
}

/// A page on its way to the printer: the print context GTK keeps open for it, and the worker's
/// picture (written on the thread that waits for the worker, read on the main thread after).
private final class PrintedPage: @unchecked Sendable {
    let context: OpaquePointer
    var drawing: PDFPageDrawing?

    init(context: OpaquePointer) { self.context = context }
}
