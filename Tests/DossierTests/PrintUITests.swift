import DossierFixtures
import Foundation
import XCTest

/// Print as a user meets it in the previewer (`dossier preview`): Ctrl+P opens GTK's print
/// dialog above the previewer for an item Dossier prints, and does nothing for one it does not;
/// the window's menu offers Print… only for the first.
final class PrintUITests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
    }

    /// The print dialog's window (GtkPrintUnixDialog, titled "Print") in the tree.
    private func printDialogShown() -> Bool {
        DesktopSession.accessibleNames().contains { $0 == "dialog: Print" || $0 == "frame: Print" || $0 == "window: Print" }
    }

    func testCtrlPOpensThePrintDialogForAPrintableItemOnly() throws {
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("archive.zip").path,
                                             samples.appendingPathComponent("document.pdf").path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Contents of archive.zip"))
        DesktopSession.click(x: 450, y: 400)
        // An archive does not print: Ctrl+P does nothing, and the menu has no Print….
        DesktopSession.key("ctrl+p")
        XCTAssertFalse(eventually(timeout: 2) { printDialogShown() }, "no print dialog for an archive")
        XCTAssertTrue(app.isRunning)

        DesktopSession.key("Right")
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"), "the PDF is shown")
        DesktopSession.key("ctrl+p")
        XCTAssertTrue(eventually(timeout: 30) { printDialogShown() }, "Ctrl+P opened GTK's print dialog: \(DesktopSession.accessibleNames())")
        XCTAssertTrue(DesktopSession.waitForAccessible("Print to File"), "with GTK's printers")
        Thread.sleep(forTimeInterval: 1)  // the dialog's first frame, for the screenshot
        let shot = DesktopSession.screenshot("print-dialog")
        XCTAssertGreaterThan(DesktopSession.variation(shot, x: 100, y: 100, width: 800, height: 600), 0.02)

        DesktopSession.key("Escape")
        XCTAssertTrue(eventually(timeout: 15) { !printDialogShown() }, "Escape cancels the dialog")
        XCTAssertTrue(app.isRunning, "the previewer is still there")
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"))
    }
}
