import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// The previewer on remote items from each real server, through a slowed line (one server's
/// relay, nothing else slowed): the download's progress page, then the document under its
/// remote name; the server killed in the middle of a download ends on the error page, whose
/// Retry works once the server is back. Screenshots in `.build/test-screenshots/`.
final class RemotePreviewTests: XCTestCase {
    /// Slow enough that a 1.5 MB file takes several seconds, so its progress shows.
    private static let rate = 256 << 10

    override func setUp() async throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    func testSFTPPreviewShowsTheDownloadThenThePDFAndThePhoto() throws { try previewWithProgress(.sftp, screenshot: true) }
    func testSMBPreviewShowsTheDownloadThenThePDFAndThePhoto() throws { try previewWithProgress(.smb) }
    func testWebDAVPreviewShowsTheDownloadThenThePDFAndThePhoto() throws { try previewWithProgress(.dav) }

    private func previewWithProgress(_ kind: RemoteServer.Kind, screenshot: Bool = false) throws {
        let server = try RemoteServer.start(kind)
        defer { server.stop() }
        let pdf = RemoteTestFiles.pdf(padding: 1_500_000)
        let jpeg = RemoteTestFiles.jpeg(padding: 1_500_000)
        _ = try server.folder.write("Quarterly report.pdf", bytes: pdf)
        _ = try server.folder.write("Harbour.jpg", bytes: jpeg)
        server.openToServer()
        let link = try ThrottledLink(to: server, bytesPerSecond: Self.rate)
        defer { link.stop() }
        try link.mount()
        let items = [PreviewItem(url: try XCTUnwrap(URL(string: link.uri("Quarterly report.pdf")))),
                     PreviewItem(url: try XCTUnwrap(URL(string: link.uri("Harbour.jpg"))))]
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let controller = PreviewController()
            let list = PreviewItemList(items)
            controller.dataSource = list
            controller.present()
            defer { controller.dismiss() }
            for (index, item) in items.enumerated() {
                controller.currentIndex = index
                // The download shows: bytes done of the whole, before the item is ready.
                var progressSeen = false
                XCTAssertTrue(spin {
                    if controller.currentState.hasPrefix("downloading") { progressSeen = true }
                    return controller.currentState == "ready" || controller.currentState.hasPrefix("failed")
                }, "\(kind): \(item.displayTitle) never loaded: \(controller.currentState)")
                XCTAssertEqual(controller.currentState, "ready", "\(kind): \(item.displayTitle)")
                XCTAssertTrue(progressSeen, "\(kind): no progress was shown for \(item.displayTitle)")
                // The title is the remote name; the renderer read the cached copy.
                let window = try XCTUnwrap(controller.windowWidget)
                XCTAssertEqual(gtk_window_get_title(cast(window.gtkWindow)).map { String(cString: $0) }, item.displayTitle)
                let page = try XCTUnwrap(controller.currentPage)
                XCTAssertTrue(page.localCopy.map { Array((try? Data(contentsOf: $0.url)) ?? Data()) } == (index == 0 ? pdf : jpeg),
                              "\(kind): the renderer read the whole file")
                XCTAssertEqual(page.type?.conforms(to: index == 0 ? .pdf : .image), true)
            }
            if screenshot {
                // Again from the start, with a fresh cache entry: the progress page itself.
                controller.dismiss()
                let fresh = RemoteTestFiles.pdf(padding: 3_000_000)
                try Data(fresh).write(to: server.localURL("Quarterly report.pdf"))
                try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)],
                                                      ofItemAtPath: server.localURL("Quarterly report.pdf").path)
                controller.currentIndex = 0
                controller.present()
                XCTAssertTrue(spin { (controller.currentPage?.downloadProgress?.bytesDone ?? 0) > 300_000 },
                              "the changed file downloads again: \(controller.currentState)")
                waitUntilDrawn()
                Screenshots.take("remote-preview-download-progress")
                // The header says it too.
                let window = try XCTUnwrap(controller.windowWidget)
                XCTAssertTrue(Self.subtitles(in: window.gtkWidget).contains { $0.contains("Downloading") }, "\(Self.subtitles(in: window.gtkWidget))")
                XCTAssertTrue(spin { controller.currentState == "ready" }, controller.currentState)
            }
        }
    }

    func testSFTPServerKilledMidDownloadShowsTheErrorPageAndRetryWorksAfterARestart() throws { try serverKilledMidDownload(.sftp) }
    func testSMBServerKilledMidDownloadShowsTheErrorPageAndRetryWorksAfterARestart() throws { try serverKilledMidDownload(.smb) }
    func testWebDAVServerKilledMidDownloadShowsTheErrorPageAndRetryWorksAfterARestart() throws { try serverKilledMidDownload(.dav) }

    private func serverKilledMidDownload(_ kind: RemoteServer.Kind) throws {
        let server = try RemoteServer.start(kind)
        defer { server.stop() }
        let pdf = RemoteTestFiles.pdf(padding: 3_000_000)
        _ = try server.folder.write("Contract.pdf", bytes: pdf)
        server.openToServer()
        let link = try ThrottledLink(to: server, bytesPerSecond: Self.rate)
        defer { link.stop() }
        try link.mount()
        let cache = RemoteCache()
        // What the cache holds already (earlier tests' copies), to tell this test's apart.
        let cached = { Set((FileManager.default.enumerator(atPath: cache.root.path)?.allObjects as? [String]) ?? []) }
        let before = cached()
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let controller = PreviewController()
            let list = PreviewItemList([PreviewItem(url: try XCTUnwrap(URL(string: link.uri("Contract.pdf"))))])
            controller.dataSource = list
            controller.present()
            defer { controller.dismiss() }
            XCTAssertTrue(spin { (controller.currentPage?.downloadProgress?.bytesDone ?? 0) > 200_000 }, "\(kind): \(controller.currentState)")

            // The server goes away in the middle: the error page, with Retry, and no copy.
            server.kill()
            if kind == .dav {
                // Apache wrote its whole reply into the kernel's socket buffers at once, and a
                // killed process's sockets still deliver what they hold, so the link would pass
                // the rest at its pace; a server machine that dies takes that with it.
                link.cut()
            }
            XCTAssertTrue(spin { controller.currentState.hasPrefix("failed") }, "\(kind): \(controller.currentState)")
            let page = try XCTUnwrap(controller.currentPage)
            XCTAssertNil(page.localCopy)
            XCTAssertTrue(gtk_widget_get_visible(page.retryButton) != 0, "\(kind): the error page offers Retry")
            let partials = cached().subtracting(before).filter { $0.contains(".partial-") || $0.hasSuffix("Contract.pdf") }
            XCTAssertEqual(partials, [], "\(kind): a failed download leaves nothing a later call would take for whole")
            waitUntilDrawn()
            Screenshots.take("remote-preview-server-gone-\(kind)")

            // Back: the server restarted. GVFS's SFTP backend ended with its connection, but
            // gvfsd still lists the dead mount for a while; the user connects again (the
            // fixture answers the password GTK's dialog would ask for), then Retry. SMB and
            // WebDAV mounts outlive their connections: Retry alone.
            try server.restart()
            if kind == .sftp {
                try link.unmount()
                try link.mount()
            }
            // As Enter on it: GTK shows the button pressed, then sends `clicked`.
            gtk_widget_activate(page.retryButton)
            XCTAssertTrue(spin { page.state == .loading }, "\(kind): Retry started nothing: \(controller.currentState)")
            XCTAssertTrue(spin { page.state != .loading }, "\(kind): \(controller.currentState)")
            XCTAssertEqual(controller.currentState, "ready", "\(kind)")
            XCTAssertTrue(page.localCopy.map { Array((try? Data(contentsOf: $0.url)) ?? Data()) } == pdf, "\(kind): the retry downloaded the whole file")
        }
    }

    // MARK: Support

    /// The texts of the labels in `widget`'s tree (the header's title and subtitle among them).
    @MainActor
    private static func subtitles(in widget: WidgetPointer) -> [String] {
        var texts: [String] = []
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0,
           let text = gtk_label_get_text(OpaquePointer(widget)) {
            texts.append(String(cString: text))
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            texts += subtitles(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }
}
