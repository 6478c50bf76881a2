import CGtk
import Foundation
import GObjectSupport

/// A picture drawn straight from a cairo image surface it keeps.
///
/// GTK 4.8's cairo renderer draws a texture by converting it, pixel by pixel, into a new
/// cairo surface on every frame, whether or not it is on screen. A drawing area that paints a
/// surface it keeps costs cairo one copy of the part on screen, and nothing for the parts that
/// are not (a 50-page PDF's first frame took 10–46 ms with its pages as textures).
@MainActor
final class SurfacePicture {
    let view: Widget

    /// A picture the size of `surface`, in pixels.
    init(_ surface: CairoSurface) {
        view = gtk_drawing_area_new()
        gtk_drawing_area_set_content_width(cast(view), surface.width)
        gtk_drawing_area_set_content_height(cast(view), surface.height)
        let box = Unmanaged.passRetained(surface).toOpaque()
        gtk_drawing_area_set_draw_func(cast(view), { _, context, _, _, data in
            let surface = Unmanaged<CairoSurface>.fromOpaque(data!).takeUnretainedValue()
            cairo_set_source_surface(context, surface.pointer, 0, 0)
            cairo_paint(context)
        }, box, { data in Unmanaged<CairoSurface>.fromOpaque(data!).release() })
    }
}

/// A cairo image surface, drawn on one thread and then handed to another: nothing draws on it
/// once it is handed over.
final class CairoSurface: @unchecked Sendable {
    let pointer: OpaquePointer
    let width: Int32
    let height: Int32

    /// An ARGB32 surface of `width` × `height` pixels, or nil when cairo cannot make it (too large).
    init?(width: Int32, height: Int32) {
        guard width > 0, height > 0, let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        pointer = surface
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(pointer) }
}
