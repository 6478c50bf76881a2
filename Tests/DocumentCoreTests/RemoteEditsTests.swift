import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// The rules of edited copies (a remote file's copy an app that takes only paths works on), on
/// local files read and written through the same GIO calls as a server's; the real servers
/// are in RemoteLocationTests (`RemoteUploadTests`).
final class RemoteEditsTests: XCTestCase {
    func testASavedCopyIsReportedKeptFromEvictionAndHandedAgainUntilUploaded() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("Shared/plan.txt", "the plan, first version\n")
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"))
        let edits = RemoteEdits(cache: cache)
        let downloads = RemoteDownloads(cache: cache)
        let heard = Locked<[EditedCopy]>([])
        let observation = edits.observe { edit in heard.withLock { $0.append(edit) } }
        defer { withExtendedLifetime(observation) {} }

        let edit = try edits.prepare(try await downloads.fetch(source), for: "Text Editor")
        XCTAssertEqual(edit.url.lastPathComponent, "plan.txt")
        XCTAssertTrue(edit.url.path.hasPrefix(cache.root.path + "/edit-"))
        XCTAssertEqual(edits.changedCopies, [])

        // The app saves by rename, as editors do.
        let saved = edit.url.deletingLastPathComponent().appendingPathComponent(".plan.txt.saving")
        try Data("the plan, my version\n".utf8).write(to: saved)
        XCTAssertEqual(rename(saved.path, edit.url.path), 0)
        XCTAssertTrue(eventually { heard.withLock { $0.count } == 1 }, "the save was not reported")
        XCTAssertTrue(edits.hasChanges(edit))

        // Kept through a full cache, and handed again (with the changes) when the file is
        // opened again, even after the source changed.
        RemoteCache(root: cache.root, limit: 0).trim()
        try Data("the plan, changed at the source meanwhile\n".utf8).write(to: source)
        let again = try edits.prepare(try await downloads.fetch(source), for: "Text Editor")
        XCTAssertEqual(again.url, edit.url)
        XCTAssertEqual(String(decoding: try Data(contentsOf: again.url), as: UTF8.self), "the plan, my version\n")

        // The source changed since the copy was made: a conflict, and nothing written.
        guard case .serverChanged = try await edits.upload(edit) else { return XCTFail("the change at the source was not seen") }
        XCTAssertEqual(String(decoding: try Data(contentsOf: source), as: UTF8.self), "the plan, changed at the source meanwhile\n")
        guard case .uploaded(let replaced) = try await edits.upload(edit, .replace) else { return XCTFail("Replace failed") }
        XCTAssertEqual(String(decoding: try Data(contentsOf: source), as: UTF8.self), "the plan, my version\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: source.deletingLastPathComponent().path), ["plan.txt"],
                       "no part file left")
        XCTAssertFalse(edits.hasChanges(replaced))
        XCTAssertEqual(edits.changedCopies, [])

        // Saved again, then the change dismissed: forgotten, and evictable again.
        try Data("the plan, third version\n".utf8).write(to: saved)
        XCTAssertEqual(rename(saved.path, edit.url.path), 0)
        XCTAssertTrue(eventually { heard.withLock { $0.count } == 2 }, "the second save was not reported")
        XCTAssertEqual(edits.changedCopies.map(\.url), [edit.url])
        edits.dismiss(edit)
        XCTAssertFalse(edits.hasChanges(edit))
        XCTAssertEqual(edits.changedCopies, [])
    }

    func testACancelledUploadLeavesTheFileAsItWasAndNoPart() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("Shared/big.bin", bytes: [UInt8](repeating: 7, count: 4_000_000))
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"))
        let edits = RemoteEdits(cache: cache)
        let edit = try edits.prepare(try await RemoteDownloads(cache: cache).fetch(source), for: "Editor")
        try Data([UInt8](repeating: 9, count: 4_000_000)).write(to: edit.url)
        let progress = Progress(totalUnitCount: 0)
        progress.cancel()
        do {
            let outcome = try await edits.upload(edit, progress: progress)
            XCTFail("a cancelled upload went on: \(outcome)")
        } catch {
            XCTAssertEqual(error, .cancelled(name: "big.bin"))
        }
        XCTAssertEqual(try Data(contentsOf: source), Data([UInt8](repeating: 7, count: 4_000_000)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: source.deletingLastPathComponent().path), ["big.bin"])
    }

    func testACopyWhoseFileIsGoneIsATypedError() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("gone.txt", "soon gone\n")
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"))
        let edits = RemoteEdits(cache: cache)
        let edit = try edits.prepare(try await RemoteDownloads(cache: cache).fetch(source), for: "Editor")
        try FileManager.default.removeItem(at: edit.url)
        do {
            _ = try await edits.upload(edit)
            XCTFail("a missing copy was uploaded")
        } catch {
            XCTAssertEqual(error, .copyMissing(name: "gone.txt"))
        }
    }
}
