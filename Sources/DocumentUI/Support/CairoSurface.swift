import CDisplay
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// A cairo image surface (ARGB32: premultiplied BGRA in memory on this machine), drawn on one
/// thread and then handed to another, which only shows it.
///
/// Shown through `paintable()`, it is drawn straight by cairo. GTK 4.8's cairo renderer draws
/// a texture by converting it, pixel by pixel, into a new surface on every frame that holds
/// it, on screen or not, so a long PDF's first frame and every scrolled frame of a grid of
/// thumbnails would pay for every page or cell they hold.
final class CairoSurface: @unchecked Sendable {
    let pointer: OpaquePointer
    let width: Int32
    let height: Int32

    /// A clear surface of `width` × `height` pixels, or nil when cairo cannot make it (too large).
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

    /// A surface over a page a decoder worker drew (`PDFPageDrawing`), straight on the worker's
    /// sealed memfd, mapped read-only and never copied: the surface keeps the blob. Only shown,
    /// never drawn on (`withPixels` is not for it). Nil when cairo cannot take the layout.
    init?(showing drawing: PDFPageDrawing) {
        guard let base = drawing.blob.baseAddress,
              let surface = cairo_image_surface_create_for_data(
                  UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                  Int32(drawing.width), Int32(drawing.height), Int32(drawing.stride)) else { return nil }
        let blob = Unmanaged.passRetained(drawing.blob).toOpaque()
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_surface_set_user_data(surface, blobKey, blob, { Unmanaged<SealedBlob>.fromOpaque($0!).release() })
                == CAIRO_STATUS_SUCCESS else {
            Unmanaged<SealedBlob>.fromOpaque(blob).release()
            cairo_surface_destroy(surface)
            return nil
        }
        pointer = surface
        width = Int32(drawing.width)
        height = Int32(drawing.height)
    }

    deinit { cairo_surface_destroy(pointer) }

    /// The surface's pixels, `stride` bytes a row, to fill before it is handed on.
    func withPixels<Result>(_ body: (_ pixels: UnsafeMutablePointer<UInt8>, _ stride: Int) -> Result) -> Result {
        cairo_surface_flush(pointer)
        defer { cairo_surface_mark_dirty(pointer) }
        return body(cairo_image_surface_get_data(pointer), Int(cairo_image_surface_get_stride(pointer)))
    }

    /// A paintable that draws the surface, `width` × `height` at its natural size, for a
    /// GtkPicture, a GtkImage or anything else that shows one. Safe on any thread.
    func paintable() -> ObjectReference {
        ObjectReference(taking: UnsafeMutableRawPointer(dossier_surface_paintable_new(pointer)!))
    }
}

/// A paintable of a font specimen's line a decoder worker drew (`FontSpecimen.Pixels`: coverage
/// in cairo's ARGB32), drawn in `color` straight from the worker's sealed memfd, mapped read-only
/// and never copied; the mapping stays while the paintable lives. Its intrinsic size is in
/// logical pixels (`pixels.scale` pixels to one), the line's box: ink above or below it is drawn
/// around it. `setColor(of:to:)` changes its colour. Nil when cairo cannot take the layout.
func paintable(showing pixels: FontSpecimen.Pixels, in color: GdkRGBA) -> ObjectReference? {
    // The bytes stay mapped as long as the blob lives: the surface holds the blob (user data).
    guard let base = pixels.blob.withUnsafeBytes({ $0.baseAddress }),
          let surface = cairo_image_surface_create_for_data(
              UnsafeMutableRawPointer(mutating: base + pixels.offset).assumingMemoryBound(to: UInt8.self),
              CAIRO_FORMAT_ARGB32, Int32(pixels.width), Int32(pixels.height), Int32(pixels.stride)) else { return nil }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
    let blob = Unmanaged.passRetained(pixels.blob).toOpaque()
    guard cairo_surface_set_user_data(surface, blobKey, blob, { Unmanaged<SealedBlob>.fromOpaque($0!).release() })
            == CAIRO_STATUS_SUCCESS else {
        Unmanaged<SealedBlob>.fromOpaque(blob).release()
        return nil
    }
    cairo_surface_set_device_scale(surface, Double(pixels.scale), Double(pixels.scale))
    var color = color
    let box = dossier_coverage_paintable_new_for_box(surface, 0, Int32(pixels.box.lowerBound / pixels.scale),
                                                     Int32(pixels.width / pixels.scale), Int32(pixels.box.count / pixels.scale),
                                                     &color)
    return ObjectReference(taking: UnsafeMutableRawPointer(box!))
}

/// Draws a paintable of `paintable(showing:in:)` in `color` from its next frame on, without a
/// new drawing of its line.
@MainActor
func setColor(of paintable: OpaquePointer, to color: GdkRGBA) {
    var color = color
    dossier_coverage_paintable_set_color(paintable, &color)
}

/// The key of the blob a surface over a worker's pixels holds.
nonisolated(unsafe) private let blobKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

/// A picture of `surface` at its natural size (it never shrinks below it).
@MainActor
func makePicture(showing surface: CairoSurface) -> WidgetPointer {
    let paintable = surface.paintable()
    // Held until the picture has taken its own reference: Swift may release a value right
    // after its last use, which here is reading its pointer.
    let picture = withExtendedLifetime(paintable) { gtk_picture_new_for_paintable(OpaquePointer(paintable.pointer))! }
    gtk_picture_set_can_shrink(cast(picture), 0)
    return picture
}

/// A paintable of `texture` whose pixels stay sharp when drawn larger than they are
/// (nearest-neighbour above 100 %, smoothed below). Made here, where CDisplay is imported
/// already: when ImageRenderer imported it as well, GTK's enum constants went missing in
/// other renderers of the module (CDisplay.h includes GTK's headers itself).
func sharpPaintable(of texture: OpaquePointer) -> ObjectReference {
    ObjectReference(taking: UnsafeMutableRawPointer(dossier_pixel_paintable_new(texture)!))
}

/// Makes a paintable of `sharpPaintable(of:)` as large as `width` × `height` to a picture
/// (0, 0: its texture's size).
func setIntrinsicSize(of sharpPaintable: ObjectReference, width: Int32, height: Int32) {
    dossier_pixel_paintable_set_intrinsic_size(OpaquePointer(sharpPaintable.pointer), width, height)
}
