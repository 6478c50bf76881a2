import DossierFixtures
import Foundation
import XCTest

/// Print as a user meets it: in the previewer (`dossier preview`) Ctrl+P opens GTK's print
/// dialog above the previewer for an item Dossier prints, and does nothing for one it does not;
/// in the browser Ctrl+P prints the selected item, and the options menu offers Print… only for
/// a kind Dossier prints.
final class PrintUITests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
    }

    /// Opens the previewer window's menu with F10 (its primary menu) and returns its items.
    private func openWindowMenu() -> [String] {
        DesktopSession.click(x: 700, y: 400)
        DesktopSession.key("F10")
        var names: [String] = []
        _ = eventually(timeout: 60) {
            names = DesktopSession.menuItems()
            return names.contains("Properties")
        }
        return names
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
        // The item's actions are settled once its Open With button is filled in ("Open With …"):
        // Print… among them, which answers the same question as Ctrl+P (does Dossier print it?).
        XCTAssertTrue(eventually(timeout: 60) { DesktopSession.accessibleNames().contains { $0.contains(": Open With") } },
                      "the Open With button is filled in")
        DesktopSession.click(x: 450, y: 400)
        // An archive does not print: Ctrl+P does nothing, and the menu has no Print…. The menu,
        // opened by keys after Ctrl+P (keys arrive in order), is the barrier: Ctrl+P was handled
        // before it, and for an item Dossier does not print it returns at once, starting nothing.
        DesktopSession.key("ctrl+p")
        let archiveMenu = openWindowMenu()
        XCTAssertTrue(archiveMenu.contains("Properties"), "the window's menu opened: \(archiveMenu)")
        XCTAssertFalse(archiveMenu.contains("Print…"), "the window's menu has no Print… for an archive")
        XCTAssertFalse(printDialogShown(), "no print dialog for an archive")
        DesktopSession.key("Escape")  // the menu has the keyboard: Escape closes it
        XCTAssertTrue(eventually { DesktopSession.menuItems().isEmpty })
        XCTAssertTrue(app.isRunning)

        DesktopSession.key("Right")
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"), "the PDF is shown")
        XCTAssertTrue(openWindowMenu().contains("Print…"), "the window's menu has Print… for a PDF")
        XCTAssertTrue(DesktopSession.activate("Print…", role: "menu item"))
        XCTAssertTrue(eventually(timeout: 60) { printDialogShown() }, "Print… in the menu opened the print dialog")
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually(timeout: 60) { !printDialogShown() })
        DesktopSession.click(x: 700, y: 400)
        DesktopSession.key("ctrl+p")
        XCTAssertTrue(eventually(timeout: 60) { printDialogShown() }, "Ctrl+P opened GTK's print dialog: \(DesktopSession.accessibleNames())")
        XCTAssertTrue(DesktopSession.waitForAccessible("Print to File"), "with GTK's printers")
        // The dialog drawn: its first frame may follow its accessible nodes.
        XCTAssertTrue(eventually(timeout: 60) {
            DesktopSession.variation(DesktopSession.screenshot("print-dialog"), x: 100, y: 100, width: 800, height: 600) > 0.02
        }, "the print dialog is drawn")

        DesktopSession.key("Escape")
        XCTAssertTrue(eventually(timeout: 60) { !printDialogShown() }, "Escape cancels the dialog")
        XCTAssertTrue(app.isRunning, "the previewer is still there")
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"))

        // The dialog's Preview shows the pages in GTK's previewer (Evince, when installed);
        // the previewer is then ready to print again.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/evince") else { return }
        DesktopSession.click(x: 700, y: 400)
        DesktopSession.key("ctrl+p")
        XCTAssertTrue(eventually(timeout: 60) { printDialogShown() }, "Ctrl+P opened the dialog again")
        DesktopSession.key("alt+v")  // the dialog's "Pre_view"
        var window = ""
        XCTAssertTrue(eventually(timeout: 60) {
            window = DesktopSession.run(["/usr/bin/xdotool", "search", "--onlyvisible", "--class", "evince"])
                .split(separator: "\n").first.map(String.init) ?? ""
            return !window.isEmpty
        }, "the pages are previewed")
        Thread.sleep(forTimeInterval: 2)  // Evince's first frame, for the screenshot
        DesktopSession.screenshot("print-preview")
        if let pid = Int32(DesktopSession.run(["/usr/bin/xdotool", "getwindowpid", window]).trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
        }
        XCTAssertTrue(app.isRunning)
        DesktopSession.click(x: 700, y: 400)
        DesktopSession.key("ctrl+p")
        XCTAssertTrue(eventually(timeout: 60) { printDialogShown() }, "after a preview, Ctrl+P opens the dialog again")
        DesktopSession.key("Escape")
    }

    func testTheBrowserPrintsTheSelectedItemAndOffersPrintOnlyWhereItCan() throws {
        let fixture = try BrowserFixture()
        let folder = try fixture.folder("Printing")
        try Data(SampleFiles.pdf.utf8).write(to: folder.appendingPathComponent("report.pdf"))
        try Data(SampleFiles.zip(entries: [(name: "a.txt", data: Array("a".utf8))])).write(to: folder.appendingPathComponent("bundle.zip"))
        let app = try DesktopSession.launch([CommandRunner.binary, folder.path], environment: fixture.environment)
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Printing"), "the window opened")
        DesktopSession.click(x: 640, y: 500)
        XCTAssertTrue(DesktopSession.waitForAccessible("report.pdf"))

        // The archive's menu has no Print….
        let bundle = try XCTUnwrap(DesktopSession.centre(of: "bundle.zip", inApp: "dossier"))
        DesktopSession.click(x: bundle.x, y: bundle.y)
        DesktopSession.key("Menu")
        XCTAssertTrue(DesktopSession.waitForAccessible("Duplicate", timeout: 60), "the options menu opened")
        XCTAssertFalse(DesktopSession.accessibleNames().contains { $0.hasSuffix(": Print…") }, "no Print… for an archive")
        DesktopSession.key("Escape")

        // The PDF's has it, and Ctrl+P opens the dialog.
        let report = try XCTUnwrap(DesktopSession.centre(of: "report.pdf", inApp: "dossier"))
        DesktopSession.click(x: report.x, y: report.y)
        DesktopSession.key("Menu")
        XCTAssertTrue(DesktopSession.waitForAccessible("Print…", timeout: 60), "Print… for a PDF")
        DesktopSession.key("Escape")
        DesktopSession.key("ctrl+p")
        XCTAssertTrue(eventually(timeout: 60) { printDialogShown() }, "Ctrl+P opened the print dialog")
        DesktopSession.screenshot("print-dialog-browser")
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually(timeout: 60) { !printDialogShown() }, "Escape cancels it")
        XCTAssertTrue(app.isRunning)
    }
}
