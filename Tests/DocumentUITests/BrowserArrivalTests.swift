import CGtk
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore
@testable import DocumentUI

/// Items that arrive by a live change animate in (a fade and a growth on the frame clock); the
/// folder's listing does not, and nothing moves with animations turned off.
final class BrowserArrivalTests: XCTestCase {
    func testTheLogAnimatesAnArrivalOnceAndCarriesOnAcrossRebinds() {
        MainActor.assumeIsolated {
            let log = ArrivalLog()
            XCTAssertNil(log.animationStart(for: "/a", at: 1_000), "not arrived: no animation")
            log.record(["/a"])
            XCTAssertEqual(log.animationStart(for: "/a", at: 5_000), 5_000, "the first cell starts it now")
            XCTAssertEqual(log.animationStart(for: "/a", at: 50_000), 5_000, "a cell bound again carries on")
            XCTAssertNil(log.animationStart(for: "/a", at: 5_000 + 300_000), "once over, shown at rest")
            XCTAssertNil(log.animationStart(for: "/a", at: 5_000 + 400_000))
        }
    }

    func testANewFileFadesInButNotTheListingNorWithAnimationsOff() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil
                          && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"),
                          "no display: UI tests run under `make test`, which starts Xvfb")
        let folder = try TemporaryFolder("browser-arrival")
        for index in 1...12 { try folder.write(String(format: "file%02d.txt", index), "Line \(index)\n") }
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            dossier_set_animations_enabled(1)
            defer { dossier_set_animations_enabled(1) }
            let window = BrowserTestWindow(location: .folder(url))
            let browser = window.browser
            defer { window.close() }
            XCTAssertTrue(spin { browser.model.count == 12 && browser.grid.boundItems.count == 12 }, "the folder is shown")
            // A cell decides at bind whether it animates, and an animation's first step is in the
            // next frame: after a drawn frame, the listing has done all it would.
            waitUntilDrawn()
            XCTAssertEqual(browser.grid.animatedArrivals, [], "the listing's items just appear")
            window.screenshot("browser-arrival-0-before")

            // A file made on disk: its cell fades and grows in, on the frame clock.
            let new = url.appendingPathComponent("file00-new.txt")
            try Data("new\n".utf8).write(to: new)
            XCTAssertTrue(spin { browser.grid.animatedArrivals.contains(new.path) }, "the new file's cell animates in")
            let cell = try XCTUnwrap(browser.grid.cell(showing: new))
            XCTAssertTrue(spin(timeout: 60) { (cell.arrival.progress ?? 0) > 0.1 }, "frames move it on")
            let progress = try XCTUnwrap(cell.arrival.progress, "still running")
            XCTAssertLessThan(gtk_widget_get_opacity(cell.root), 1, "half see-through at \(progress)")
            // No main-loop turn until the screenshot: the screen keeps this frame.
            DesktopTest.screenshot("browser-arrival-1-mid")
            XCTAssertTrue(spin(timeout: 60) { cell.arrival.progress == nil }, "it ends")
            XCTAssertEqual(gtk_widget_get_opacity(cell.root), 1, "at rest, fully shown")
            XCTAssertFalse(gtk_widget_has_css_class(cell.root, "dossier-arriving-0") != 0)
            XCTAssertEqual(browser.model.position(of: new), 0, "at its place")
            XCTAssertEqual(browser.grid.animatedArrivals, [new.path], "only the new file animated")
            window.screenshot("browser-arrival-2-after")

            // With animations off, a new file just appears.
            dossier_set_animations_enabled(0)
            let quiet = url.appendingPathComponent("file00-quiet.txt")
            try Data("quiet\n".utf8).write(to: quiet)
            XCTAssertTrue(spin { browser.grid.cell(showing: quiet) != nil }, "the second new file is shown")
            waitUntilDrawn()
            XCTAssertEqual(browser.grid.animatedArrivals, [new.path], "no animation with animations off")
            let quietCell = try XCTUnwrap(browser.grid.cell(showing: quiet))
            XCTAssertNil(quietCell.arrival.progress)
            XCTAssertEqual(gtk_widget_get_opacity(quietCell.root), 1)

            // Another folder's listing does not animate either (animations on again).
            dossier_set_animations_enabled(1)
            let other = url.appendingPathComponent("Other")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            for index in 1...5 { try Data("o\n".utf8).write(to: other.appendingPathComponent("other\(index).txt")) }
            browser.go(to: .folder(other))
            XCTAssertTrue(spin { browser.model.count == 5 && browser.grid.boundItems.count == 5 })
            waitUntilDrawn()
            XCTAssertEqual(browser.grid.animatedArrivals, [new.path], "a listing never animates")
        }
    }

    func testANewFileFadesInInTheListToo() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no display: UI tests run under `make test`")
        let folder = try TemporaryFolder("browser-arrival-list")
        for index in 1...8 { try folder.write(String(format: "file%02d.txt", index), "Line \(index)\n") }
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            dossier_set_animations_enabled(1)
            let window = BrowserTestWindow(location: .folder(url))
            let browser = window.browser
            defer { window.close() }
            browser.viewMode = .list
            let first = url.appendingPathComponent("file01.txt")
            XCTAssertTrue(spin { browser.model.count == 8 && browser.list.nameCell(showing: first) != nil }, "the list is shown")
            waitUntilDrawn()
            XCTAssertEqual(gtk_widget_get_opacity(try XCTUnwrap(browser.list.nameCell(showing: first)).root), 1, "the listing just appears")

            let new = url.appendingPathComponent("file00-new.txt")
            try Data("new\n".utf8).write(to: new)
            var lowest = 1.0
            XCTAssertTrue(spin(timeout: 60) {
                guard let cell = browser.list.nameCell(showing: new) else { return false }
                lowest = min(lowest, gtk_widget_get_opacity(cell.root))
                return lowest < 1 && gtk_widget_get_opacity(cell.root) == 1
            }, "the new row fades in and ends fully shown (lowest opacity \(lowest))")
            XCTAssertLessThan(lowest, 0.9)
            XCTAssertEqual(browser.model.position(of: new), 0)
        }
    }

    func testAFileArrivingThroughAFilterIsRecordedToAnimate() throws {
        let folder = try TemporaryFolder("browser-arrival-filter")
        for index in 1...8 { try folder.write(String(format: "file%02d.txt", index), "x") }
        defer { withExtendedLifetime(folder) {} }
        MainActor.assumeIsolated { [url = folder.url] in
            let model = BrowserListModel()
            let feed = LocationFeed(model: model)
            feed.show(.folder(url), sort: BrowserSort(), showsHidden: false)
            XCTAssertTrue(spin { feed.state == .loaded && model.count == 8 })
            model.filterText = "new"
            XCTAssertEqual(model.count, 0)
            let new = url.appendingPathComponent("file00-new.txt")
            try? Data("x".utf8).write(to: new)
            XCTAssertTrue(spin { model.count == 1 }, "shown through the filter")
            XCTAssertNotNil(model.arrivals.animationStart(for: new.path, at: g_get_monotonic_time()), "and it animates in")
        }
    }
}

/// After the Trash is emptied, what was moved there can no longer be put back: those actions
/// leave the undo stack (and their toasts), the others stay.
final class UndoStackTests: XCTestCase {
    func testEmptyingTheTrashDropsTheTrashingsOnly() {
        MainActor.assumeIsolated {
            let stack = UndoStack()
            let trash = TrashDirectory.home(dataHome: "/tmp/undo-stack")
            let trashed = TrashedItem(name: "a.txt", originalPath: "/tmp/a.txt", deletionDate: nil, trash: trash)
            stack.push("renamed", [.renamed(from: URL(fileURLWithPath: "/tmp/b"), to: URL(fileURLWithPath: "/tmp/c"))])
            stack.push("trashed", [.trashed(trashed)])
            XCTAssertEqual(stack.entries.map(\.title), ["renamed", "trashed"])
            stack.dropTrashings()
            XCTAssertEqual(stack.entries.map(\.title), ["renamed"], "the rename can still be undone, the trashing not")
        }
    }
}
