import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// Archive listings and single-entry extraction on tar files the test writes itself. libarchive
/// reads them in a decoder worker (`dossier-decoder`, beside the test bundle); this process
/// checks what comes back and writes an extracted entry into its private folder.
final class ArchiveListingTests: XCTestCase {
    /// A ustar archive of regular files (and folders, for names ending in `/`).
    private func tar(_ entries: [(String, String)]) throws -> URL {
        var data = Data()
        for (name, content) in entries {
            var header = [UInt8](repeating: 0, count: 512)
            func put(_ text: String, at offset: Int) {
                for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte }
            }
            let isFolder = name.hasSuffix("/")
            put(name, at: 0)
            put(isFolder ? "0000755" : "0000644", at: 100)
            put("0000000", at: 108)
            put("0000000", at: 116)
            put(String(format: "%011o", content.utf8.count), at: 124)
            put(String(format: "%011o", 1_704_067_200), at: 136)
            put("        ", at: 148)
            put(isFolder ? "5" : "0", at: 156)
            put("ustar", at: 257)
            put("00", at: 263)
            let sum = header.reduce(0) { $0 + Int($1) }
            put(String(format: "%06o", sum) + "\0 ", at: 148)
            data.append(contentsOf: header)
            var body = Array(content.utf8)
            body += [UInt8](repeating: 0, count: (512 - body.count % 512) % 512)
            data.append(contentsOf: body)
        }
        data.append(contentsOf: [UInt8](repeating: 0, count: 1024))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-test-\(UUID().uuidString).tar")
        try data.write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testEntriesAreNestedFoldersFirstAndUnsafePathsFlaggedOnTop() throws {
        let url = try tar([("top.txt", "top"), ("a/b/c.txt", "c"), ("../escape.txt", "x"), ("a/d.txt", "d"),
                           ("/etc/abs.txt", "abs"), ("./a/", "")])
        let listing = try ArchiveListing.read(url.rawPath, raw: false).get()
        XCTAssertEqual(listing.entries.map { String(repeating: "  ", count: $0.depth) + $0.name },
                       ["../escape.txt", "/etc/abs.txt", "a", "  b", "    c.txt", "  d.txt", "top.txt"])
        XCTAssertEqual(listing.entries.map(\.isUnsafe), [true, true, false, false, false, false, false])
        XCTAssertNil(listing.entries[3].headerIndex, "b is only implied by a path")
        XCTAssertEqual(listing.entries[4].size, 1)
    }

