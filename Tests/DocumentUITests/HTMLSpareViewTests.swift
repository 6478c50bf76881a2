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

    /// The filter compiled ahead with the spare view still blocks a page's remote content: a
    /// listener on 127.0.0.1 is never connected to while the page loads to its end.
    func testThePagesAfterTheSpareKeepTheirRemoteContentBlocked() throws {
        let listener = try Listener()
        let folder = try TemporaryFolder("dossier-spare-filter")
        let pages = try (1...2).map { index in
            try folder.write("page-\(index).html", """
                <p>Page \(index)</p><img src="http://127.0.0.1:\(listener.port)/image-\(index).png">
                <link rel="stylesheet" href="http://127.0.0.1:\(listener.port)/style.css">
                """)
        }
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            var error: UnsafeMutablePointer<CChar>?
            try XCTSkipUnless(dossier_webkit_load(&error) != 0, "WebKitGTK is not installed")
            HTMLRenderer.prepareSpareWebView()
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            gtk_window_present(cast(window))
            for url in pages {
                let page = PreviewPage(item: PreviewItem(url: url))
                gtk_window_set_child(cast(window), page.view)
                page.start()
                XCTAssertTrue(spin(timeout: 75) { page.state != .loading }, "\(url.lastPathComponent) ends loading")
                XCTAssertEqual(page.state, .ready)
            }
        }
        XCTAssertEqual(listener.connections, 0, "a page reached the network")
    }
}

/// A TCP listener on 127.0.0.1 that counts the connections it gets.
private final class Listener: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let lock = NSLock()
    private var accepted = 0
    var connections: Int { lock.withLock { accepted } }

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 16) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard socket >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(socket, nil, nil)
                guard connection >= 0 else { return }
                lock.withLock { accepted += 1 }
                close(connection)
            }
        }
    }

    deinit { shutdown(socket, Int32(SHUT_RDWR)); close(socket) }
}
