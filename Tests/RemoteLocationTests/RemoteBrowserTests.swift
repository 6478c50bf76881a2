import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest
@testable import DocumentUI

/// The browser on a mounted SFTP folder, in a real window under the test's Xvfb: the items
/// arrive through GIO and show in the grid and the list, sorting and search-as-you-type work
/// as on a local folder. Screenshots in `.build/test-screenshots` (remote-browser-*).
final class RemoteBrowserTests: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no display: UI tests run under `make test`")
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
    }

    func testMountedSFTPFolderShowsSortsAndSearchesLikeALocalOne() throws {
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        for index in 1...300 { try server.folder.write(String(format: "file%03d.txt", index), String(repeating: "x", count: index)) }
        try server.folder.write("Projects/plan-notes.txt", "nested")
        _ = try OtherProgram.run("/usr/bin/convert", ["-size", "320x200", "gradient:teal-white", server.localURL("photo.png").path])
        try server.mount()
        let root = try XCTUnwrap(URL(string: server.rootURI))

        try MainActor.assumeIsolated {
            guard initializeDisplay() else { throw XCTSkip("GTK could not open the display") }
            let window = RemoteBrowserWindow(location: .folder(root))
            let browser = window.browser
            defer { window.close() }

            // Listed through GIO: every item, folders first, in natural order.
            XCTAssertTrue(spinUntil { browser.model.count == 302 }, "items: \(browser.model.count), status: \(String(describing: browser.status.status))")
            XCTAssertEqual(browser.model[0].name, "Projects")
            XCTAssertEqual(browser.model[1].name, "file001.txt")
            XCTAssertEqual(browser.model[1].url.absoluteString, server.uri("file001.txt"))
            XCTAssertTrue(spinUntil { !browser.grid.boundItems.isEmpty }, "cells are bound")
            window.screenshot("remote-browser-1-grid")

            // Largest first (folders first still), in the list.
            browser.sort = BrowserSort(key: .size, reversed: true)
            XCTAssertTrue(spinUntil { browser.model.count == 302 && browser.model[1].name == "photo.png" },
                          "largest first: \(browser.model.count > 2 ? browser.model[1].name : "")")
            XCTAssertEqual(browser.model[2].name, "file300.txt")
            browser.viewMode = .list
            XCTAssertTrue(spinUntil { browser.list.nameCell(showing: browser.model[1].url) != nil }, "the list shows the items")
            window.screenshot("remote-browser-2-list-by-size")
            browser.sort = BrowserSort()
            browser.viewMode = .grid

            // Typing filters at once; the subfolder's match comes from the recursive remote query.
            browser.focusSearch()
            gtk_editable_set_text(cast(browser.search.entry), "plan")
            XCTAssertTrue(spinUntil { browser.model.count == 1 && browser.model[0].name == "plan-notes.txt" },
                          "the nested match: \((0..<browser.model.count).map { browser.model[$0].name })")
            XCTAssertEqual(browser.model[0].location, "Projects")
            window.screenshot("remote-browser-3-search")
        }
    }
}

/// GTK in the test process, kept off the accessibility bus (as DocumentUITests' TestDisplay).
@MainActor
private func initializeDisplay() -> Bool {
    setenv("GTK_A11Y", "none", 1)
    defer { unsetenv("GTK_A11Y") }
    return Display.initialize()
}

/// Runs the GLib main context (and through the bridge the main queue) until `condition` holds.
@MainActor
@discardableResult
private func spinUntil(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
    MainLoopBridge.install()
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        var rounds = 0
        while rounds < 50, g_main_context_iteration(nil, 0) != 0 { rounds += 1 }
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// A window holding a browser as Dossier's main window does.
@MainActor
private final class RemoteBrowserWindow {
    let window: Widget
    let browser: DocumentBrowser

    init(location: BrowserLocation) {
        browser = DocumentBrowser(location: location)
        window = widget(adw_window_new())
        gtk_window_set_title(cast(window), "Remote Browser Test")
        gtk_window_set_default_size(cast(window), 1100, 760)
        let header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(OpaquePointer(header), browser.pathBar)
        adw_header_bar_pack_end(OpaquePointer(header), browser.headerControls)
        adw_window_set_content(cast(window), makeBox(GTK_ORIENTATION_VERTICAL, [header, browser.widget]))
        gtk_window_present(cast(window))
        spinUntil { gtk_widget_get_mapped(window) != 0 }
    }

    func close() {
        gtk_window_destroy(cast(window))
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
    }

    /// A screenshot of the screen after a few frames (the test's screenshots folder).
    func screenshot(_ name: String) {
        let frames = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        frames.initialize(to: 0)
        defer { frames.deallocate() }
        let id = gtk_widget_add_tick_callback(window, { _, _, data in
            data!.assumingMemoryBound(to: Int.self).pointee += 1
            return 1
        }, frames, nil)
        spinUntil { frames.pointee >= 3 }
        gtk_widget_remove_tick_callback(window, id)
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
        let folder = ProcessInfo.processInfo.environment["DOSSIER_SCREENSHOTS"] ?? NSTemporaryDirectory()
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try? OtherProgram.run("/usr/bin/import", ["-window", "root", folder + "/" + name + ".png"])
    }
}
