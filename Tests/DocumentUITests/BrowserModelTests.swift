import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The browser's item model with real folders: change sets on disk become exact
/// `items-changed` ranges, sorting, filtering, and the subfolder search's cancellation.
final class BrowserModelTests: XCTestCase {
    func makeFolder(_ names: [String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("browser-model")
        for name in names { try folder.write(name, name) }
        return folder
    }

}

@MainActor
private func load(_ folder: URL, sort: BrowserSort = BrowserSort()) -> (LocationFeed, ChangeRecorder) {
        let model = BrowserListModel()
        let recorder = ChangeRecorder(model)
        let feed = LocationFeed(model: model)
        feed.show(.folder(folder), sort: sort, showsHidden: false)
        XCTAssertTrue(spin { feed.state == .loaded }, "the folder is listed")
        recorder.reset()
        return (feed, recorder)
}

/// Writes a small file into `folder` (making subfolders).
private func write(_ folder: URL, _ name: String, _ text: String = "x") throws {
    let file = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
}

extension BrowserModelTests {

    func testNewFileOnDiskIsOneInsertionAtItsPlace() throws {
        let folder = try makeFolder((1...100).filter { $0 != 50 }.map { String(format: "file%03d.txt", $0) })
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            let (feed, recorder) = load(url)
            XCTAssertEqual(feed.model.count, 99)
            try write(url, "file050.txt", "new")
            XCTAssertTrue(spin { feed.model.count == 100 })
            XCTAssertEqual(recorder.changes, [[49, 0, 1]], "one insertion where the file sorts, not a reset")
            XCTAssertEqual(feed.model[49].name, "file050.txt")
        }
    }

