import CGtk
import DocumentCore
import Foundation
import GtkSupport

extension ImageRenderer: PrintableRenderer {
    /// The long side an image is decoded at for printing: a full page at 300 dpi.
    nonisolated static let printEdge: Int32 = 4096

    static func printablePages(for item: PreviewItem, type: DocumentType) async throws -> any PrintablePages {
        let pixels: ImagePixels
        switch await ImageDecoding.decode(item.url.rawPath, type: type, size: .fitting(printEdge), still: true) {
        case .failure(let error): throw PreviewError(error.description)
        case .success(.animation(let frames)): pixels = frames.frames[0]  // not asked for, but the first frame it is
        case .success(.still(let image)): pixels = image.pixels
        }
        // Converted off the main thread: a page's worth of pixels.
        guard let surface = await Task.detached(operation: { ImagePage.surface(of: pixels) }).value else {
            throw PreviewError(ImageDecodingError.malformedResult.description)
        }
        return ImagePage(surface)
    }
}

/// An image on one page, fitted inside the printer's margins (its proportions kept) and
/// centred.
@MainActor
final class ImagePage: PrintablePages {
    private let surface: CairoSurface
    let pageCount: Int? = 1
    let usesFullPage = false

    init(_ surface: CairoSurface) { self.surface = surface }

    /// The pixels in a cairo surface (through a texture's download, which gives cairo's
    /// premultiplied format); safe on any thread.
    nonisolated static func surface(of pixels: ImagePixels) -> CairoSurface? {
        guard let texture = makeTexture(of: pixels) else { return nil }
        defer { g_object_unref(raw(texture)) }
        guard let surface = CairoSurface(width: gdk_texture_get_width(texture), height: gdk_texture_get_height(texture)) else { return nil }
        surface.withPixels { pixels, stride in gdk_texture_download(texture, pixels, gsize(stride)) }
        return surface
    }

    func draw(page index: Int, on context: OpaquePointer) {
        let width = gtk_print_context_get_width(context), height = gtk_print_context_get_height(context)
        let imageWidth = Double(surface.width), imageHeight = Double(surface.height)
        let scale = min(width / imageWidth, height / imageHeight)
        let cr = gtk_print_context_get_cairo_context(context)
        cairo_translate(cr, (width - imageWidth * scale) / 2, (height - imageHeight * scale) / 2)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, surface.pointer, 0, 0)
        cairo_paint(cr)
    }
}
