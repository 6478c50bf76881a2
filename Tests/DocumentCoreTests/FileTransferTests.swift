import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Copying and moving trees — with modes, times, links and link loops — within one file
/// system and across two, with progress and cancellation.
final class FileTransferTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let operations = FileOperations(trash: Trash(dataHome: URL(fileURLWithPath: "/nonexistent"), mounts: .only([])))

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-transfer")
    }

    override func tearDown() {
        folder = nil
    }

    private func url(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

    /// A tree with everything that makes copying hard:
    ///
    ///     Tree/            0750, mtime 1_000_000_000
    ///       file.txt       0640, mtime 1_100_000_000
    ///       script.sh      0755
    ///       sub/           0700, mtime 1_200_000_000
    ///         deep.txt
    ///       link -> file.txt, dangling -> missing, self -> self, a -> b, b -> a, up -> ..
    ///       pipe           a FIFO
    private func makeTree(in parent: URL) throws -> URL {
        let tree = parent.appendingPathComponent("Tree")
        let manager = FileManager.default
        try manager.createDirectory(at: tree.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("file".utf8).write(to: tree.appendingPathComponent("file.txt"))
        try Data("#!/bin/sh\n".utf8).write(to: tree.appendingPathComponent("script.sh"))
        try Data("deep".utf8).write(to: tree.appendingPathComponent("sub/deep.txt"))
        for (name, target) in [("link", "file.txt"), ("dangling", "missing"), ("self", "self"), ("a", "b"), ("b", "a"), ("up", "..")] {
            try manager.createSymbolicLink(atPath: tree.appendingPathComponent(name).path, withDestinationPath: target)
        }
        XCTAssertEqual(mkfifo(tree.appendingPathComponent("pipe").path, 0o600), 0)
        chmod(tree.appendingPathComponent("file.txt").path, 0o640)
        chmod(tree.appendingPathComponent("script.sh").path, 0o755)
        chmod(tree.appendingPathComponent("sub").path, 0o700)
        chmod(tree.path, 0o750)
        Inspect.setModified(tree.appendingPathComponent("file.txt"), 1_100_000_000)
        Inspect.setModified(tree.appendingPathComponent("sub/deep.txt"), 1_150_000_000)
        Inspect.setModified(tree.appendingPathComponent("sub"), 1_200_000_000)
        Inspect.setModified(tree, 1_000_000_000)
        return tree
    }

    private func assertIsTree(_ tree: URL, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Inspect.text(tree.appendingPathComponent("file.txt")), "file", file: file, line: line)
        XCTAssertEqual(Inspect.text(tree.appendingPathComponent("sub/deep.txt")), "deep", file: file, line: line)
        XCTAssertEqual(Inspect.mode(tree), 0o750, file: file, line: line)
        XCTAssertEqual(Inspect.mode(tree.appendingPathComponent("file.txt")), 0o640, file: file, line: line)
        XCTAssertEqual(Inspect.mode(tree.appendingPathComponent("script.sh")), 0o755, file: file, line: line)
        XCTAssertEqual(Inspect.mode(tree.appendingPathComponent("sub")), 0o700, file: file, line: line)
        XCTAssertEqual(Inspect.modified(tree), 1_000_000_000, file: file, line: line)
        XCTAssertEqual(Inspect.modified(tree.appendingPathComponent("file.txt")), 1_100_000_000, file: file, line: line)
        XCTAssertEqual(Inspect.modified(tree.appendingPathComponent("sub/deep.txt")), 1_150_000_000, file: file, line: line)
        XCTAssertEqual(Inspect.modified(tree.appendingPathComponent("sub")), 1_200_000_000, file: file, line: line)
        for (name, target) in [("link", "file.txt"), ("dangling", "missing"), ("self", "self"), ("a", "b"), ("b", "a"), ("up", "..")] {
            XCTAssertEqual(Inspect.linkTarget(tree.appendingPathComponent(name)), target, name, file: file, line: line)
        }
        XCTAssertEqual(Inspect.status(tree.appendingPathComponent("pipe")).map { $0.st_mode & S_IFMT }, S_IFIFO, file: file, line: line)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tree.path).sorted()) ?? []
        XCTAssertEqual(names, ["a", "b", "dangling", "file.txt", "link", "pipe", "script.sh", "self", "sub", "up"], file: file, line: line)
    }

    /// A folder on another file system: a tmpfs this test mounts, or /dev/shm.
    private func otherFileSystem() throws -> (URL, AnyObject?) {
        if let mount = try ScratchMount.make() { return (mount.url, mount) }
        let shm = URL(fileURLWithPath: "/dev/shm")
        guard let here = Inspect.status(folder.url), let there = Inspect.status(shm), here.st_dev != there.st_dev,
            access(shm.path, W_OK) == 0
        else { throw XCTSkip("no second file system to move to (cannot mount, no writable /dev/shm)") }
        let scratch = shm.appendingPathComponent("dossier-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        addTeardownBlock { try? FileManager.default.removeItem(at: scratch) }
        return (scratch, nil)
    }

    // MARK: Copy

    func testCopyingATreeKeepsModesTimesAndLinksAndNeverFollowsLinkLoops() throws {
        let tree = try makeTree(in: folder.url)
        let copy = url("Copy of Tree")
        let progress = Progress(totalUnitCount: 0)
        XCTAssertEqual(try operations.copy(tree, to: copy, progress: progress), .copied(source: tree, copy: copy))
        assertIsTree(copy)
        assertIsTree(tree)
        // Units: one per item (12) plus the bytes of the three files.
        XCTAssertEqual(progress.totalUnitCount, 12 + 4 + 10 + 4)
        XCTAssertEqual(progress.completedUnitCount, progress.totalUnitCount)
        XCTAssertEqual(progress.fractionCompleted, 1)
    }

    func testCopyingAcrossFileSystems() throws {
        let tree = try makeTree(in: folder.url)
        let (other, mount) = try otherFileSystem()
        let copy = other.appendingPathComponent("Tree")
        _ = try operations.copy(tree, to: copy)
        assertIsTree(copy)
        withExtendedLifetime(mount) {}
    }

    func testCopyAndMoveNeverReplaceAndNeverGoIntoThemselves() throws {
        let tree = try makeTree(in: folder.url)
        try folder.write("Elsewhere/Tree", "a file in the way")
        XCTAssertThrowsError(try operations.copy(tree, to: url("Elsewhere/Tree"))) { error in
            XCTAssertEqual("\(error)", "“Tree” could not be copied: a file named “Tree” already exists")
        }
        XCTAssertThrowsError(try operations.move(tree, to: url("Elsewhere/Tree"))) { error in
            XCTAssertEqual(error as? FileOperationError, .alreadyExists(.move, name: "Tree", existing: "Tree", isFolder: false))
        }
        XCTAssertThrowsError(try operations.move(tree, to: tree.appendingPathComponent("sub/Tree"))) { error in
            XCTAssertEqual("\(error)", "“Tree” could not be moved: a folder cannot be put inside itself")
        }
        XCTAssertThrowsError(try operations.copy(tree, to: tree.appendingPathComponent("Tree"))) { error in
            XCTAssertEqual(error as? FileOperationError, .intoItself(.copy, name: "Tree"))
        }
        XCTAssertThrowsError(try operations.move(tree, to: url("missing/Tree"))) { error in
            XCTAssertEqual(error as? FileOperationError, .notFound(.move, name: "missing"))
        }
        assertIsTree(tree)
        XCTAssertEqual(Inspect.text(url("Elsewhere/Tree")), "a file in the way")
    }

    func testBatchCopyCarriesOnPastAConflict() throws {
        let a = try folder.write("a.txt", "a")
        let b = try folder.write("b.txt", "b")
        try folder.write("Into/a.txt", "already here")
        let batch = operations.copy([a, b], into: url("Into"))
        XCTAssertEqual(batch.results, [.copied(source: b, copy: url("Into/b.txt"))])
        XCTAssertEqual(batch.failures, [.alreadyExists(.copy, name: "a.txt", existing: "a.txt", isFolder: false)])
        XCTAssertEqual(Inspect.text(url("Into/a.txt")), "already here")
        XCTAssertFalse(batch.wasCancelled)
    }

    // MARK: Move

    func testMovingWithinAFileSystemRenamesAndUndoMovesBack() throws {
        let tree = try makeTree(in: folder.url)
        let inode = try XCTUnwrap(Inspect.status(tree)).st_ino
        try FileManager.default.createDirectory(at: url("Into"), withIntermediateDirectories: false)
        let batch = operations.move([tree], into: url("Into"))
        XCTAssertEqual(batch.failures, [])
        XCTAssertEqual(batch.results, [.moved(from: tree, to: url("Into/Tree"))])
        XCTAssertEqual(Inspect.status(url("Into/Tree"))?.st_ino, inode)
        XCTAssertFalse(Inspect.exists(tree))
        let result = try XCTUnwrap(batch.results.first)
        let moved = try XCTUnwrap(result.resultingURL)
        XCTAssertEqual(try operations.undo(result), .moved(from: moved, to: tree))
        assertIsTree(tree)
    }

    func testMovingAcrossFileSystemsCopiesThenRemovesTheOriginal() throws {
        let tree = try makeTree(in: folder.url)
        let (other, mount) = try otherFileSystem()
        let destination = other.appendingPathComponent("Tree")
        let progress = Progress(totalUnitCount: 0)
        XCTAssertEqual(try operations.move(tree, to: destination, progress: progress), .moved(from: tree, to: destination))
        assertIsTree(destination)
        XCTAssertFalse(Inspect.exists(tree))
        XCTAssertEqual(progress.completedUnitCount, progress.totalUnitCount)
        // And back again, as undo does.
        _ = try operations.move(destination, to: tree)
        assertIsTree(tree)
        withExtendedLifetime(mount) {}
    }

    // MARK: Cancellation

    /// A big file between small ones: cancelling inside it stops GIO mid-file.
    private func makeBigTree() throws -> URL {
        let tree = url("Big")
        try folder.write("Big/1-small.txt", "small")
        var bytes = [UInt8](repeating: 0, count: 16 << 20)
        for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index >> 12) }
        try folder.write("Big/2-big.bin", bytes: bytes)
        try folder.write("Big/3-last.txt", "last")
        return tree
    }

    func testCancellingMidCopyLeavesNoPartialCopy() throws {
        let tree = try makeBigTree()
        for threshold: Int64 in [1, 4 << 20] {  // after the first item; in the middle of the big file
            let progress = CancellingProgress(after: threshold)
            XCTAssertThrowsError(try operations.copy(tree, to: url("Copy"), progress: progress)) { error in
                guard case .cancelled(.copy, _)? = error as? FileOperationError else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".hasSuffix("could not be copied: the operation was cancelled"), "\(error)")
            }
            XCTAssertTrue(progress.isCancelled)
            XCTAssertLessThan(progress.completedUnitCount, progress.totalUnitCount)
            XCTAssertFalse(Inspect.exists(url("Copy")), "threshold \(threshold)")
        }
        // A single big file, cancelled mid-way: GIO leaves a partial file, which must go too.
        let progress = CancellingProgress(after: 4 << 20)
        XCTAssertThrowsError(try operations.copy(tree.appendingPathComponent("2-big.bin"), to: url("big copy.bin"), progress: progress))
        XCTAssertGreaterThan(progress.completedUnitCount, 1 << 20, "GIO reported progress within the file")
        XCTAssertFalse(Inspect.exists(url("big copy.bin")))
        XCTAssertEqual(Inspect.status(tree.appendingPathComponent("2-big.bin"))?.st_size, 16 << 20)
    }

    func testCancellingAMoveAcrossFileSystemsKeepsTheOriginal() throws {
        let tree = try makeBigTree()
        let (other, mount) = try otherFileSystem()
        let progress = CancellingProgress(after: 4 << 20)
        let batch = operations.move([tree, try folder.write("after.txt", "x")], into: other, progress: progress)
        XCTAssertTrue(batch.wasCancelled)
        XCTAssertEqual(batch.results, [])
        XCTAssertFalse(Inspect.exists(other.appendingPathComponent("Big")))
        XCTAssertFalse(Inspect.exists(other.appendingPathComponent("after.txt")), "the batch stops")
        XCTAssertEqual(Inspect.status(tree.appendingPathComponent("2-big.bin"))?.st_size, 16 << 20)
        XCTAssertEqual(Inspect.text(tree.appendingPathComponent("3-last.txt")), "last")
        withExtendedLifetime(mount) {}
    }

    func testAProgressCancelledBeforehandCopiesNothing() throws {
        let tree = try makeBigTree()
        let progress = Progress(totalUnitCount: 0)
        progress.cancel()
        XCTAssertThrowsError(try operations.duplicate(tree, progress: progress)) { error in
            XCTAssertEqual(error as? FileOperationError, .cancelled(.duplicate, name: "Big"))
        }
        XCTAssertFalse(Inspect.exists(url("Big (copy)")))
    }
}

/// A progress that cancels itself once `threshold` units are complete, as a person pressing
/// Stop in the middle would — but at a known point.
final class CancellingProgress: Progress, @unchecked Sendable {
    private var threshold: Int64 = .max

    convenience init(after threshold: Int64) {
        self.init(parent: nil, userInfo: nil)
        self.threshold = threshold
    }

    override var completedUnitCount: Int64 {
        didSet {
            if completedUnitCount >= threshold && !isCancelled { cancel() }
        }
    }
}
