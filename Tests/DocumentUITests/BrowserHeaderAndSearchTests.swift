import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// In a real window under the test's display: an app's own action in the header for a
/// selection it suits (clicked with the pointer), the grid scrolled back after a search ends
/// with Escape, and the inline rename pointing at the name.
final class BrowserHeaderAndSearchTests: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil
                          && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"),
                          "no display: UI tests run under `make test`, which starts Xvfb")
    }

    func testACustomHeaderActionShowsForAMatchingSelectionAndRuns() throws {
        let folder = try TemporaryFolder("browser-header")
        try folder.write("notes.txt", "notes\n")
        try folder.write("more.txt", "more\n")
        _ = try OtherProgram.run("/usr/bin/convert", ["-size", "64x64", "xc:teal", folder.url.appendingPathComponent("picture.png").path])
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            let window = BrowserTestWindow(location: .folder(url))
            let browser = window.browser
            defer { window.close() }
            nonisolated(unsafe) var ran: [[URL]] = []
            browser.actions = [DocumentBrowserAction(
                identifier: "test.stamp", title: "Stamp", iconName: "mail-send-symbolic", supportedTypes: [.plainText],
                supportsMultipleItems: false, availability: [.header]) { urls in ran.append(urls) }]
            XCTAssertTrue(spin { browser.model.count == 3 && browser.grid.boundItems.count == 3 })
            XCTAssertNil(headerButton(browser), "nothing selected: no button")

            let notes = url.appendingPathComponent("notes.txt")
            browser.select([notes])
            XCTAssertTrue(spin { headerButton(browser) != nil }, "a text file selected: the Stamp button shows")
            window.screenshot("browser-header-action")
            // A click with the pointer, where the button is on screen.
            let button = try XCTUnwrap(headerButton(browser))
            var bounds = graphene_rect_t()
            XCTAssertTrue(gtk_widget_compute_bounds(button, window.window, &bounds) != 0)
            let origin = DesktopTest.windowOrigin("Browser Test")
            var offsetX = 0.0, offsetY = 0.0
            gtk_native_get_surface_transform(OpaquePointer(window.window), &offsetX, &offsetY)
            DesktopTest.click((origin.x + Int(offsetX + Double(bounds.origin.x + bounds.size.width / 2)),
                               origin.y + Int(offsetY + Double(bounds.origin.y + bounds.size.height / 2))))
            XCTAssertTrue(spin { ran == [[notes]] }, "the click ran the action on the selection: \(ran)")

            browser.select([url.appendingPathComponent("picture.png")])
            XCTAssertTrue(spin { headerButton(browser) == nil }, "a picture: not for it, no button")
            browser.select([notes, url.appendingPathComponent("more.txt")])
            XCTAssertTrue(spin { headerButton(browser) == nil }, "two files: the action takes one")
        }
    }

    func testEscapeOutOfASearchScrollsBackToWhereTheFolderWas() throws {
        let folder = try TemporaryFolder("browser-search-scroll")
        for index in 1...600 { try folder.write(String(format: "file%04d.txt", index), "\(index)\n") }
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            let window = BrowserTestWindow(location: .folder(url))
            let browser = window.browser
            defer { window.close() }
            XCTAssertTrue(spin { browser.model.count == 600 && !browser.grid.boundItems.isEmpty })
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(browser.grid.scrolled))
            XCTAssertTrue(spin { gtk_adjustment_get_upper(adjustment) > 3000 }, "laid out")
            gtk_adjustment_set_value(adjustment, 2000)
            waitUntilDrawn()  // laid out there: the offset the search will keep
            let folderOffset = gtk_adjustment_get_value(adjustment)
            XCTAssertGreaterThan(folderOffset, 1000)
            window.screenshot("browser-search-scroll-1-folder")

            browser.focusSearch()
            gtk_editable_set_text(cast(browser.search.entry), "file05")
            XCTAssertTrue(spin { browser.model.count == 100 && !browser.search.isSearching })
            waitUntilDrawn()  // the results laid out, so that 400 is within them
            gtk_adjustment_set_value(adjustment, 400)
            window.screenshot("browser-search-scroll-2-results")

            DesktopTest.key("Escape")
            XCTAssertTrue(spin { !browser.search.isActive && browser.model.count == 600 }, "Escape ended the search")
            // The grid keeps its place by a row and an offset into it, so it may land a few pixels
            // off (10 with two-line rows): well within a row of ~170 px.
            XCTAssertTrue(spin(timeout: 60) { abs(gtk_adjustment_get_value(adjustment) - folderOffset) < 32 },
                          "back where the folder was: \(gtk_adjustment_get_value(adjustment)) for \(folderOffset)")
            window.screenshot("browser-search-scroll-3-back")
        }
    }

    func testTheInlineRenamePointsAtTheName() throws {
        let folder = try TemporaryFolder("browser-rename-anchor")
        try folder.write("report.txt", "q3\n")
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            let window = BrowserTestWindow(location: .folder(url))
            let browser = window.browser
            defer { window.close() }
            let file = url.appendingPathComponent("report.txt")
            XCTAssertTrue(spin { browser.grid.cell(showing: file) != nil })
            browser.beginRename(file)
            XCTAssertTrue(spin { browser.renaming.map { gtk_widget_get_mapped($0.popover) != 0 } ?? false }, "the popover is up")
            let popover = try XCTUnwrap(browser.renaming?.popover)
            var pointing = GdkRectangle()
            XCTAssertTrue(gtk_popover_get_pointing_to(cast(popover), &pointing) != 0)
            let cell = try XCTUnwrap(browser.grid.cell(showing: file))
            let label = try XCTUnwrap(browser.bounds(of: cell.label, in: browser.grid.grid))
            let whole = try XCTUnwrap(browser.bounds(of: cell.root, in: browser.grid.grid))
            XCTAssertEqual(Double(pointing.y), label.y.rounded(.towardZero), accuracy: 1, "at the name, not the cell's top")
            XCTAssertLessThan(Double(pointing.height), whole.height, "the name only")
            window.screenshot("browser-rename-anchor")
            browser.renaming?.close()
            XCTAssertTrue(spin { browser.renaming == nil }, "the popover closed")
        }
    }
}

/// The app's action button in the header, if shown.
@MainActor
private func headerButton(_ browser: DocumentBrowser) -> WidgetPointer? {
    gtk_widget_get_first_child(browser.headerActions)
}
