import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GtkSupport
import XCTest

@testable import DocumentUI

/// The interaction controller's and the previewer's public entry points that the browser does not
/// call itself, as an app calls them: its own preview with the begin and end callbacks, the Open
/// With menu on its own, the gestures on a widget of the app's, a preview refreshed after the
/// file changed.
final class InteractionEntryPointsTests: XCTestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    /// A host that writes down what the controller tells it.
    @MainActor
    private final class Recorder: DocumentInteractionDelegate {
        var events: [String] = []
        func documentInteractionControllerWillBeginPreview(_ controller: DocumentInteractionController) { events.append("willBegin") }
        func documentInteractionControllerDidBeginPreview(_ controller: DocumentInteractionController) { events.append("didBegin") }
        func documentInteractionControllerWillEndPreview(_ controller: DocumentInteractionController) { events.append("willEnd") }
        func documentInteractionControllerDidEndPreview(_ controller: DocumentInteractionController) { events.append("didEnd") }
        func documentInteractionController(_ controller: DocumentInteractionController, willPresent menu: DocumentMenu) {
            events.append("willPresent \(menu)")
        }
        func documentInteractionController(_ controller: DocumentInteractionController, didDismiss menu: DocumentMenu) {
            events.append("didDismiss \(menu)")
        }
    }

    /// A window with a button in it, presented.
    @MainActor
    private static func windowWithButton() -> (window: WidgetPointer, button: WidgetPointer) {
        let window = gtk_window_new()!
        let button = gtk_button_new_with_label("report.txt")!
        gtk_window_set_child(cast(window), button)
        gtk_window_present(cast(window))
        return (window, button)
    }

    func testAnAppsOwnPreviewTellsItsDelegateWhenItBeginsAndEnds() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("report.txt", "The report.\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let (window, button) = Self.windowWithButton()
            defer { gtk_window_destroy(cast(window)) }
            let controller = DocumentInteractionController(url: file)
            let recorder = Recorder()
            controller.delegate = recorder
            controller.presentPreview(from: Widget(gtkWidget: button))
            XCTAssertEqual(recorder.events, ["willBegin", "didBegin"])
            let preview = try XCTUnwrap(controller.previewController)
            XCTAssertTrue(spin { preview.currentState == "ready" }, preview.currentState)
            XCTAssertEqual(preview.currentItem?.url, file)
            controller.dismissPreview()
            XCTAssertTrue(spin { recorder.events.count == 4 }, "\(recorder.events)")
            XCTAssertEqual(recorder.events, ["willBegin", "didBegin", "willEnd", "didEnd"])
        }
    }

    func testTheOpenWithMenuShowsOnItsOwnWithTheAppsItListsAndCloses() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes.txt", "notes\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let (window, button) = Self.windowWithButton()
            defer { gtk_window_destroy(cast(window)) }
            let controller = DocumentInteractionController(url: file)
            let recorder = Recorder()
            controller.delegate = recorder
            var listed: (applications: [Application], defaultApplication: Application?)?
            Task { @MainActor in listed = await controller.openWithApplications() }
            XCTAssertTrue(spin { listed != nil })
            if let chosen = listed?.defaultApplication {
                XCTAssertEqual(listed?.applications.first?.id, chosen.id, "the default comes first")
            }
            XCTAssertFalse(controller.isPresentingMenu)
            controller.presentOpenWithMenu(from: Widget(gtkWidget: button))
            XCTAssertTrue(spin { controller.isPresentingMenu }, "the menu shows")
            XCTAssertEqual(recorder.events, ["willPresent openWith"])
            controller.dismissMenus()
            XCTAssertTrue(spin { !controller.isPresentingMenu }, "and closes")
            XCTAssertTrue(spin { recorder.events.contains("didDismiss openWith") }, "\(recorder.events)")
        }
    }

    func testGesturesMakeAnAppsWidgetStandForItsDocument() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("photo.txt", "x\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let (window, button) = Self.windowWithButton()
            defer { gtk_window_destroy(cast(window)) }
            let controllers = gtk_widget_observe_controllers(button)!
            defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
            let before = g_list_model_get_n_items(controllers)
            let controller = DocumentInteractionController(url: file)
            controller.attachGestures(to: Widget(gtkWidget: button))
            XCTAssertGreaterThan(g_list_model_get_n_items(controllers), before, "a click, a long press and keys")
            let recorder = Recorder()
            controller.delegate = recorder
            // The widget answers the document's actions, as its menus and keys use them.
            XCTAssertNotEqual(gtk_widget_activate_action_variant(button, "doc.preview", nil), 0, "the widget answers doc.preview")
            XCTAssertEqual(recorder.events, ["willBegin", "didBegin"])
            let preview = try XCTUnwrap(controller.previewController)
            XCTAssertTrue(spin { preview.currentState == "ready" }, preview.currentState)
            controller.dismissPreview()
            XCTAssertTrue(spin { recorder.events.last == "didEnd" }, "\(recorder.events)")
        }
    }

    func testAPreviewShowsWhatItCanAndShowsAChangedFileAgain() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("draft.txt", "First draft.\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            XCTAssertTrue(PreviewController.canPreview(PreviewItem(url: file)), "text has a renderer")
            let unknown = try folder.write("blob.bin", bytes: [0, 1, 2, 3, 0xff, 0xfe])
            XCTAssertFalse(PreviewController.canPreview(PreviewItem(url: unknown)), "only the info page shows unknown data")

            let list = PreviewItemList([PreviewItem(url: file)])
            let controller = PreviewController()
            controller.dataSource = list
            controller.present(transientFor: nil as UnsafeMutablePointer<GtkWindow>?)
            defer { controller.windowWidget.map { gtk_window_destroy($0.gtkWindow) } }
            XCTAssertTrue(spin { controller.currentState == "ready" })
            let first = try XCTUnwrap(controller.currentPage)
            try Data("Second draft.\n".utf8).write(to: file)
            controller.refreshCurrentItem()
            let second = try XCTUnwrap(controller.currentPage)
            XCTAssertFalse(first === second, "a new page for the file as it is now")
            XCTAssertTrue(spin { controller.currentState == "ready" })
            let renderer = try XCTUnwrap(second.renderer as? TextRenderer)
            XCTAssertTrue(spin { renderer.text.hasPrefix("Second draft.") }, renderer.text)
        }
    }
}
