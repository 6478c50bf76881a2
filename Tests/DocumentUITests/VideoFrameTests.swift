import CDisplay
import CGtk
import XCTest

/// From GTK 4.20 a video's frame can come in memory as 4:2:0 Y'CbCr, which GTK's cairo renderer
/// converts at every drawing, too slowly for a full-size frame; the previewer converts it
/// itself, once a frame, at the size it is drawn. Below GTK 4.20 there is nothing to convert.
final class VideoFrameTests: XCTestCase {
    /// A 64 × 48 frame of one colour, BT.709 narrow range, or a skip below GTK 4.20.
    private func frame(luma: UInt8, cb: UInt8, cr: UInt8, interleaved: Bool) throws -> OpaquePointer {
        guard let frame = dossier_video_frame_new_420(64, 48, luma, cb, cr, interleaved ? 1 : 0) else {
            throw XCTSkip("GTK \(gtk_get_major_version()).\(gtk_get_minor_version()) hands over no Y'CbCr frames (4.20 does)")
        }
        return frame
    }

    /// The converted texture's size and its first pixel as (red, green, blue).
    private func converted(_ frame: OpaquePointer, width: Int32, height: Int32) throws -> (Int32, Int32, [Int]) {
        let texture = try XCTUnwrap(dossier_video_frame_to_rgb(frame, width, height), "converted")
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let (w, h) = (gdk_texture_get_width(texture), gdk_texture_get_height(texture))
        var pixels = [UInt8](repeating: 0, count: Int(w * h * 4))
        gdk_texture_download(texture, &pixels, gsize(w * 4))
        // GDK_MEMORY_DEFAULT on a little-endian machine: blue, green, red, alpha.
        return (w, h, [Int(pixels[2]), Int(pixels[1]), Int(pixels[0])])
    }

    private func assertColour(_ colour: [Int], is expected: [Int], _ message: String, line: UInt = #line) {
        XCTAssertTrue(zip(colour, expected).allSatisfy { abs($0 - $1) <= 3 }, "\(message): \(colour), not \(expected)", line: line)
    }

    func testAFrameInPlanesOrInterleavedHasItsColours() throws {
        for interleaved in [false, true] {
            let kind = interleaved ? "NV12" : "I420"
            // BT.709 narrow range: pure red is (63, 102, 240), mid grey (126, 128, 128).
            let red = try frame(luma: 63, cb: 102, cr: 240, interleaved: interleaved)
            defer { g_object_unref(UnsafeMutableRawPointer(red)) }
            assertColour(try converted(red, width: 64, height: 48).2, is: [255, 0, 0], "\(kind) red")
            let grey = try frame(luma: 126, cb: 128, cr: 128, interleaved: interleaved)
            defer { g_object_unref(UnsafeMutableRawPointer(grey)) }
            assertColour(try converted(grey, width: 32, height: 24).2, is: [128, 128, 128], "\(kind) grey")
        }
    }

    func testAFrameIsConvertedAtTheSizeDrawnAndNeverLarger() throws {
        let blue = try frame(luma: 32, cb: 240, cr: 118, interleaved: false)
        defer { g_object_unref(UnsafeMutableRawPointer(blue)) }
        let smaller = try converted(blue, width: 30, height: 20)
        XCTAssertEqual([smaller.0, smaller.1], [30, 20])
        assertColour(smaller.2, is: [0, 0, 255], "blue, made smaller")
        let larger = try converted(blue, width: 640, height: 480)
        XCTAssertEqual([larger.0, larger.1], [64, 48], "no larger than the frame")
    }

    func testAFrameThatIsNotYCbCrIsLeftToGTK() throws {
        _ = try frame(luma: 0, cb: 128, cr: 128, interleaved: false)  // skips below GTK 4.20
        var pixels = [UInt8](repeating: 255, count: 8 * 8 * 4)
        let bytes = g_bytes_new(&pixels, gsize(pixels.count))
        defer { g_bytes_unref(bytes) }
        let rgb = try XCTUnwrap(gdk_memory_texture_new(8, 8, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, 32))
        defer { g_object_unref(UnsafeMutableRawPointer(rgb)) }
        XCTAssertNil(dossier_video_frame_to_rgb(rgb, 8, 8))
    }
}
