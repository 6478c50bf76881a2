import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The font specimen as the previewer shows it: lines drawn by the decoder worker as coverage,
/// shown as pictures named by their text in the text colour, drawn again for a narrower window,
/// tinted again (not drawn) for the dark style; a first font drawn ahead is taken by its page.
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

    /// The colour of the most inked pixel GTK draws for `widget` (straight red, green, blue, and
    /// alpha): inside a glyph, the text colour itself.
    @MainActor
    private static func solidInk(of widget: WidgetPointer) -> [Int]? {
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let paintable = gtk_widget_paintable_new(widget),
              let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
        defer { gsk_render_node_unref(node) }
        var viewport = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                       size: graphene_size_t(width: Float(width), height: Float(height)))
        guard let texture = gsk_renderer_render_texture(renderer, node, &viewport) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let textureWidth = Int(gdk_texture_get_width(texture)), textureHeight = Int(gdk_texture_get_height(texture))
        var bytes = [UInt8](repeating: 0, count: textureWidth * textureHeight * 4)
        gdk_texture_download(texture, &bytes, gsize(textureWidth * 4))
        // Premultiplied B G R A, made straight.
        guard let at = stride(from: 0, to: bytes.count, by: 4).max(by: { bytes[$0 + 3] < bytes[$1 + 3] }),
              bytes[at + 3] > 0 else { return nil }
        let alpha = Int(bytes[at + 3])
        return [2, 1, 0].map { (Int(bytes[at + $0]) * 255 + alpha / 2) / alpha } + [alpha]
    }

    /// `widget`'s text colour, as 0–255 red, green, blue and alpha (Adwaita's is translucent).
    @MainActor
    private static func textColor(of widget: WidgetPointer) -> [Int] {
        var color = GdkRGBA()
        dossier_widget_color(widget, &color)
        return [color.red, color.green, color.blue, color.alpha].map { Int(($0 * 255).rounded()) }
    }

    /// Shows the font at `url` in a renderer in a window of its own (900 × 700) until it is loaded and drawn.
    @MainActor
    private static func showFont(_ url: URL) throws -> (window: WidgetPointer, renderer: FontRenderer) {
        let window = gtk_window_new()!
        gtk_window_set_default_size(cast(window), 900, 700)
        let renderer = FontRenderer()
        gtk_window_set_child(cast(window), renderer.view.gtkWidget)
        gtk_window_present(cast(window))
        let loaded = Flag()
        Task { @MainActor in
            try await renderer.load(PreviewItem(url: url), type: DocumentType(mimeType: "font/ttf"))
            loaded.value = true
        }
        XCTAssertTrue(spin { loaded.value }, "the specimen is loaded")
        XCTAssertTrue(waitUntilDrawn())
        return (window, renderer)
    }

    func testTheLinesAreInTheTextColourOnTheLightAndTheDarkStyleWithoutANewDrawing() throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let (window, renderer) = try Self.showFont(box)
            defer { gtk_window_destroy(cast(window)) }
            let name = try XCTUnwrap(renderer.lines.first).picture
            let light = Self.textColor(of: renderer.rootView)
            let ink = try XCTUnwrap(Self.solidInk(of: name), "the name has solid ink")
            for (drawn, expected) in zip(ink, light) { XCTAssertEqual(drawn, expected, accuracy: 2, "light: \(ink) against \(light)") }

            let drawings = FontSpecimen.drawingsSent
            let manager = adw_style_manager_get_default()
            adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_DARK)
            defer { adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_DEFAULT) }
            XCTAssertTrue(spin { Self.textColor(of: renderer.rootView) != light }, "the dark style's text colour")
            let dark = Self.textColor(of: renderer.rootView)
            XCTAssertTrue(spin {
                waitUntilDrawn() && Self.solidInk(of: name).map { zip($0, dark).allSatisfy { abs($0 - $1) <= 2 } } == true
            }, "dark: \(String(describing: Self.solidInk(of: name))) against \(dark)")
            XCTAssertEqual(FontSpecimen.drawingsSent, drawings, "the style's colour is a tint, not a new drawing")
        }
    }

    func testAFirstFontDrawnAheadIsTakenByItsPageWithoutASecondDrawing() throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            // As the previewer service starts: its first item's work begins, then the window's
            // measures are known once the styles are, and the specimen is drawn ahead.
            let prefetch = PreviewPrefetch()
            let before = FontSpecimen.drawingsSent
            prefetch.start(box)
            XCTAssertTrue(spin { prefetch.isMeasurementWaiting }, "its type is found, and it waits for the window's measures")
            prefetch.stylesAreLoaded()
            XCTAssertTrue(spin { FontSpecimen.drawingsSent == before + 1 }, "the specimen is drawn before any page asks")
            try Self.assertShownWithoutASecondDrawing(box, drawingsBefore: before, prefetch: prefetch)
        }
    }

    func testAFirstFontFoundAfterTheStylesIsMeasuredAtTheNextTurnAndDrawnAheadToo() throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let prefetch = PreviewPrefetch()
            let before = FontSpecimen.drawingsSent
            prefetch.stylesAreLoaded()  // no item yet: nothing to measure
            prefetch.start(box)
            XCTAssertTrue(spin { FontSpecimen.drawingsSent == before + 1 }, "the specimen is drawn before any page asks")
            try Self.assertShownWithoutASecondDrawing(box, drawingsBefore: before, prefetch: prefetch)
        }
    }

    /// Shows `url` in a previewer's window, as the service's first item, and checks that its
    /// page took the one drawing made ahead.
    @MainActor
    private static func assertShownWithoutASecondDrawing(_ url: URL, drawingsBefore before: Int, prefetch: PreviewPrefetch) throws {
        let list = PreviewItemList([PreviewItem(url: url)])
        let controller = PreviewController(prefetch: prefetch)
        controller.dataSource = list
        controller.present(transientFor: nil as UnsafeMutablePointer<GtkWindow>?)
        defer { controller.windowWidget.map { gtk_window_destroy($0.gtkWindow) } }
        XCTAssertTrue(spin { controller.currentPage?.state == .ready })
        XCTAssertTrue(waitUntilDrawn())
        let renderer = try XCTUnwrap(controller.currentPage?.renderer as? FontRenderer)
        XCTAssertEqual(renderer.lines.first?.text, BoxFont.family)
        XCTAssertEqual(FontSpecimen.drawingsSent, before + 1, "the page took the drawing made ahead, and drew nothing again once laid out")
    }

    func testAFontDrawnAheadForAnotherWidthIsNotTakenAndThePageDrawsItsOwn() throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let before = FontSpecimen.drawingsSent
            FontSpecimen.drawAhead(fileAt: box.rawPath, appearance: FontSpecimen.Appearance(width: 123, scale: 1, dpi: 96))
            XCTAssertTrue(spin { FontSpecimen.drawingsSent == before + 1 }, "drawn ahead")
            let (window, renderer) = try Self.showFont(box)
            defer { gtk_window_destroy(cast(window)) }
            XCTAssertEqual(FontSpecimen.drawingsSent, before + 2, "the page drew its own")
            let wide = try XCTUnwrap(renderer.lines.last).picture
            XCTAssertGreaterThan(Self.intrinsicWidth(wide), 600, "at the page's width, not the one drawn ahead")
        }
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
