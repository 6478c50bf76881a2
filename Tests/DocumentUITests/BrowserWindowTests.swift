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

/// A window holding a browser the way Dossier's main window does: the path bar as the
/// header's title, the header controls at its end.
@MainActor
final class BrowserTestWindow {
    let window: Widget
    let browser: DocumentBrowser

    init(location: BrowserLocation) {
        browser = DocumentBrowser(location: location)
        window = widget(adw_window_new())
        gtk_window_set_title(cast(window), "Browser Test")
        gtk_window_set_default_size(cast(window), 1100, 760)
        let header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(OpaquePointer(header), browser.pathBar)
        adw_header_bar_pack_end(OpaquePointer(header), browser.headerControls)
        adw_window_set_content(cast(window), makeBox(GTK_ORIENTATION_VERTICAL, [header, browser.widget]))
        gtk_window_present(cast(window))
        spin { gtk_widget_get_mapped(window) != 0 }
    }

    /// Closes the previewer (after its zoom back) and the window, and waits until the X server
    /// has destroyed it: the next test looks its window up by the same title.
    func close() {
        browser.preview.controller.dismiss()
        spin { browser.preview.controller.windowWidget.map { gtk_widget_get_visible($0) == 0 } ?? true }
        gtk_window_destroy(cast(window))
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
    }

    /// How many grid cells show a picture (a thumbnail) rather than an icon.
    func thumbnailsShown(_ browser: DocumentBrowser) -> Int {
        var count = 0
        var cells: [Widget] = []
        collect(browser.grid.grid, into: &cells)
        for image in cells where gtk_image_get_storage_type(cast(image)) == GTK_IMAGE_PAINTABLE { count += 1 }
        return count
    }

    private func collect(_ widget: Widget, into images: inout [Widget]) {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(current)), gtk_image_get_type()) != 0 {
                images.append(current)
            }
            collect(current, into: &images)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// The screen position of the middle of `item`'s cell (the window is at the screen's top
    /// left under a bare X server).
    func screenPoint(of item: BrowserItem, in browser: DocumentBrowser) -> (x: Int, y: Int)? {
        guard let cell = browser.grid.cell(showing: item.url) else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(cell.image, window, &bounds) != 0 else { return nil }
        var offsetX = 0.0, offsetY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &offsetX, &offsetY)
        let origin = DesktopTest.windowOrigin("Browser Test")
        return (origin.x + Int(offsetX + Double(bounds.origin.x + bounds.size.width / 2)),
                origin.y + Int(offsetY + Double(bounds.origin.y + bounds.size.height / 2)))
    }

    /// A screenshot of the whole screen, once every window has drawn what it shows now.
    func screenshot(_ name: String) {
        waitUntilDrawn()
        DesktopTest.screenshot(name)
    }
}

/// xdotool and ImageMagick's import, for the in-process window tests.
enum DesktopTest {
    @discardableResult
    static func run(_ arguments: [String]) -> String {
        (try? OtherProgram.run(arguments[0], Array(arguments.dropFirst())).output) ?? ""
    }

    /// A click at `point` on the screen. What it does is the caller's to wait for; the short
    /// settle only paces the input (GTK takes the click before the next key or click).
    @MainActor
    static func click(_ point: (x: Int, y: Int)) {
        run(["/usr/bin/xdotool", "mousemove", String(point.x), String(point.y), "click", "1"])
        settle(0.3)
    }

    /// A key press, paced like `click`.
    @MainActor
    static func key(_ name: String) {
        run(["/usr/bin/xdotool", "key", name])
        settle(0.3)
    }

    static func windowOrigin(_ title: String) -> (x: Int, y: Int) {
        let id = run(["/usr/bin/xdotool", "search", "--name", title]).split(separator: "\n").first.map(String.init) ?? ""
        let text = run(["/usr/bin/xdotool", "getwindowgeometry", "--shell", id])
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return (values["X"] ?? 0, values["Y"] ?? 0)
    }

    static func screenshot(_ name: String) {
        let folder = Screenshots.folder
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        run(["/usr/bin/import", "-window", "root", folder.appendingPathComponent(name + ".png").path])
    }
}
