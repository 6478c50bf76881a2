import CGtk
import Foundation
import GObjectSupport

/// Textures made to be drawn cheaply by GTK 4.8's cairo renderer, which on every frame copies
/// each texture it draws into a new cairo surface, converting its pixels, and filters it to
/// the size it is drawn at. A texture at the size it is shown is drawn without filtering; in
/// 32-bit BGRA with straight alpha its conversion is GTK's quickest (a premultiply: GTK 4.8
/// has no plain copy even for cairo's own premultiplied format, which it converts through
/// floats). A grid of icons scaled down from Adwaita's 512-pixel PNGs cost more than all the
/// rest of a frame.
enum CellTextures {
    /// Cairo's ARGB32 byte order on this machine, with straight alpha.
    private static let format: GdkMemoryFormat = {
        #if _endian(little)
        GDK_MEMORY_B8G8R8A8
        #else
        GDK_MEMORY_A8R8G8B8
        #endif
    }()

    /// `pixbuf` (its reference is taken) scaled down to fit `edge` pixels square if larger,
    /// in cairo's byte order. Safe on any thread.
    static func texture(taking pixbuf: OpaquePointer, fitting edge: Int) -> ObjectReference? {
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
        return memoryTexture(source)
    }

    /// The PNG, JPEG… at `path` as a texture fitting `edge` pixels square (SVGs are drawn at
    /// that size). Safe on any thread.
    static func texture(atPath path: String, fitting edge: Int) -> ObjectReference? {
        if path.hasSuffix(".svg"), edge > 0 {
            guard let pixbuf = gdk_pixbuf_new_from_file_at_size(path, Int32(edge), Int32(edge), nil) else { return nil }
            return texture(taking: pixbuf, fitting: edge)
        }
        guard let pixbuf = gdk_pixbuf_new_from_file(path, nil) else { return nil }
        return texture(taking: pixbuf, fitting: edge)
    }

    /// Encoded image data (PNG…) as a texture fitting `edge` pixels square. Safe on any thread.
    static func texture(from data: Data, fitting edge: Int) -> ObjectReference? {
        let stream = data.withUnsafeBytes { bytes -> OpaquePointer? in
            let copy = g_bytes_new(bytes.baseAddress, gsize(bytes.count))
            defer { g_bytes_unref(copy) }
            return g_memory_input_stream_new_from_bytes(copy).map(OpaquePointer.init)
        }
        guard let stream else { return nil }
        defer { g_object_unref(raw(stream)) }
        guard let pixbuf = gdk_pixbuf_new_from_stream(cast(stream), nil, nil) else { return nil }
        return texture(taking: pixbuf, fitting: edge)
    }

    /// A memory texture of `pixbuf`'s pixels (8-bit RGB or RGBA) in `format`.
    private static func memoryTexture(_ pixbuf: OpaquePointer) -> ObjectReference? {
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard width > 0, height > 0, gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
              let pixels = gdk_pixbuf_read_pixels(pixbuf) else { return nil }
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0 && channels == 4
        let outStride = width * 4
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: outStride * height)
        for y in 0..<height {
            let row = pixels + y * stride
            let out = buffer + y * outStride
            for x in 0..<width {
                let pixel = row + x * channels
                let (red, green, blue, alpha) = (pixel[0], pixel[1], pixel[2], hasAlpha ? pixel[3] : 255)
                #if _endian(little)
                (out[x * 4], out[x * 4 + 1], out[x * 4 + 2], out[x * 4 + 3]) = (blue, green, red, alpha)
                #else
                (out[x * 4], out[x * 4 + 1], out[x * 4 + 2], out[x * 4 + 3]) = (alpha, red, green, blue)
                #endif
            }
        }
        let bytes = g_bytes_new_with_free_func(buffer, gsize(outStride * height), { $0?.deallocate() }, buffer)
        defer { g_bytes_unref(bytes) }
        guard let texture = gdk_memory_texture_new(Int32(width), Int32(height), format, bytes, gsize(outStride)) else {
            return nil
        }
        return ObjectReference(taking: UnsafeMutableRawPointer(texture))
    }
}
