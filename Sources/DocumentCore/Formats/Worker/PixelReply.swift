import CImaging
import CSandbox
import DecoderWire
import Foundation

extension DecoderReply {
    /// A pixbuf's rows (8-bit RGB or RGBA) in a sealed memfd, with their layout and `values`.
    package static func pixels(_ pixbuf: OpaquePointer, values: [String: String]) -> (DecoderReply, Int32?) {
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, let pixels = gdk_pixbuf_read_pixels(pixbuf) else {
            return (Self(error: "the image has an unusual pixel format"), nil)
        }
        let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
        let fd = dossier_memfd_create("dossier-image", UInt64(length))
        guard fd >= 0 else { return (Self(error: "no memory for the image"), nil) }
        var written = 0
        while written < length {
            let count = pwrite(fd, pixels + written, length - written, off_t(written))
            guard count > 0 else {
                close(fd)
                return (Self(error: "no memory for the image"), nil)
            }
            written += count
        }
        guard dossier_memfd_seal(fd) == 0 else {
            close(fd)
            return (Self(error: "cannot seal the image"), nil)
        }
        var layout = values
        layout["width"] = String(gdk_pixbuf_get_width(pixbuf))
        layout["height"] = String(gdk_pixbuf_get_height(pixbuf))
        layout["stride"] = String(gdk_pixbuf_get_rowstride(pixbuf))
        layout["channels"] = String(gdk_pixbuf_get_n_channels(pixbuf))
        layout["alpha"] = gdk_pixbuf_get_has_alpha(pixbuf) != 0 ? "1" : "0"
        return (Self(values: layout), fd)
    }
}
