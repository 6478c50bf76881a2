import CGLib
import CImaging
import Foundation
import GObjectSupport

/// A decoded image (a GdkPixbuf) on its way into the cache. Not shared between threads.
package final class Pixbuf {
    package let pointer: OpaquePointer

    /// Adopts a pixbuf reference the caller owns.
    package init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { unref(pointer) }

    package var width: Int { Int(gdk_pixbuf_get_width(pointer)) }
    package var height: Int { Int(gdk_pixbuf_get_height(pointer)) }

    /// RGB rows from libjpeg (3 bytes a pixel, no padding), handed over to the pixbuf, which
    /// frees them with g_free.
    package static func adoptingRGB(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int) -> Pixbuf? {
        guard let pixbuf = gdk_pixbuf_new_from_data(
            pixels, GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height), Int32(width * 3),
            { pixels, _ in g_free(pixels) }, nil)
        else { return nil }
        return Pixbuf(adopting: pixbuf)
    }

    /// Scaled down to fit in `edge` × `edge`, keeping the aspect ratio; never scaled up
    /// (the Thumbnail Managing Standard: a small image is its own thumbnail).
    package func fitting(_ edge: Int) -> Pixbuf {
        let largest = max(width, height)
        guard largest > edge else { return self }
        let factor = Double(edge) / Double(largest)
        let newWidth = max(1, Int((Double(width) * factor).rounded()))
        let newHeight = max(1, Int((Double(height) * factor).rounded()))
        guard let scaled = gdk_pixbuf_scale_simple(pointer, Int32(newWidth), Int32(newHeight), GDK_INTERP_BILINEAR) else {
            return self
        }
        return Pixbuf(adopting: scaled)
    }

    /// Turned upright according to an EXIF orientation (1…8).
    package func oriented(_ orientation: Int) -> Pixbuf {
        guard (2...8).contains(orientation) else { return self }
        // GdkPixbuf knows all eight cases through its "orientation" option.
        guard let copy = gdk_pixbuf_copy(pointer) else { return self }
        let owned = Pixbuf(adopting: copy)
        gdk_pixbuf_set_option(owned.pointer, "orientation", String(orientation))
        guard let upright = gdk_pixbuf_apply_embedded_orientation(owned.pointer) else { return self }
        return Pixbuf(adopting: upright)
    }

    /// Writes a PNG with `text` as tEXt chunks, to a temporary name in the same folder, then
    /// renames it into place, mode 0600.
    func savePNG(to url: URL, text: [(String, String)]) throws(ThumbnailError) {
        let folder = url.deletingLastPathComponent().path
        // A short name of its own: the final name may already be as long as a name can be.
        let temporary = folder + "/.dossier-thumbnail-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        // zlib level 2: a thumbnail a little larger on disk, encoded several times faster than
        // at the default level (which costs as much as decoding the JPEG at 1/8 scale).
        let keys = text.map { strdup("tEXt::" + $0.0) } + [strdup("compression"), nil]
        let values = text.map { strdup($0.1) } + [strdup("2"), nil]
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        var mutableKeys = keys
        var mutableValues = values
        let saved = mutableKeys.withUnsafeMutableBufferPointer { keyBuffer in
            mutableValues.withUnsafeMutableBufferPointer { valueBuffer in
                try? withGError { error in
                    dossier_pixbuf_save_png(pointer, temporary, keyBuffer.baseAddress, valueBuffer.baseAddress, error)
                }
            }
        }
        guard saved == 1 else {
            unlink(temporary)
            throw .unreadable(name: url.lastPathComponent, reason: tr("the thumbnail could not be written"))
        }
        chmod(temporary, 0o600)
        guard rename(temporary, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unreadable(name: url.lastPathComponent, reason: reason)
        }
    }

    /// Converts a cairo ARGB32 surface (premultiplied, native endian) into an RGBA pixbuf.
    package static func from(surface: OpaquePointer) -> Pixbuf? {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard width > 0, height > 0, let source = cairo_image_surface_get_data(surface),
              let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, Int32(width), Int32(height))
        else { return nil }
        let result = Pixbuf(adopting: pixbuf)
        let target = gdk_pixbuf_get_pixels(pixbuf)!
        let targetStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for y in 0..<height {
            let row = UnsafeRawPointer(source + y * stride).assumingMemoryBound(to: UInt32.self)
            let out = target + y * targetStride
            for x in 0..<width {
                let argb = row[x]
                let alpha = UInt32(argb >> 24)
                var red = (argb >> 16) & 0xff, green = (argb >> 8) & 0xff, blue = argb & 0xff
                if alpha > 0 && alpha < 255 {
                    red = red * 255 / alpha
                    green = green * 255 / alpha
                    blue = blue * 255 / alpha
                }
                out[x * 4] = UInt8(min(red, 255))
                out[x * 4 + 1] = UInt8(min(green, 255))
                out[x * 4 + 2] = UInt8(min(blue, 255))
                out[x * 4 + 3] = UInt8(alpha)
            }
        }
        return result
    }
}
