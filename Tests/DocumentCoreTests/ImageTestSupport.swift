import CGLib
import CImaging
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

/// A pixbuf a test holds: one reference, dropped with the wrapper.
final class TestPixbuf {
    private let reference: ObjectReference

    /// The pixbuf, for GdkPixbuf's functions; valid while the wrapper lives.
    var pointer: OpaquePointer { OpaquePointer(reference.pointer) }

    /// Takes the reference a GdkPixbuf function returned ("transfer full").
    init(taking pointer: OpaquePointer) {
        reference = ObjectReference(adopting: UnsafeMutableRawPointer(pointer))
    }

    /// Adds a reference to a pixbuf something else owns ("transfer none").
    init(retaining pointer: OpaquePointer) {
        reference = ObjectReference(retaining: UnsafeMutableRawPointer(pointer))
    }
}

/// Images drawn by the tests: a pixbuf from a function of (x, y), saved as JPEG or PNG, and
/// read back for comparison.
enum TestImage {
    /// An RGB pixbuf `width` × `height` whose pixels `color(x, y)` gives.
    static func draw(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> TestPixbuf {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                pixels[y * stride + x * 3] = r
                pixels[y * stride + x * 3 + 1] = g
                pixels[y * stride + x * 3 + 2] = b
            }
        }
        return TestPixbuf(taking: pixbuf)
    }

    /// A smooth, asymmetric picture: red grows to the right, green downwards.
    static func gradient(width: Int, height: Int) -> TestPixbuf {
        draw(width: width, height: height) { x, y in
            (UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), 96)
        }
    }

    static func encode(_ pixbuf: TestPixbuf, as format: String) -> [UInt8] {
        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var keys: [UnsafeMutablePointer<CChar>?] = [nil]
        var values: [UnsafeMutablePointer<CChar>?] = [nil]
        guard gdk_pixbuf_save_to_bufferv(pixbuf.pointer, &buffer, &length, format, &keys, &values, nil) != 0 else { return [] }
        defer { g_free(buffer) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(buffer!).assumingMemoryBound(to: UInt8.self), count: Int(length)))
    }

    static func load(_ url: URL) throws -> TestPixbuf {
        TestPixbuf(taking: try XCTUnwrap(try withGError { gdk_pixbuf_new_from_file(url.path, $0) }))
    }

    static func size(_ pixbuf: TestPixbuf) -> (Int, Int) {
        (Int(gdk_pixbuf_get_width(pixbuf.pointer)), Int(gdk_pixbuf_get_height(pixbuf.pointer)))
    }

    /// The colour at (x, y), as RGB.
    static func pixel(_ pixbuf: TestPixbuf, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let pixels = gdk_pixbuf_get_pixels(pixbuf.pointer)!
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf.pointer))
        let offset = y * Int(gdk_pixbuf_get_rowstride(pixbuf.pointer)) + x * channels
        return (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
    }

    /// Mean absolute difference per channel between two pictures of the same size.
    static func difference(_ a: TestPixbuf, _ b: TestPixbuf) -> Double {
        let (width, height) = size(a)
        var total = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(a, x, y), q = pixel(b, x, y)
                total += abs(p.0 - q.0) + abs(p.1 - q.1) + abs(p.2 - q.2)
            }
        }
        return Double(total) / Double(width * height * 3)
    }

    /// The tEXt keys of a PNG, read by GdkPixbuf (an independent reader).
    static func textKeys(_ pixbuf: TestPixbuf, _ keys: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for key in keys {
            if let value = borrowString(gdk_pixbuf_get_option(pixbuf.pointer, "tEXt::" + key)) { result[key] = value }
        }
        return result
    }
}
