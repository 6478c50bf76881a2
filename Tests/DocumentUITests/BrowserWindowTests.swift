import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The browser in a real window under the test's Xvfb display, driven as a user would (clicks
/// and keys through xdotool), with screenshots in `.build/test-screenshots`.
final class BrowserWindowTests: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil
                          && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"),
                          "no display: UI tests run under `make test`, which starts Xvfb")
    }

    func testTenThousandFilesSortSearchLiveChangeAndSpace() throws {
        let folder = try TemporaryFolder("browser-window")
        for index in 1...10_000 { try folder.write(String(format: "file%05d.txt", index), "Line \(index)\n") }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Projects"), withIntermediateDirectories: true)
        try folder.write("Projects/plan-file09999-notes.txt", "nested")
        for (index, colour) in ["red", "orange", "teal"].enumerated() {
            _ = try OtherProgram.run("/usr/bin/convert", ["-size", "320x200", "gradient:\(colour)-white",
                                                          folder.url.appendingPathComponent("photo\(index).png").path])
        }
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            let window = BrowserTestWindow(location: .folder(url))
            let browser = window.browser
            defer { window.close() }

            // The folder opens: every item listed, the first cells painted.
            XCTAssertTrue(spin { browser.model.count == 10_004 }, "items: \(browser.model.count)")
            XCTAssertTrue(spin { !browser.grid.boundItems.isEmpty }, "cells are bound")
            XCTAssertEqual(browser.model[0].name, "Projects", "folders first")
            XCTAssertTrue(spin(timeout: 60) { window.thumbnailsShown(browser) >= 3 }, "the pictures' thumbnails replace their icons")
            window.screenshot("browser-1-grid")

            // Sort by size, largest first (folders first still), then by name again.
            browser.sort = BrowserSort(key: .size, reversed: true)
            XCTAssertTrue(spin { browser.model.count == 10_004 && browser.model[1].name.hasPrefix("photo") },
                          "largest first: \(browser.model.count > 1 ? browser.model[1].name : "")")
            browser.viewMode = .list
            XCTAssertTrue(spin { browser.list.nameCell(showing: browser.model[0].url) != nil }, "the list shows the items")
            window.screenshot("browser-2-list-by-size")
            browser.sort = BrowserSort()
            browser.viewMode = .grid
            XCTAssertTrue(spin { browser.model[1].name == "file00001.txt" })

            // Typing filters the folder at once; the subfolder's match streams in with its folder.
            browser.focusSearch()
            gtk_editable_set_text(cast(browser.search.entry), "file0999")
            XCTAssertTrue(spin { browser.model.count == 11 }, "ten here and one in Projects: \(browser.model.count)")
            XCTAssertEqual((0..<browser.model.count).map { browser.model[$0] }.first { $0.name.hasPrefix("plan") }?.location,
                           "Projects", "the subfolder's result shows its folder")
            window.screenshot("browser-3-search")
            gtk_editable_set_text(cast(browser.search.entry), "no such name")
            XCTAssertTrue(spin { browser.status.status == .noResults("no such name") && !browser.search.isSearching })
            window.screenshot("browser-4-no-results")
            browser.search.isActive = false
            XCTAssertTrue(spin { browser.model.count == 10_004 })

            // A file made on disk shows up, at its place, without moving the view.
            try Data("new".utf8).write(to: url.appendingPathComponent("file00000-new.txt"))
            XCTAssertTrue(spin { browser.model.position(of: url.appendingPathComponent("file00000-new.txt")) == 1 })

            // Click the third file, press Space: the previewer shows it; Right walks the folder
            // and the browser's selection follows. The click goes where the cell is once the
            // grid has laid out the new file before it.
            let target = browser.model[3]
            XCTAssertTrue(spin { browser.grid.cell(showing: target.url) != nil }, "the third file's cell is bound")
            waitUntilDrawn()
            guard let point = window.screenPoint(of: target, in: browser) else { return XCTFail("the cell is on screen") }
            DesktopTest.click(point)
            XCTAssertTrue(spin { browser.selectedURLs == [target.url] }, "the click selects: \(browser.selectedURLs)")
            DesktopTest.key("space")
            XCTAssertTrue(spin { browser.preview.isPresented && browser.preview.controller.currentItem?.url == target.url })
            XCTAssertTrue(spin { browser.preview.controller.lastTransition?.finished ?? true }, "the zoom into the previewer ends")
            window.screenshot("browser-5-space")
            DesktopTest.click((x: 450, y: 400))
            DesktopTest.key("Right")
            XCTAssertTrue(spin { browser.preview.controller.currentItem?.url == browser.model[4].url })
            XCTAssertTrue(spin { browser.selectedURLs == [browser.model[4].url] }, "the selection follows the previewer")
            DesktopTest.key("space")
            XCTAssertTrue(spin { !browser.preview.isPresented })

            // A missing folder and an empty Trash get their status pages.
            browser.go(to: .folder(url.appendingPathComponent("gone")))
            XCTAssertTrue(spin { browser.status.status == .unavailable(.notFound(name: "gone")) }, "\(String(describing: browser.status.status))")
            window.screenshot("browser-6-missing")
            browser.goBack()
            XCTAssertTrue(spin { browser.model.count == 10_005 })
        }
    }
}
