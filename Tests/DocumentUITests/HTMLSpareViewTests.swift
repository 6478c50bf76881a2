import CGtk
import CWebKit
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The web view whose process the previewer service starts while it builds its window: the
/// first page takes it while its empty page may still be loading, and is shown whole.
final class HTMLSpareViewTests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    func testTheFirstPageTakesTheSpareViewWhileItsProcessStartsAndIsShownWhole() throws {
        let page = samples.appendingPathComponent("page.html")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            var error: UnsafeMutablePointer<CChar>?
            try XCTSkipUnless(dossier_webkit_load(&error) != 0, "WebKitGTK is not installed")
            // Its web process takes hundreds of ms to start: the page below asks for the view
            // long before its empty page ends.
            HTMLRenderer.prepareSpareWebView()
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let page = PreviewPage(item: PreviewItem(url: page))
            gtk_window_set_child(cast(window), page.view)
            gtk_window_present(cast(window))
            page.start()
            XCTAssertTrue(spin(timeout: 75) { page.state != .loading }, "the page ends loading")
            XCTAssertEqual(page.state, .ready)
            XCTAssertNil(dossier_webview_take_spare(), "the page took the spare view")
            let renderer = try XCTUnwrap(page.renderer as? HTMLRenderer)
            let web = try XCTUnwrap(gtk_widget_get_last_child(renderer.view))
            let instance = UnsafeMutableRawPointer(web).assumingMemoryBound(to: GTypeInstance.self)
            XCTAssertEqual(String(cString: g_type_name_from_instance(instance)), "WebKitWebView")
        }
    }
}
