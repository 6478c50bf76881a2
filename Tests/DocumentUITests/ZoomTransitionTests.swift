import CGtk
import Foundation
import XCTest

@testable import DocumentUI

/// The previewer grows out of its source widget and shrinks back into it, on a real window
/// under the test display.
final class ZoomTransitionTests: XCTestCase {
    private final class Source: PreviewDelegate {
        let button: WidgetPointer
        init(_ button: WidgetPointer) { self.button = button }
        func previewController(_ controller: PreviewController, sourceWidgetFor item: PreviewItem) -> Widget? { Widget(gtkWidget: button) }
    }

    private var folder: URL!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("zoom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("A note to preview.\n".utf8).write(to: folder.appendingPathComponent("note.txt"))
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
        MainActor.assumeIsolated { dossier_set_animations_enabled(1) }
    }

    func testPreviewGrowsFromItsSourceAndShrinksBackIntoIt() throws {
        let note = folder.appendingPathComponent("note.txt")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            dossier_set_animations_enabled(1)
            let (sourceWindow, button) = makeSourceWindow()
            defer { gtk_window_destroy(cast(sourceWindow)) }
            let list = PreviewItemList([PreviewItem(url: note)])
            let delegate = Source(button)
            let controller = PreviewController()
            controller.dataSource = list
            controller.delegate = delegate

            var sourceRect = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
            XCTAssertEqual(dossier_widget_screen_bounds(button, &sourceRect.x, &sourceRect.y, &sourceRect.width, &sourceRect.height), 1)
            controller.present(transientFor: cast(sourceWindow))
            try pump(until: { controller.lastTransition?.finished == true })
            let opening = try XCTUnwrap(controller.lastTransition)
            XCTAssertTrue(opening.opening)
            XCTAssertGreaterThanOrEqual(opening.frames.count, 3, "the zoom is drawn over several frames")
            var windowRect = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
            let window = try XCTUnwrap(controller.windowWidget)
            XCTAssertEqual(dossier_widget_screen_bounds(window.gtkWidget, &windowRect.x, &windowRect.y, &windowRect.width, &windowRect.height), 1)
            let first = try XCTUnwrap(opening.frames.first), last = try XCTUnwrap(opening.frames.last)
            XCTAssertEqual(first.x, sourceRect.x - windowRect.x, accuracy: 1, "starts where the source is on screen")
            XCTAssertEqual(first.y, sourceRect.y - windowRect.y, accuracy: 1)
            XCTAssertEqual(first.width, sourceRect.width, accuracy: 1)
            XCTAssertEqual(first.height, sourceRect.height, accuracy: 1)
            XCTAssertGreaterThan(last.width, windowRect.width * 0.9, "ends filling the previewer's content")
            XCTAssertGreaterThan(last.height, windowRect.height * 0.6)

            controller.dismiss()
            XCTAssertTrue(gtk_widget_get_visible(window.gtkWidget) != 0, "the window stays while it shrinks")
            try pump(until: { gtk_widget_get_visible(window.gtkWidget) == 0 })
            let closing = try XCTUnwrap(controller.lastTransition)
            XCTAssertFalse(closing.opening)
            XCTAssertTrue(closing.finished)
            let end = try XCTUnwrap(closing.frames.last)
            XCTAssertEqual(end.x, first.x, accuracy: 1, "ends back in the source's place")
            XCTAssertEqual(end.width, first.width, accuracy: 1)
        }
    }

    func testNoZoomWhenAnimationsAreOff() throws {
        let note = folder.appendingPathComponent("note.txt")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            dossier_set_animations_enabled(0)
            let (sourceWindow, button) = makeSourceWindow()
            defer { gtk_window_destroy(cast(sourceWindow)) }
            let list = PreviewItemList([PreviewItem(url: note)])
            let delegate = Source(button)
            let controller = PreviewController()
            controller.dataSource = list
            controller.delegate = delegate
            controller.present(transientFor: cast(sourceWindow))
            let window = try XCTUnwrap(controller.windowWidget)
            try pump(until: { gtk_widget_get_mapped(window.gtkWidget) != 0 })
            XCTAssertNil(controller.lastTransition, "nothing moves with animations off")
            controller.dismiss()
            XCTAssertEqual(gtk_widget_get_visible(window.gtkWidget), 0, "hidden at once")
        }
    }

}

/// A window with a button in its lower right part, mapped.
@MainActor
private func makeSourceWindow() -> (WidgetPointer, WidgetPointer) {
    let window = gtk_window_new()!
    gtk_window_set_default_size(cast(window), 600, 400)
    let button = gtk_button_new_with_label("note.txt")!
    gtk_widget_set_halign(button, GTK_ALIGN_END)
    gtk_widget_set_valign(button, GTK_ALIGN_END)
    gtk_widget_set_margin_end(button, 120)
    gtk_widget_set_margin_bottom(button, 80)
    gtk_widget_set_size_request(button, 96, 96)
    gtk_window_set_child(cast(window), button)
    gtk_window_present(cast(window))
    // Mapped first, then laid out at the window's size.
    try? pump(until: { gtk_widget_get_mapped(button) != 0 && gtk_widget_get_width(button) > 50 && gtk_widget_get_width(window) >= 600 })
    return (window, button)
}

@MainActor
private func pump(until condition: () -> Bool, timeout: TimeInterval = 60) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { throw XCTSkip("timed out waiting for the display") }
        g_main_context_iteration(nil, 0)
        usleep(2_000)
    }
}
