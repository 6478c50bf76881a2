import CGLib
import CImaging
import DocumentCore
import Foundation
import GObjectSupport

/// The first page of a PDF on white, for a thumbnail; in a thumbnail worker (`ThumbnailWorkers`),
/// through the same poppler document as the previewer's pages (`PopplerDocument`).
enum PDFThumbnailer {
    static func thumbnail(of source: inout ThumbnailSource, input: Int32, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let document: PopplerDocument
        do { document = try PopplerDocument(input: input) } catch {
            throw .decodingFailed(name: source.name, reason: error.description)
        }
        guard document.pageCount > 0, let (pageWidth, pageHeight) = document.size(ofPage: 0) else {
            throw .decodingFailed(name: source.name, reason: tr("the PDF has no pages"))
        }
        source.dimensions = (Int(pageWidth.rounded()), Int(pageHeight.rounded()))
        let scale = Double(edge) / max(pageWidth, pageHeight)
        let width = max(1, Int((pageWidth * scale).rounded()))
        let height = max(1, Int((pageHeight * scale).rounded()))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .decodingFailed(name: source.name, reason: tr("out of memory"))
        }
        defer { cairo_surface_destroy(surface) }
        let drawn = document.withPage(0) { page -> Bool in
            guard let page else { return false }
            let context = cairo_create(surface)
            cairo_set_source_rgb(context, 1, 1, 1)
            cairo_paint(context)
            cairo_scale(context, scale, scale)
            PopplerDocument.draw(page, on: context!, forPrinting: false)
            cairo_destroy(context)
            return true
        }
        guard drawn, let image = Pixbuf.from(surface: surface) else {
            throw .decodingFailed(name: source.name, reason: tr("the page could not be drawn"))
        }
        return image
    }
}
