import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Pictures for the browser's cells, made to be drawn cheaply: at the size they are shown (a
/// grid of icons scaled down from Adwaita's 512-pixel PNGs on every frame cost more than all
/// the rest of a frame), and as cairo surfaces (`CairoSurface`), which GTK 4.8's cairo
/// renderer draws with a copy of what is on screen where a texture is converted whole on every
/// frame.
///
/// Only trusted files are decoded here, in process: the icon theme's PNGs and SVGs (system
/// files). Thumbnails come decoded from a worker (`ThumbnailPictures`).
enum CellPictures {
    /// `pixbuf` (its reference is taken) scaled down to fit `edge` pixels square if larger,
    /// as a picture. Safe on any thread.
    static func picture(taking pixbuf: OpaquePointer, fitting edge: Int) -> ObjectReference? {
        var source = pixbuf
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        if edge > 0, max(width, height) > edge {
            let factor = Double(edge) / Double(max(width, height))
            let scaledWidth = max(1, Int((Double(width) * factor).rounded()))
            let scaledHeight = max(1, Int((Double(height) * factor).rounded()))
            // HYPER filters every source pixel (a 512-pixel icon made 96 keeps its lines).
            if let scaled = gdk_pixbuf_scale_simple(pixbuf, Int32(scaledWidth), Int32(scaledHeight), GDK_INTERP_HYPER) {
                g_object_unref(raw(pixbuf))
                source = scaled
            }
        }
        defer { g_object_unref(raw(source)) }
        return surfacePicture(source)
    }

    /// The icon theme's PNG or SVG at `path` (a system file: never a thumbnail, never a
    /// user's file) as a picture fitting `edge` pixels square (SVGs are drawn at that size).
    /// Safe on any thread.
    static func picture(atPath path: String, fitting edge: Int) -> ObjectReference? {
        if path.hasSuffix(".svg"), edge > 0 {
            guard let pixbuf = gdk_pixbuf_new_from_file_at_size(path, Int32(edge), Int32(edge), nil) else { return nil }
            return picture(taking: pixbuf, fitting: edge)
        }
        guard let pixbuf = gdk_pixbuf_new_from_file(path, nil) else { return nil }
        return picture(taking: pixbuf, fitting: edge)
    }

    /// A worker's picture (cairo's ARGB32 rows, checked) as a picture of its own: copied, so
    /// that a kept picture holds no memfd. Safe on any thread.
    static func picture(of decoded: ThumbnailPicture) -> ObjectReference? {
        guard let surface = CairoSurface(width: Int32(decoded.width), height: Int32(decoded.height)) else { return nil }
        decoded.blob.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            surface.withPixels { buffer, outStride in
                for y in 0..<decoded.height {
                    memcpy(buffer + y * outStride, base + y * decoded.stride, decoded.width * 4)
                }
            }
        }
        return surface.paintable()
    }

    /// A picture of `pixbuf`'s pixels (8-bit RGB or RGBA), premultiplied into a cairo surface.
    private static func surfacePicture(_ pixbuf: OpaquePointer) -> ObjectReference? {
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard width > 0, height > 0, gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
              let pixels = gdk_pixbuf_read_pixels(pixbuf),
              let surface = CairoSurface(width: Int32(width), height: Int32(height)) else { return nil }
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0 && channels == 4
        surface.withPixels { buffer, outStride in
            for y in 0..<height {
                let row = pixels + y * stride
                let out = buffer + y * outStride
                for x in 0..<width {
                    let pixel = row + x * channels
                    let alpha = hasAlpha ? UInt32(pixel[3]) : 255
                    // Premultiplied, rounded: (c × a + 127) / 255.
                    let red = UInt8((UInt32(pixel[0]) * alpha + 127) / 255)
                    let green = UInt8((UInt32(pixel[1]) * alpha + 127) / 255)
                    let blue = UInt8((UInt32(pixel[2]) * alpha + 127) / 255)
                    #if _endian(little)
                    (out[x * 4], out[x * 4 + 1], out[x * 4 + 2], out[x * 4 + 3]) = (blue, green, red, UInt8(alpha))
                    #else
                    (out[x * 4], out[x * 4 + 1], out[x * 4 + 2], out[x * 4 + 3]) = (UInt8(alpha), red, green, blue)
                    #endif
                }
            }
        }
        return surface.paintable()
    }
}