    func testALongListingShowsAScreenfulFirstAndThenEveryEntry() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
        let count = 300
        let url = try tar((0..<count).map { (String(format: "file-%03d.txt", $0), "x") })
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let page = PreviewPage(item: PreviewItem(url: url))
            gtk_window_set_child(cast(window), page.view)
            gtk_window_present(cast(window))
            var listedWhenReady: Int?
            page.stateDidChange = { [weak page] state in
                guard state == .ready else { return }
                listedWhenReady = (page?.renderer as? ArchiveRenderer)?.listedCount
            }
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let renderer = try XCTUnwrap(page.renderer as? ArchiveRenderer)
            XCTAssertEqual(listedWhenReady, ArchiveRenderer.firstRows(height: 700), "the rows that fit, for the first frame")
            XCTAssertTrue(spin { renderer.listedCount == count }, "then every entry")
        }
    }

    func testThePrefetchListsAFirstArchiveAndItsPageShowsThatListing() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
        let url = try tar([("a/b.txt", "b"), ("c.txt", "c")])
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let prefetch = PreviewPrefetch()
            prefetch.start(url)
            var prepared: (any Sendable)??
            Task { @MainActor in prepared = .some(await prefetch.takePrepared(for: url, by: ArchiveRenderer.self)?.value) }
            XCTAssertTrue(spin { prepared != nil })
            let listed = prepared.flatMap { $0 } as? ArchiveRenderer.Prepared
            guard case .success(let listing) = listed?.listing else { return XCTFail("\(String(describing: prepared))") }
            XCTAssertEqual(listing.entries.map(\.name), ["a", "b.txt", "c.txt"], "listed by the worker while the service starts")

            prefetch.start(url)  // taken by the page, as the service's first item
            let page = PreviewPage(item: PreviewItem(url: url), prefetch: prefetch)
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            XCTAssertEqual((page.renderer as? ArchiveRenderer)?.listedCount, 3)
            var isLeft: Bool?
            Task { @MainActor in isLeft = await prefetch.takePrepared(for: url, by: ArchiveRenderer.self)?.value != nil }
            XCTAssertTrue(spin { isLeft != nil })
            XCTAssertEqual(isLeft, false, "the page took the prefetched listing")
        }
    }

    func testUnsafePathsAreRecognised() {
        for path in ["../x", "a/../../x", "/x", "\\\\server\\x", "C:\\x", "a\\..\\..\\x"] {
            XCTAssertTrue(ArchiveListing.isUnsafe(path), path)
        }
        for path in ["a/b", "./a", "a..b/c", "..a"] { XCTAssertFalse(ArchiveListing.isUnsafe(path), path) }
    }

    func testOneEntryIsExtractedIntoAPrivateFolderAndUnsafeOnesAreRefused() throws {
        let url = try tar([("../escape.txt", "outside"), ("a/b/c.txt", "inside")])
        let listing = try ArchiveListing.read(url.rawPath, raw: false).get()
        let unsafe = try XCTUnwrap(listing.entries.first { $0.isUnsafe })
        XCTAssertThrowsError(try ArchiveExtraction.extract(unsafe, from: url.rawPath, raw: false))
        let folder = ArchiveExtraction.previewsFolder
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("escape.txt").path))

        let safe = try XCTUnwrap(listing.entries.first { $0.name == "c.txt" })
        let file = try ArchiveExtraction.extract(safe, from: url.rawPath, raw: false)
        XCTAssertEqual(file.lastPathComponent, "c.txt")
        XCTAssertEqual(file.deletingLastPathComponent().deletingLastPathComponent().standardized.path, folder.standardized.path)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "inside")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
        XCTAssertEqual((attributes[.posixPermissions] as? Int), 0o700)
        ArchiveExtraction.remove(file.deletingLastPathComponent())
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path))
    }

    /// A long name in a multi-byte script (a long Chinese name, say) is cut to what a file name
    /// can hold in bytes: cut to 200 characters it could reach 800 bytes, and the entry could not
    /// be extracted ("File name too long").
    func testLongEntryNameIsCutToAFileNameThatCanBeMade() throws {
        func entry(_ path: String) -> ArchiveEntry {
            ArchiveEntry(path: path, name: path, depth: 0, kind: .file, size: 2, modified: nil, isUnsafe: false,
                         isEncrypted: false, linkTarget: nil, headerIndex: 0)
        }
        let long = "报告/" + String(repeating: "年度报告", count: 30) + ".txt"
        let name = ArchiveExtraction.fileName(for: entry(long))
        XCTAssertLessThanOrEqual(name.utf8.count, 255)
        XCTAssertTrue(name.hasSuffix("年度报告.txt"), name)
        XCTAssertTrue(long.hasSuffix(name), "the end of the name is kept, in whole characters")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
        XCTAssertEqual(ArchiveExtraction.fileName(for: entry("a/b/short.txt")), "short.txt")
        XCTAssertEqual(ArchiveExtraction.fileName(for: entry("a/..")), "entry")
        XCTAssertEqual(ArchiveExtraction.fileName(for: entry(String(repeating: "é", count: 300))).utf8.count, 254)
    }

    /// 3,000 entries of 90-byte names (270 KB): far more than a packet of the worker's socket (64 KiB).
    func testAListingLargerThanAPacketComesBackWhole() throws {
        let folder = String(repeating: "long-folder-name-", count: 3)
        let names = (0..<3000).map { String(format: "\(folder)/%04d-", $0) + String(repeating: "x", count: 30) + ".txt" }
        let url = try tar(names.map { ($0, "x") })
        let listing = try ArchiveListing.read(url.rawPath, raw: false).get()
        XCTAssertEqual(listing.entries.count, 3001, "every file and the folder they imply")
        XCTAssertEqual(listing.entries.first?.name, folder)
        XCTAssertEqual(listing.entries.dropFirst().map(\.path), names)
        XCTAssertFalse(listing.isTruncated)
        XCTAssertNil(listing.damage)
    }

    /// `notes.txt.gz` is one entry, named after the file, and previews as the text inside.
    func testALoneCompressedFileIsOneEntryThatExtracts() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-test-\(UUID().uuidString)-notes.txt.gz")
        try Data(SampleFiles.gzip(Array("compressed notes\n".utf8))).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        let listing = try ArchiveListing.read(url.rawPath, raw: true).get()
        let entry = try XCTUnwrap(listing.entries.first)
        XCTAssertEqual(listing.entries.count, 1)
        XCTAssertEqual(entry.name, url.deletingPathExtension().lastPathComponent)
        let file = try ArchiveExtraction.extract(entry, from: url.rawPath, raw: true)
        defer { ArchiveExtraction.remove(file.deletingLastPathComponent()) }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "compressed notes\n")
    }

    /// The whole point of the worker: listing and extracting never load libarchive here.
    func testLibarchiveIsNeverLoadedInThisProcess() throws {
        let url = try tar([("a/b.txt", "inside")])
        let listing = try ArchiveListing.read(url.rawPath, raw: false).get()
        let entry = try XCTUnwrap(listing.entries.first { $0.name == "b.txt" })
        let file = try ArchiveExtraction.extract(entry, from: url.rawPath, raw: false)
        ArchiveExtraction.remove(file.deletingLastPathComponent())
        let maps = try XCTUnwrap(readLines("/proc/self/maps"))
        XCTAssertTrue(maps.contains("libglib"), "the maps were read")
        XCTAssertFalse(maps.contains("libarchive"), "libarchive is mapped into the previewer's process")
    }

    /// /proc files report no size: read line by line.
    private func readLines(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var text = ""
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line { text += String(cString: line) }
        return text
    }

    func testSomethingThatIsNotAnArchiveFailsWithAMessage() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-test-\(UUID().uuidString).zip")
        try Data("PK\u{3}\u{4} this is not really a zip".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        guard case .failure(let error) = ArchiveListing.read(url.rawPath, raw: false) else {
            return XCTFail("a damaged archive is refused")
        }
        XCTAssertTrue(error.description.hasPrefix("The archive could not be read"), error.description)
    }
}