    func testDeletedFileIsOneRemovalAndRenameMovesIt() throws {
        let folder = try makeFolder((1...20).map { String(format: "file%03d.txt", $0) })
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            let (feed, recorder) = load(url)
            try FileManager.default.removeItem(at: url.appendingPathComponent("file010.txt"))
            XCTAssertTrue(spin { feed.model.count == 19 })
            XCTAssertEqual(recorder.changes, [[9, 1, 0]])
            recorder.reset()
            try FileManager.default.moveItem(at: url.appendingPathComponent("file001.txt"),
                                             to: url.appendingPathComponent("zzz.txt"))
            XCTAssertTrue(spin { feed.model.count == 19 && feed.model[18].name == "zzz.txt" })
            XCTAssertEqual(recorder.changes, [[0, 1, 0], [18, 0, 1]], "out at the old place, in at the new one")
        }
    }

    func testFoldersFirstAndSortBySizeAndReversed() throws {
        let folder = try TemporaryFolder("browser-sort")
        try folder.write("b-medium.txt", String(repeating: "x", count: 500))
        try folder.write("a-large.txt", String(repeating: "x", count: 5000))
        try folder.write("c-small.txt", "x")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("z-folder"), withIntermediateDirectories: false)
        defer { withExtendedLifetime(folder) {} }
        MainActor.assumeIsolated { [url = folder.url] in
            let (feed, _) = load(url)
            @MainActor func names() -> [String] { (0..<feed.model.count).map { feed.model[$0].name } }
            XCTAssertEqual(names(), ["z-folder", "a-large.txt", "b-medium.txt", "c-small.txt"])
            feed.setSort(BrowserSort(key: .size))
            XCTAssertTrue(spin { names() == ["z-folder", "c-small.txt", "b-medium.txt", "a-large.txt"] }, "\(names())")
            feed.setSort(BrowserSort(key: .size, reversed: true))
            XCTAssertTrue(spin { names() == ["z-folder", "a-large.txt", "b-medium.txt", "c-small.txt"] },
                          "reversed, folders still first: \(names())")
            feed.setSort(BrowserSort(key: .name, reversed: true))
            XCTAssertTrue(spin { names() == ["z-folder", "c-small.txt", "b-medium.txt", "a-large.txt"] }, "\(names())")
        }
    }

    func testFilterNarrowsAndWidensWithExactRanges() throws {
        let folder = try makeFolder(["apple.txt", "banana.txt", "cherry.txt", "Bärlauch.txt", "blueberry.txt"])
        defer { withExtendedLifetime(folder) {} }
        MainActor.assumeIsolated { [url = folder.url] in
            let (feed, recorder) = load(url)
            let model = feed.model
            XCTAssertEqual((0..<model.count).map { model[$0].name },
                           ["apple.txt", "banana.txt", "Bärlauch.txt", "blueberry.txt", "cherry.txt"])
            model.filterText = "BA"
            XCTAssertEqual((0..<model.count).map { model[$0].name }, ["banana.txt", "Bärlauch.txt"],
                           "case and accents are ignored")
            XCTAssertEqual(recorder.changes, [[3, 2, 0], [0, 1, 0]], "each leaving run removed, highest first")
            recorder.reset()
            model.filterText = ""
            XCTAssertEqual(model.count, 5)
            XCTAssertEqual(recorder.changes, [[0, 0, 1], [3, 0, 2]], "apple back at 0, blueberry and cherry after")
        }
    }

    func testChangesWhileFilteredKeepTheFilter() throws {
        let folder = try makeFolder(["report-1.txt", "notes.txt"])
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            let (feed, recorder) = load(url)
            feed.model.filterText = "report"
            recorder.reset()
            try write(url, "report-2.txt")
            try write(url, "other.txt")
            XCTAssertTrue(spin { feed.model.count == 2 })
            XCTAssertEqual(recorder.changes, [[1, 0, 1]])
            XCTAssertEqual(feed.model[1].name, "report-2.txt")
            feed.model.filterText = ""
            XCTAssertTrue(spin { feed.model.count == 4 })
        }
    }

    func testContentTypesShowFoldersAndThoseTypesOnlyAsFilesComeAndGo() throws {
        let folder = try makeFolder(["notes.md", "todo.txt", "zeta.md"])
        try write(folder.url, "Drafts/inside.txt")
        defer { withExtendedLifetime(folder) {} }
        try MainActor.assumeIsolated { [url = folder.url] in
            let (feed, recorder) = load(url)
            let model = feed.model
            model.contentTypes = [DocumentType(mimeType: "text/markdown")]
            XCTAssertEqual((0..<model.count).map { model[$0].name }, ["Drafts", "notes.md", "zeta.md"], "folders and Markdown only")
            recorder.reset()
            try write(url, "plan.md")
            try write(url, "plan.txt")
            XCTAssertTrue(spin { model.count == 4 })
            XCTAssertEqual(recorder.changes, [[2, 0, 1]], "the new Markdown file inserted at its place")
            try FileManager.default.removeItem(at: url.appendingPathComponent("notes.md"))
            XCTAssertTrue(spin { model.count == 3 })
            model.filterText = "plan"
            XCTAssertEqual((0..<model.count).map { model[$0].name }, ["plan.md"], "the search text narrows it further")
            model.filterText = ""
            model.contentTypes = []
            XCTAssertEqual((0..<model.count).map { model[$0].name }, ["Drafts", "plan.md", "plan.txt", "todo.txt", "zeta.md"])
        }
    }

    func testSubfolderSearchShowsFoldersAndANewSearchCancelsTheOldOne() throws {
        let folder = try TemporaryFolder("browser-search")
        try folder.write("alpha.txt", "x")
        try folder.write("drafts/alpha-draft.txt", "x")
        try folder.write("drafts/old/beta.txt", "x")
        for index in 0..<2000 { try folder.write("bulk/file\(index).txt", "x") }
        defer { withExtendedLifetime(folder) {} }
        MainActor.assumeIsolated { [url = folder.url] in
            let search = SubfolderSearch()
            var alphaCalls = 0
            search.start(in: url, for: "alpha", showsHidden: false) { _, _ in alphaCalls += 1 }
            guard let replaced = search.query else { return XCTFail("the first search runs") }
            var betaResults: [BrowserItem] = []
            var betaFinished = false
            search.start(in: url, for: "BETA", showsHidden: false) { items, finished in
                betaResults = items
                betaFinished = finished
            }
            XCTAssertTrue(spin { betaFinished })
            XCTAssertTrue(waitUntilDoneSending(replaced), "the replaced search's query has stopped")
            XCTAssertEqual(alphaCalls, 0, "the replaced search delivers nothing")
            XCTAssertEqual(betaResults.map(\.name), ["beta.txt"])
            XCTAssertEqual(betaResults.first?.location, "drafts/old", "a result shows its folder")
            XCTAssertFalse(search.isRunning)

            var alpha: [BrowserItem] = []
            search.start(in: url, for: "alpha", showsHidden: false) { items, _ in alpha = items }
            guard let cancelled = search.query else { return XCTFail("the third search runs") }
            search.cancel()
            XCTAssertTrue(waitUntilDoneSending(cancelled), "the cancelled search's query has stopped")
            XCTAssertTrue(alpha.isEmpty, "a cancelled search delivers nothing")
        }
    }

    func testReplaceKeepsStayingItemsAndResetsOnANewOrder() {
        MainActor.assumeIsolated {
            let model = BrowserListModel()
            let recorder = ChangeRecorder(model)
            func item(_ name: String, size: Int64 = 0) -> BrowserItem {
                BrowserItem(url: URL(fileURLWithPath: "/tmp/x/" + name), name: name, isDirectory: false, size: size,
                            type: DocumentType(fileName: name))
            }
            model.replace(with: ["a", "b", "c", "d"].map { item($0) })
            XCTAssertEqual(recorder.changes, [[0, 0, 4]])
            recorder.reset()
            model.replace(with: [item("a"), item("b", size: 9), item("bb"), item("d"), item("e")])
            XCTAssertEqual(recorder.changes, [[2, 1, 0], [2, 0, 1], [4, 0, 1], [1, 1, 1]],
                           "c out, bb and e in, b updated in place")
            recorder.reset()
            model.replace(with: [item("e"), item("d"), item("bb"), item("b"), item("a")])
            XCTAssertEqual(recorder.changes, [[0, 5, 5]], "a new order resets")
        }
    }
}
