import CImaging
import DossierFixtures
import Foundation

/// Files for the download tests, made here and of any size: a PDF and a JPEG that stay valid
/// however large (padding the renderers skip), so a throttled download takes long enough for
/// its progress to be seen.
enum RemoteTestFiles {
    /// A one-page PDF ("Remote PDF") carrying `padding` bytes in an object nothing refers to.
    static func pdf(padding: Int) -> [UInt8] {
        let filler = String(repeating: "0123456789abcdef\n", count: max(1, padding / 17))
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length 45 >>\nstream\nBT /F1 12 Tf 20 100 Td (Remote PDF) Tj ET\nendstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Length \(filler.utf8.count) >>\nstream\n\(filler)\nendstream",
        ]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            text += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n"
        }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(text.utf8)
    }

    /// A 320×240 JPEG (a gradient, drawn by GdkPixbuf) with `padding` bytes of comment
    /// segments after its start marker.
    static func jpeg(padding: Int) -> [UInt8] {
        let width = 320, height = 240
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for y in 0..<height {
            for x in 0..<width {
                pixels[y * stride + x * 3] = UInt8(x * 255 / width)
                pixels[y * stride + x * 3 + 1] = UInt8(y * 255 / height)
                pixels[y * stride + x * 3 + 2] = 160
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var keys: [UnsafeMutablePointer<CChar>?] = [nil]
        var values: [UnsafeMutablePointer<CChar>?] = [nil]
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, "jpeg", &keys, &values, nil) != 0, let buffer else { return [] }
        defer { g_free(buffer) }
        let base = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: Int(length)))
        var comments: [UInt8] = []
        var left = padding
        while left > 0 {
            let count = min(left, 65_000)
            let length = count + 2
            comments += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + [UInt8](repeating: 0x20, count: count)
            left -= count
        }
        return Array(base.prefix(2)) + comments + Array(base.dropFirst(2))
    }
}
