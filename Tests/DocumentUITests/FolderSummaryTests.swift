import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The folder summary's bounded walk on folders the test makes.
final class FolderSummaryTests: XCTestCase {
    private func makeFolder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-folder-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let inside = root.appendingPathComponent("inside")
        try FileManager.default.createDirectory(at: inside.appendingPathComponent("deeper"), withIntermediateDirectories: true)
        try Data(count: 100).write(to: root.appendingPathComponent("a.bin"))
        try Data(count: 20).write(to: inside.appendingPathComponent("b.bin"))
        try Data(count: 3).write(to: inside.appendingPathComponent("deeper/c.bin"))
        // A link to a big folder elsewhere: counted as one item, never entered.
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("usr").path, withDestinationPath: "/usr")
        return root
    }

    func testEverythingInsideIsCountedAndLinksAreNotFollowed() throws {
        let root = try makeFolder()
        let summary = try FolderSummary.measure(root.rawPath).get()
        XCTAssertEqual(summary, FolderSummary(directItems: 3, totalItems: 6, totalSize: 123, isComplete: true,
                                              isDirectCountComplete: true, unreadableFolders: 0))
        XCTAssertEqual(FolderRenderer.describe(summary), ["3 items", "6 items in all, totalling 123 bytes"])
    }

    func testTheWalkStopsAtItsLimitAndSaysMoreThan() throws {
        let root = try makeFolder()
        let summary = try FolderSummary.measure(root.rawPath, entryLimit: 4).get()
        XCTAssertFalse(summary.isComplete)
        XCTAssertTrue(summary.isDirectCountComplete, "the folder's own entries come first")
        XCTAssertEqual(summary.totalItems, 4)
        XCTAssertTrue(FolderRenderer.describe(summary).last?.hasPrefix("More than 4 items in all, totalling more than ") == true)
    }

    func testAKeptPageShownAgainCountsAgainWhatChangedDeeper() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
        let root = try makeFolder()
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            let page = PreviewPage(item: PreviewItem(url: root))
            gtk_window_set_child(cast(window), page.view)
            gtk_window_present(cast(window))
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let renderer = try XCTUnwrap(page.renderer as? FolderRenderer)
            XCTAssertTrue(renderer.summaryText.contains("6 items in all"), renderer.summaryText)

            gtk_widget_set_visible(window, 0)  // the previewer closed, its page kept
            XCTAssertTrue(spin { gtk_widget_get_mapped(renderer.view.gtkWidget) == 0 })
            // Deeper inside: the folder's own time does not change, so the page is shown again.
            try Data(count: 4).write(to: root.appendingPathComponent("inside/deeper/d.bin"))
            gtk_window_present(cast(window))
            XCTAssertTrue(spin { renderer.summaryText.contains("7 items in all, totalling 127 bytes") }, renderer.summaryText)
        }
    }

    func testAMissingFolderFails() {
        guard case .failure = FolderSummary.measure(FileSystemPath("/nonexistent-\(UUID().uuidString)")) else { return XCTFail() }
    }
}
