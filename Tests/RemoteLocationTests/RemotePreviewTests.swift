import CGLib
import CGtk
import DocumentCore
@testable import DocumentUI
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

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
            XCTAssertTrue(Self.initializeDisplay())
            let controller = PreviewController()
            let list = PreviewItemList(items)
            controller.dataSource = list
            controller.present()
            defer { controller.dismiss() }
            for (index, item) in items.enumerated() {
                controller.currentIndex = index
                // The download shows: bytes done of the whole, before the item is ready.
                var progressSeen = false
                XCTAssertTrue(Self.spin {
                    if controller.currentState.hasPrefix("downloading") { progressSeen = true }
                    return controller.currentState == "ready" || controller.currentState.hasPrefix("failed")
                }, "\(kind): \(item.displayTitle) never loaded: \(controller.currentState)")
                XCTAssertEqual(controller.currentState, "ready", "\(kind): \(item.displayTitle)")
                XCTAssertTrue(progressSeen, "\(kind): no progress was shown for \(item.displayTitle)")
                // The title is the remote name; the renderer read the cached copy.
                let window = try XCTUnwrap(controller.windowWidget)
                XCTAssertEqual(gtk_window_get_title(cast(window)).map { String(cString: $0) }, item.displayTitle)
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
                XCTAssertTrue(Self.spin { (controller.currentPage?.downloadProgress?.bytesDone ?? 0) > 300_000 },
                              "the changed file downloads again: \(controller.currentState)")
                Self.waitUntilDrawn()
                Self.screenshot("remote-preview-download-progress")
                // The header says it too.
                let window = try XCTUnwrap(controller.windowWidget)
                XCTAssertTrue(Self.subtitles(in: window).contains { $0.contains("Downloading") }, "\(Self.subtitles(in: window))")
                XCTAssertTrue(Self.spin { controller.currentState == "ready" }, controller.currentState)
            }
        }
    }

    func testSFTPServerKilledMidDownloadShowsTheErrorPageAndRetryWorksAfterARestart() throws {
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        let pdf = RemoteTestFiles.pdf(padding: 3_000_000)
        _ = try server.folder.write("Contract.pdf", bytes: pdf)
        server.openToServer()
        let link = try ThrottledLink(to: server, bytesPerSecond: Self.rate)
        defer { link.stop() }
        try link.mount()
        let cache = RemoteCache()
        try MainActor.assumeIsolated {
            XCTAssertTrue(Self.initializeDisplay())
            let controller = PreviewController()
            let list = PreviewItemList([PreviewItem(url: try XCTUnwrap(URL(string: link.uri("Contract.pdf"))))])
            controller.dataSource = list
            controller.present()
            defer { controller.dismiss() }
            XCTAssertTrue(Self.spin { (controller.currentPage?.downloadProgress?.bytesDone ?? 0) > 200_000 }, controller.currentState)

            // The server goes away in the middle: the error page, with Retry, and no copy.
            server.kill()
            XCTAssertTrue(Self.spin { controller.currentState.hasPrefix("failed") }, controller.currentState)
            let page = try XCTUnwrap(controller.currentPage)
            XCTAssertNil(page.localCopy)
            XCTAssertTrue(gtk_widget_get_visible(page.retryButton) != 0, "the error page offers Retry")
            let partials = (FileManager.default.enumerator(atPath: cache.root.path)?.allObjects as? [String] ?? [])
                .filter { $0.contains(".partial-") || $0.hasSuffix("Contract.pdf") }
            XCTAssertEqual(partials, [], "a failed download leaves nothing a later call would take for whole")
            Self.waitUntilDrawn()
            Self.screenshot("remote-preview-server-gone")

            // Back: the server restarted (GVFS's SFTP mount went with it, so it is mounted
            // again, as the sidebar would), then Retry.
            // Back: the server restarted. GVFS's SFTP backend ended with its connection, but
            // gvfsd still lists the dead mount for a while; the user connects again (the
            // fixture answers the password GTK's dialog would ask for), then Retry.
            try server.restart()
            try link.unmount()
            try link.mount()
            // As Enter on it: GTK shows the button pressed, then sends `clicked`.
            gtk_widget_activate(page.retryButton)
            XCTAssertTrue(Self.spin { page.state == .loading }, "Retry started nothing: \(controller.currentState)")
            XCTAssertTrue(Self.spin { page.state != .loading }, controller.currentState)
            XCTAssertEqual(controller.currentState, "ready")
            XCTAssertTrue(page.localCopy.map { Array((try? Data(contentsOf: $0.url)) ?? Data()) } == pdf, "the retry downloaded the whole file")
        }
    }

    // MARK: A display in the test process

    /// The texts of the labels in `widget`'s tree (the header's title and subtitle among them).
    @MainActor
    private static func subtitles(in widget: Widget) -> [String] {
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

    @MainActor
    private static func initializeDisplay() -> Bool {
        setenv("GTK_A11Y", "none", 1)
        defer { unsetenv("GTK_A11Y") }
        return Display.initialize()
    }

    /// Runs the main context until `condition` holds (60 s: a safety net, not a measure).
    @MainActor
    private static func spin(timeout: TimeInterval = 60, until condition: () -> Bool) -> Bool {
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

    /// Every shown window has drawn a frame begun after the call, and the X server has it.
    @MainActor
    private static func waitUntilDrawn() {
        var frames: [Widget: Int] = [:]
        let counter = FrameCounter()
        let toplevels = gtk_window_list_toplevels()
        var node = toplevels
        var watched: [(Widget, guint)] = []
        while let current = node {
            if let data = current.pointee.data {
                let window = data.assumingMemoryBound(to: GtkWidget.self)
                if gtk_widget_get_mapped(window) != 0 {
                    frames[window] = 0
                    watched.append((window, counter.watch(window)))
                }
            }
            node = current.pointee.next
        }
        g_list_free(toplevels)
        defer { for (window, id) in watched { gtk_widget_remove_tick_callback(window, id) } }
        _ = spin { watched.allSatisfy { counter.ticks[$0.0, default: 0] >= 2 } }
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
    }

    private static func screenshot(_ name: String) {
        let folder = Screenshots.folder
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // system(3), which waits for its own child: Foundation's Process never saw `import` end in
        // this process (it stayed a zombie once GVFS and the decoder workers had run).
        let path = folder.appendingPathComponent(name + ".png").path.replacingOccurrences(of: "'", with: "'\\''")
        _ = system("/usr/bin/import -window root '\(path)'")
    }
}

/// Counts the frame clock's ticks of each watched window.
@MainActor
private final class FrameCounter {
    var ticks: [Widget: Int] = [:]

    func watch(_ window: Widget) -> guint {
        let box = Unmanaged.passRetained(TickBox { [weak self] in self?.ticks[window, default: 0] += 1 }).toOpaque()
        return gtk_widget_add_tick_callback(window, { _, _, data in
            MainActor.assumeIsolated { Unmanaged<TickBox>.fromOpaque(data!).takeUnretainedValue().tick() }
            return 1  // G_SOURCE_CONTINUE
        }, box, { data in Unmanaged<TickBox>.fromOpaque(data!).release() })
    }
}

private final class TickBox {
    let tick: @MainActor () -> Void
    init(_ tick: @escaping @MainActor () -> Void) { self.tick = tick }
}
