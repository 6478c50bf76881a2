import CGLib
import CImaging
import CPoppler
import Foundation
import GObjectSupport

/// The first page of a PDF, rendered by poppler on white, in process (poppler-glib is opened
/// the first time: CPoppler).
enum PDFThumbnailer {
    static func thumbnail(of source: inout ThumbnailSource, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let document: OpaquePointer?
        do {
            document = try withGError { dossier_pdf_open(source.uri, $0) }
        } catch {
            throw .decodingFailed(name: source.name, reason: "\(error)")
        }
        guard let document else { throw .decodingFailed(name: source.name, reason: tr("the PDF could not be opened")) }
        defer { unref(document) }
        guard dossier_pdf_page_count(document) > 0, let page = dossier_pdf_get_page(document, 0) else {
            throw .decodingFailed(name: source.name, reason: tr("the PDF has no pages"))
        }
        defer { unref(page) }
        var pageWidth = 0.0, pageHeight = 0.0
        dossier_pdf_page_size(page, &pageWidth, &pageHeight)
        guard pageWidth > 0, pageHeight > 0 else { throw .decodingFailed(name: source.name, reason: tr("the page is empty")) }
        source.dimensions = (Int(pageWidth.rounded()), Int(pageHeight.rounded()))
        let scale = Double(edge) / max(pageWidth, pageHeight)
        let width = max(1, Int((pageWidth * scale).rounded()))
        let height = max(1, Int((pageHeight * scale).rounded()))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .decodingFailed(name: source.name, reason: tr("out of memory"))
        }
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, scale, scale)
        dossier_pdf_page_render(page, context)
        cairo_destroy(context)
        guard let image = Pixbuf.from(surface: surface) else {
            throw .decodingFailed(name: source.name, reason: tr("the page could not be drawn"))
        }
        return image
    }
}
