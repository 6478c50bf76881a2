import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The font specimen as the previewer shows it: lines drawn by the decoder worker, shown as
/// pictures named by their text, drawn again for a narrower window and for the dark style.
final class FontRendererTests: XCTestCase {
    private final class Flag: @unchecked Sendable { var value = false }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    /// What GTK draws for `widget`: how many of its pixels have ink, and the brightest ink.
    @MainActor
    private static func drawing(of widget: WidgetPointer) -> (inked: Int, brightest: Int) {
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let paintable = gtk_widget_paintable_new(widget),
              let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { return (0, 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return (0, 0) }
        defer { gsk_render_node_unref(node) }
        var viewport = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                       size: graphene_size_t(width: Float(width), height: Float(height)))
        guard let texture = gsk_renderer_render_texture(renderer, node, &viewport) else { return (0, 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let textureWidth = Int(gdk_texture_get_width(texture)), textureHeight = Int(gdk_texture_get_height(texture))
        var bytes = [UInt8](repeating: 0, count: textureWidth * textureHeight * 4)
        gdk_texture_download(texture, &bytes, gsize(textureWidth * 4))
        var inked = 0, brightest = 0
        // Premultiplied B G R A: ink is where alpha is; its brightness, straight.
        for at in stride(from: 0, to: bytes.count, by: 4) where bytes[at + 3] > 128 {
            inked += 1
            brightest = max(brightest, Int(bytes[at + 2]) * 255 / Int(bytes[at + 3]))
        }
        return (inked, brightest)
    }

    @MainActor
    private static func intrinsicWidth(_ picture: WidgetPointer) -> Int32 {
        gtk_picture_get_paintable(cast(picture)).map { gdk_paintable_get_intrinsic_width($0) } ?? 0
    }

    /// A renderer's first drawing is made before the window is laid out: for the width the
    /// window's content then gets, or it is drawn twice (under Xvfb, without a compositor, the
    /// window keeps 10 px of its default width for its edges).
    func testAPreviewWindowsContentWidthBeforeItIsLaidOutIsTheWidthItGets() throws {
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let preview = PreviewWindow(application: nil)
            defer { gtk_window_destroy(cast(preview.window)) }
            let expected = PreviewWindow.contentWidth(of: preview.window)
            gtk_window_present(cast(preview.window))
            let content = try XCTUnwrap(gtk_widget_get_first_child(preview.window))
            XCTAssertTrue(spin { gtk_widget_get_width(content) > 0 })
            XCTAssertEqual(expected, gtk_widget_get_width(content))
            XCTAssertEqual(PreviewWindow.contentWidth(of: preview.window), gtk_widget_get_width(preview.window))
        }
    }

    func testTheSpecimensLinesAreShownAsPicturesNamedByTheirTextAndDrawnAgainWhenTheWindowNarrows() throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let renderer = FontRenderer()
            gtk_window_set_child(cast(window), renderer.view.gtkWidget)
            gtk_window_present(cast(window))
            let loaded = Flag()
            Task { @MainActor in
                try await renderer.load(PreviewItem(url: box), type: DocumentType(mimeType: "font/ttf"))
                loaded.value = true
            }
            XCTAssertTrue(spin { loaded.value }, "the specimen is loaded")
            XCTAssertTrue(waitUntilDrawn())

            XCTAssertEqual(renderer.lines.map(\.text), [BoxFont.family, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "0123456789 .,:;!?&@#%*()[]{}"]
                               + Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 6))
            for (text, picture) in renderer.lines {
                let drawn = Self.drawing(of: picture)
                // Boxes: a good part of each line is ink, in the label colour (dark on the light style).
                XCTAssertGreaterThan(Double(drawn.inked), 0.2 * Double(gtk_widget_get_width(picture) * gtk_widget_get_height(picture)),
                                     "'\(text)' is drawn, not blank")
                XCTAssertLessThan(drawn.brightest, 128, "'\(text)' is dark on the light style")
            }
            let wide = try XCTUnwrap(renderer.lines.last).picture
            XCTAssertGreaterThan(Self.intrinsicWidth(wide), 600, "the 72-point sample fills the column")

            // A narrower window: the lines are drawn again to its width.
            gtk_window_set_default_size(cast(window), 500, 700)
            XCTAssertTrue(spin { renderer.lines.allSatisfy { Self.intrinsicWidth($0.picture) <= 500 - 2 * FontRenderer.sideMargin } },
                          "the lines are drawn again for the narrower column: \(renderer.lines.map { Self.intrinsicWidth($0.picture) })")

            // The dark style: drawn again in its light text colour.
            let manager = adw_style_manager_get_default()
            adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_DARK)
            defer { adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_DEFAULT) }
            XCTAssertTrue(spin { waitUntilDrawn() && Self.drawing(of: wide).brightest > 200 }, "the lines are light on the dark style")
        }
    }
}
