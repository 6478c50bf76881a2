import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// The browser on a mounted remote folder, in a real window under the test's Xvfb: the items
/// arrive through GIO and show in the grid and the list, sorting and search-as-you-type work
/// as on a local folder (SFTP), and the pictures of a folder on each server get their
/// thumbnails in the grid. Screenshots in `.build/test-screenshots` (remote-browser-*).
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
        try inWindow(on: server) { window in
            let browser = window.browser
            // Listed through GIO: every item, folders first, in natural order.
            XCTAssertTrue(spin { browser.model.count == 302 }, "items: \(browser.model.count), status: \(String(describing: browser.status.status))")
            XCTAssertEqual(browser.model[0].name, "Projects")
            XCTAssertEqual(browser.model[1].name, "file001.txt")
            XCTAssertEqual(browser.model[1].url.absoluteString, server.uri("file001.txt"))
            XCTAssertTrue(spin { !browser.grid.boundItems.isEmpty }, "cells are bound")
            window.screenshot("remote-browser-1-grid")

            // Largest first (folders first still), in the list.
            browser.sort = BrowserSort(key: .size, reversed: true)
            XCTAssertTrue(spin { browser.model.count == 302 && browser.model[1].name == "photo.png" },
                          "largest first: \(browser.model.count > 2 ? browser.model[1].name : "")")
            XCTAssertEqual(browser.model[2].name, "file300.txt")
            browser.viewMode = .list
            XCTAssertTrue(spin { browser.list.nameCell(showing: browser.model[1].url) != nil }, "the list shows the items")
            window.screenshot("remote-browser-2-list-by-size")
            browser.sort = BrowserSort()
            browser.viewMode = .grid

            // Typing filters at once; the subfolder's match comes from the recursive remote query.
            browser.focusSearch()
            gtk_editable_set_text(cast(browser.search.entry), "plan")
            XCTAssertTrue(spin { browser.model.count == 1 && browser.model[0].name == "plan-notes.txt" },
                          "the nested match: \((0..<browser.model.count).map { browser.model[$0].name })")
            XCTAssertEqual(browser.model[0].location, "Projects")
            window.screenshot("remote-browser-3-search")
        }
    }

    func testSFTPFolderShowsThumbnailsOfItsPicturesInTheGrid() throws { try thumbnailsInTheGrid(.sftp) }
    func testSMBFolderShowsThumbnailsOfItsPicturesInTheGrid() throws { try thumbnailsInTheGrid(.smb) }
    func testWebDAVFolderShowsThumbnailsOfItsPicturesInTheGrid() throws { try thumbnailsInTheGrid(.dav) }

    /// Each picture's cell shows its thumbnail in place of the type's icon: the file downloaded
    /// at low priority, the thumbnail made of the copy and kept in the shared cache under the
    /// remote URI.
    private func thumbnailsInTheGrid(_ kind: RemoteServer.Kind) throws {
        let server = try RemoteServer.start(kind)
        defer { server.stop() }
        let pictures = ["Harbour.jpg", "Lighthouse.jpg", "Quay.jpg"]
        for name in pictures { _ = try server.folder.write(name, bytes: RemoteTestFiles.jpeg(padding: 20_000)) }
        try server.folder.write("notes.txt", "not a picture")
        server.openToServer()
        try inWindow(on: server) { window in
            let browser = window.browser
            XCTAssertTrue(spin { browser.model.count == 4 }, "\(kind): items: \(browser.model.count), status: \(String(describing: browser.status.status))")
            let urls = try pictures.map { try XCTUnwrap(URL(string: server.uri($0))) }
            let shown = { urls.filter { browser.grid.cell(showing: $0)?.hasThumbnail == true }.map(\.lastPathComponent) }
            XCTAssertTrue(spin { shown().count == pictures.count }, "\(kind): thumbnails shown for \(shown()) of \(pictures)")
            for name in pictures {
                let uri = server.uri(name)
                XCTAssertTrue(ThumbnailSize.allCases.contains { FileManager.default.fileExists(atPath: ThumbnailCache().location(of: uri, size: $0).path) },
                              "\(kind): \(name)'s thumbnail is in the shared cache under its URI")
            }
            window.screenshot("remote-browser-thumbnails-\(kind)")
        }
    }

    /// Mounts `server` and runs `body` with a browser window showing its root.
    private func inWindow(on server: RemoteServer, _ body: @MainActor (BrowserTestWindow) throws -> Void) throws {
        try server.mount()
        let root = try XCTUnwrap(URL(string: server.rootURI))
        try MainActor.assumeIsolated {
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            let window = BrowserTestWindow(location: .folder(root))
            defer { window.close() }
            try body(window)
        }
    }
}
