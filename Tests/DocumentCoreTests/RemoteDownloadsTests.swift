import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// The download cache's rules, on local files read through the same GIO calls as a server's
/// (the servers themselves are in RemoteLocationTests).
final class RemoteDownloadsTests: XCTestCase {
    private func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    private func entries(_ cache: RemoteCache) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.root.path)) ?? []).sorted()
    }

    private func everyFile(under folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    func testAWholeCopyIsDownloadedOnceAndReused() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("report.pdf", bytes: bytes(1_000_000))
        let downloads = RemoteDownloads(cache: RemoteCache(root: folder.url.appendingPathComponent("cache")))
        let seen = Locked<[DownloadProgress]>([])
        let first = try await downloads.fetch(source) { progress in seen.withLock { $0.append(progress) } }
        XCTAssertEqual(first.url.lastPathComponent, "report.pdf")
        XCTAssertTrue(first.url.path.hasPrefix(downloads.cache.root.path + "/"))
        XCTAssertEqual(try Data(contentsOf: first.url), try Data(contentsOf: source))
        let reports = seen.withLock { $0 }
        XCTAssertEqual(reports.last, DownloadProgress(bytesDone: 1_000_000, bytesExpected: 1_000_000))
        XCTAssertTrue(reports.allSatisfy { $0.bytesExpected == 1_000_000 && $0.bytesDone <= 1_000_000 })

        // The same version again: the same copy, no download (no progress at all).
        seen.withLock { $0 = [] }
        let second = try await downloads.fetch(source) { progress in seen.withLock { $0.append(progress) } }
        XCTAssertEqual(second.url, first.url)
        XCTAssertEqual(seen.withLock { $0 }, [])
        XCTAssertEqual(entries(downloads.cache).count, 1)
    }

    func testAChangedFileDownloadsAgainAndTheOldVersionGoes() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("notes.txt", "first version")
        let downloads = RemoteDownloads(cache: RemoteCache(root: folder.url.appendingPathComponent("cache")))
        let firstPath = try await downloads.fetch(source).url.path
        try Data("the second, longer version".utf8).write(to: source)
        let second = try await downloads.fetch(source)
        XCTAssertNotEqual(second.url.path, firstPath)
        XCTAssertEqual(String(decoding: try Data(contentsOf: second.url), as: UTF8.self), "the second, longer version")
        XCTAssertFalse(FileManager.default.fileExists(atPath: firstPath))
        XCTAssertEqual(entries(downloads.cache).count, 1)
    }

    func testAServerThatSendsMoreThanItAnnouncedLeavesNothing() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("photo.jpg", bytes: bytes(300_000))
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"))
        let downloads = RemoteDownloads(cache: cache)
        let uri = RemoteFiles.canonicalURI(of: source)
        for announced: Int64 in [1000, 400_000] {
            let lie = RemoteFileInfo(uri: uri, name: "photo.jpg", size: announced, etag: "v\(announced)", modified: 1)
            do {
                _ = try await downloads.fetch(lie)
                XCTFail("a size that lies was taken")
            } catch {
                XCTAssertEqual(error, .sizeMismatch(name: "photo.jpg", expected: announced,
                                                   received: announced < 300_000 ? Int64(RemoteTransfer.chunk) : 300_000))
            }
            XCTAssertNil(cache.lookup(lie))
        }
        XCTAssertEqual(everyFile(under: cache.root), [])
    }

    func testHostileNamesAreRefusedAndNothingIsWrittenOutside() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("plain", bytes: bytes(100))
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"))
        let downloads = RemoteDownloads(cache: cache)
        let uri = RemoteFiles.canonicalURI(of: source)
        for name in ["../escaped", "a/b", "..", ".", ""] {
            let info = RemoteFileInfo(uri: uri, name: name, size: 100, etag: nil, modified: 1)
            do {
                _ = try await downloads.fetch(info)
                XCTFail("'\(name)' was taken as a file name")
            } catch {
                XCTAssertEqual(error, .unsafeName(name))
                XCTAssertFalse(error.isRetryable)
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted(), ["plain"])
        // A very long name is cut to fit, keeping its extension.
        let long = RemoteFileInfo(uri: uri, name: String(repeating: "é", count: 200) + ".pdf", size: 100, etag: nil, modified: 1)
        let copy = try await downloads.fetch(long)
        XCTAssertLessThanOrEqual(copy.url.lastPathComponent.utf8.count, 255)
        XCTAssertTrue(copy.url.lastPathComponent.hasSuffix(".pdf"))
    }

    func testAFileLargerThanTheCacheIsRefused() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("big.bin", bytes: bytes(5000))
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"), limit: 4000)
        do {
            _ = try await RemoteDownloads(cache: cache).fetch(source)
            XCTFail("a file larger than the cache was downloaded")
        } catch {
            XCTAssertEqual(error, .tooLarge(name: "big.bin", size: 5000, limit: 4000))
        }
        XCTAssertEqual(everyFile(under: cache.root), [])
    }

    func testAFolderIsNotDownloaded() async throws {
        let folder = try TemporaryFolder()
        let downloads = RemoteDownloads(cache: RemoteCache(root: folder.url.appendingPathComponent("cache")))
        do {
            _ = try await downloads.fetch(folder.url)
            XCTFail("a folder was downloaded")
        } catch {
            XCTAssertEqual(error, .notAFile(name: folder.url.lastPathComponent))
        }
    }

    func testAMissingFileIsUnreachable() async throws {
        let folder = try TemporaryFolder()
        let downloads = RemoteDownloads(cache: RemoteCache(root: folder.url.appendingPathComponent("cache")))
        do {
            _ = try await downloads.fetch(folder.url.appendingPathComponent("gone.pdf"))
            XCTFail("a missing file was downloaded")
        } catch {
            guard case .unreachable(let name, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "gone.pdf")
            XCTAssertTrue(error.isRetryable)
        }
    }

    func testTheOldestEntryGoesFirstAndOneInUseStays() async throws {
        let folder = try TemporaryFolder()
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"), limit: 3500)
        let downloads = RemoteDownloads(cache: cache)
        let files = try (1...4).map { try folder.write("file\($0).bin", bytes: bytes(1000, seed: UInt8($0))) }
        let held = try await downloads.fetch(files[0])
        var lastPath = ""
        for file in files[1...2] {
            lastPath = try await downloads.fetch(file).url.path
            // Entries' last use is kept in whole seconds: make the order plain.
            utimes(URL(fileURLWithPath: lastPath).deletingLastPathComponent().path, nil)
        }
        let second = cache.folder(for: try await info(of: files[1]))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: second.path)
        let firstFolder = held.url.deletingLastPathComponent()
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: firstFolder.path)
        // The fourth goes past the bound: the oldest entry not in use (the second) goes; the
        // first, older still but held, stays.
        let fourth = try await downloads.fetch(files[3])
        XCTAssertTrue(FileManager.default.fileExists(atPath: held.url.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: second.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: lastPath))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fourth.url.path))
        XCTAssertEqual(entries(cache).count, 3)
    }

    /// What GIO says of `url` (for local files, an ETag made of the modification time).
    private func info(of url: URL) async throws -> RemoteFileInfo {
        try await RemoteFileInfo.query(url, priority: 0, cancellable: IOCancellable())
    }

    func testConcurrentRequestsShareOneDownload() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("shared.bin", bytes: bytes(2_000_000))
        let downloads = RemoteDownloads(cache: RemoteCache(root: folder.url.appendingPathComponent("cache")))
        let copies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<6 {
                group.addTask { try await downloads.fetch(source, priority: index == 0 ? .userInitiated : .background).url.path }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(Set(copies).count, 1)
        XCTAssertEqual(downloads.transfersStarted, 1)
    }

    func testACancelledDownloadLeavesNothing() async throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("large.bin", bytes: bytes(8_000_000))
        let cache = RemoteCache(root: folder.url.appendingPathComponent("cache"))
        let downloads = RemoteDownloads(cache: cache)
        let started = AsyncStream<Void>.makeStream()
        let task = Task {
            try await downloads.fetch(source) { _ in started.continuation.yield() }
        }
        for await _ in started.stream { break }
        task.cancel()
        do {
            _ = try await task.value
            // The last chunk may have landed before the cancel: then the copy is whole.
            let version = try await info(of: source)
            XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(cache.lookup(version)).url).count, 8_000_000)
        } catch let error as RemoteDownloadError {
            XCTAssertEqual(error, .cancelled(name: "large.bin"))
            // The waiter is told at once; the transfer's thread stops at its next chunk and
            // removes its partial file. If it had read the last chunk already, the copy it
            // lands is whole (the cache keeps it for the next ask): never a partial one.
            try await eventually { !self.everyFile(under: cache.root).contains { $0.contains(".partial-") } }
            if let kept = cache.lookup(try await info(of: source)) {
                XCTAssertEqual(try Data(contentsOf: kept.url).count, 8_000_000, "a copy kept after a cancel is whole")
            } else {
                try await eventually { self.everyFile(under: cache.root).isEmpty }
            }
        }
    }

    private func eventually(_ condition: @escaping () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { return XCTFail("the condition never held") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
