import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// Archives are read by libarchive in a decoder worker; what comes back is untrusted. A worker
/// that dies ends that request with a message that says so, and the next request works.
final class ArchiveWorkerTests: XCTestCase {
    private func zip(_ entries: [(String, String)], in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent("test.zip")
        try Data(SampleFiles.zip(entries: entries.map { ($0.0, Array($0.1.utf8)) })).write(to: url)
        return url
    }

    private func entry(_ path: String, kind: ArchiveEntry.Kind = .file, size: Int64? = 1, link: String? = nil,
                       index: Int) -> ArchiveEntry {
        ArchiveEntry(path: path, name: path, depth: 0, kind: kind, size: size, modified: Date(timeIntervalSince1970: 1_704_067_200),
                     isUnsafe: false, isEncrypted: false, linkTarget: link, headerIndex: index)
    }

    private func decode(_ bytes: [UInt8]) -> ArchiveListing? {
        bytes.withUnsafeBytes { ArchiveListingCoding.decode($0) }
    }

    func testAnAnswerReadsBackAsTheWorkerSentIt() {
        let listing = ArchiveListing(entries: [entry("a/b.txt", index: 0), entry("a/", kind: .folder, size: nil, index: 1),
                                               entry("link", kind: .link, link: "/etc/passwd", index: 2),
                                               entry("报告.txt", size: -1, index: 3)],
                                     isTruncated: true, damage: "Truncated input file")
        XCTAssertEqual(decode(ArchiveListingCoding.encode(listing)), listing)
    }

    /// The worker could be made to say anything: an answer out of bounds is not believed at all.
    func testAnAnswerOutOfBoundsIsRefusedWhole() {
        let good = ArchiveListingCoding.encode(ArchiveListing(entries: [entry("a.txt", index: 0)], isTruncated: false, damage: nil))
        XCTAssertNotNil(decode(good))
        XCTAssertNil(decode(Array(good.dropLast())), "cut short")
        XCTAssertNil(decode(good + [0]), "bytes after the last entry")
        XCTAssertNil(decode(Array("XXXX".utf8) + good.dropFirst(4)), "not a listing")
        var unknownKind = good
        unknownKind[9] = 7
        XCTAssertNil(decode(unknownKind), "a kind that does not exist")
        var manyEntries = good
        manyEntries.replaceSubrange(5..<9, with: [0xff, 0xff, 0xff, 0x7f])
        XCTAssertNil(decode(manyEntries), "more entries than a listing holds, and than there are bytes")
        let longPath = String(repeating: "x", count: ArchiveListing.pathLimit + 1)
        let withLongPath = ArchiveListingCoding.encode(ArchiveListing(entries: [entry(longPath, index: 0)], isTruncated: false, damage: nil))
        XCTAssertNil(decode(withLongPath), "a path longer than any the worker keeps")
        var lengthPastTheEnd = good
        lengthPastTheEnd.replaceSubrange((good.count - 9)..<(good.count - 5), with: [0xff, 0xff, 0xff, 0xff])
        XCTAssertNil(decode(lengthPastTheEnd), "a text longer than the answer")
    }

    /// A worker killed while it was kept between requests (as a crash would end it): the next
    /// listing ends on the worker's end, said plainly; the one after gets a new worker.
    func testAWorkerThatDiedEndsThatListingWithAMessageAndTheNextWorks() throws {
        let folder = try TemporaryFolder()
        let archive = try zip([("hello.txt", "hello\n")], in: folder)
        let pool = DecoderWorkerPool(count: 1)
        let before = ProcessTree.decoderWorkers()
        XCTAssertEqual(try ArchiveWorkers.list(archive.rawPath, raw: false, workers: pool).entries.map(\.path), ["hello.txt"])
        let started = ProcessTree.decoderWorkers().subtracting(before)
        XCTAssertEqual(started.count, 1, "one worker started for the pool")
        for pid in started { kill(pid, SIGKILL) }

        XCTAssertThrowsError(try ArchiveWorkers.list(archive.rawPath, raw: false, workers: pool)) { error in
            let message = (error as? ArchiveError)?.description ?? "\(error)"
            XCTAssertTrue(message.hasPrefix("The archive could not be read: the decoder stopped: "), message)
        }
        XCTAssertEqual(try ArchiveWorkers.list(archive.rawPath, raw: false, workers: pool).entries.map(\.path), ["hello.txt"],
                       "the next listing is served by a new worker")
    }

    /// A path thousands of folders deep nests no deeper than the limit: the rest of the path
    /// stays in one name, and the tree's memory grows with the path, not with its square.
    func testAVeryDeepPathNestsOnlyToTheDepthLimit() {
        let deep = Array(repeating: "a", count: 30_000).joined(separator: "/") + "/file.txt"
        let listed = ArchiveListing.tree([entry(deep, index: 0), entry("b/top.txt", index: 1)])
        XCTAssertEqual(listed.map(\.depth).max(), ArchiveListing.depthLimit - 1)
        XCTAssertEqual(listed.filter { $0.kind == .file }.count, 2)
        XCTAssertLessThan(listed.reduce(0) { $0 + $1.path.utf8.count }, 4 * deep.utf8.count)
    }
}
