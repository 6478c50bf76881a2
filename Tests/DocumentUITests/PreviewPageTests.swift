import CGLib
import CGtk
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// A previewer page and the window it is shown in: the window lets go of a page as soon as
/// another item replaces it (Nautilus's next `ShowFile`, an arrow key held down), often while
/// the page is still loading; the page's renderer then finishes on widgets that must still be
/// there.
final class PreviewPageTests: XCTestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    func testAPageTakenOutOfTheWindowWhileLoadingKeepsItsWidgetsUntilItGoes() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes.txt", String(repeating: "A line of the notes.\n", count: 2000))
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            let stack = gtk_stack_new()!
            gtk_window_set_child(cast(window), stack)
            gtk_window_present(cast(window))

            var page: PreviewPage? = PreviewPage(item: PreviewItem(url: file))
            let view = try XCTUnwrap(page?.view)
            // Set to nil by GObject when the page's widget is finalized.
            let alive = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)
            defer { alive.deallocate() }
            alive.pointee = UnsafeMutableRawPointer(view)
            g_object_add_weak_pointer(UnsafeMutablePointer<GObject>(OpaquePointer(view)), alive)

            gtk_stack_add_named(cast(stack), view, "page")
            page?.start()
            // Replaced at once, as the previewer's window drops a page for the next item.
            gtk_stack_remove(cast(stack), view)
            XCTAssertNotNil(alive.pointee, "the page's widgets outlive their place in the window")
            XCTAssertTrue(spin { page?.state == .ready }, "the text still loads, into the page's own widgets")
            XCTAssertEqual((page?.renderer as? TextRenderer)?.text.hasPrefix("A line of the notes."), true)

            page = nil
            XCTAssertTrue(spin { alive.pointee == nil }, "the widgets go with the page")
            if alive.pointee != nil { g_object_remove_weak_pointer(UnsafeMutablePointer<GObject>(OpaquePointer(view)), alive) }
        }
    }

    /// A path of 100 KB (a URI Nautilus could send) makes GIO's error name it in full: the
    /// error page shows its start and end only.
    func testAnErrorAboutAHugePathShowsAShortMessage() throws {
        let path = "/" + String(repeating: "folder/", count: 15_000) + "missing.txt"
        MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let page = PreviewPage(item: PreviewItem(url: URL(fileURLWithPath: path)))
            page.start()
            XCTAssertTrue(spin { if case .failed = page.state { true } else { false } })
            guard case .failed(let message) = page.state else { return }
            XCTAssertLessThanOrEqual(message.count, PreviewPage.messageLimit + 1, "cut to the limit")
            XCTAssertTrue(message.contains("…"), "the middle of the path is left out: \(message.prefix(80))")
        }
    }
}
