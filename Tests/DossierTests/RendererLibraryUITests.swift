import DossierFixtures
import Foundation
import XCTest

/// WebKitGTK, GStreamer, libarchive and poppler are loaded when a renderer first needs them, not when
/// Dossier starts: without them, the item ends on an error page that says which library is
/// missing, and the previewer keeps working.
final class RendererLibraryUITests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
    }

    func testMissingRendererLibrariesEndOnAnErrorPage() throws {
        let files = ["page.html", "sound.ogg", "archive.zip", "document.pdf", "notes.txt"].map { samples.appendingPathComponent($0).path }
        let missing = "/nonexistent/libdossier-missing.so"
        let app = try DesktopSession.launch([CommandRunner.binary, "preview"] + files, environment: [
            "DOSSIER_WEBKIT_LIBRARY": missing, "DOSSIER_GSTREAMER_LIBRARY": missing, "DOSSIER_ARCHIVE_LIBRARY": missing,
            "DOSSIER_POPPLER_LIBRARY": missing,
        ])
        defer { app.terminate() }
        let reasons = ["Web pages cannot be shown", "GStreamer could not start", "Archives cannot be read", "PDF documents cannot be shown"]
        for (index, name) in ["page.html", "sound.ogg", "archive.zip", "document.pdf"].enumerated() {
            XCTAssertTrue(DesktopSession.waitForAccessible("“\(name)” cannot be shown"), "\(name) ends on an error page")
            XCTAssertTrue(DesktopSession.waitForAccessible(reasons[index]), "the page says why: \(reasons[index])")
            DesktopSession.screenshot("missing-library-\(index)-\(name)")
            if index == 0 { DesktopSession.click(x: 450, y: 400) }
            DesktopSession.key("Right")
        }
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of notes.txt"), "the next item still shows")
        XCTAssertTrue(app.isRunning, "the previewer is still alive")
    }
}
