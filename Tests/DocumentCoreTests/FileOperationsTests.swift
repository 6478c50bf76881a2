import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Rename, duplicate, new folder, trash and undo on real files in a temporary folder.
/// Copying and moving trees are in `FileTransferTests`.
final class FileOperationsTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var operations: FileOperations!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-ops")
        let trash = Trash(dataHome: folder.url.appendingPathComponent("data"), mounts: .only([]))
        operations = FileOperations(trash: trash)
    }

    override func tearDown() {
        folder = nil
        operations = nil
    }

    private func url(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

    // MARK: Rename

    func testRenameGivesANewNameAndUndoGivesTheOldOneBack() throws {
        let file = try folder.write("a.txt", "a")
        let result = try operations.rename(file, to: "b.txt")
        XCTAssertEqual(result, .renamed(from: file, to: url("b.txt")))
        XCTAssertEqual(Inspect.text(url("b.txt")), "a")
        XCTAssertFalse(Inspect.exists(file))
        let undone = try operations.undo(result)
        XCTAssertEqual(undone, .renamed(from: url("b.txt"), to: file))
        XCTAssertEqual(Inspect.text(file), "a")
    }

    func testRenameErrorsSayWhatIsWrong() throws {
        let file = try folder.write("a.txt", "a")
        try folder.write("b.txt", "b")
        try FileManager.default.createDirectory(at: url("Folder"), withIntermediateDirectories: false)
        let cases: [(String, FileOperationError, String)] = [
            ("", .invalidName(.rename, name: "a.txt", newName: "", problem: .empty),
             "“a.txt” could not be renamed: a name cannot be empty"),
            ("  ", .invalidName(.rename, name: "a.txt", newName: "  ", problem: .empty),
             "“a.txt” could not be renamed: a name cannot be empty"),
            ("x/y.txt", .invalidName(.rename, name: "a.txt", newName: "x/y.txt", problem: .containsSlash),
             "“a.txt” could not be renamed: a name cannot contain “/”"),
            (".", .invalidName(.rename, name: "a.txt", newName: ".", problem: .reserved),
             "“a.txt” could not be renamed: “.” is reserved and cannot be used as a name"),
            ("..", .invalidName(.rename, name: "a.txt", newName: "..", problem: .reserved),
             "“a.txt” could not be renamed: “..” is reserved and cannot be used as a name"),
            (String(repeating: "é", count: 128), .invalidName(.rename, name: "a.txt", newName: String(repeating: "é", count: 128), problem: .tooLong),
             "“a.txt” could not be renamed: the name is longer than 255 bytes"),
            ("b.txt", .alreadyExists(.rename, name: "a.txt", existing: "b.txt", isFolder: false),
             "“a.txt” could not be renamed: a file named “b.txt” already exists"),
            ("Folder", .alreadyExists(.rename, name: "a.txt", existing: "Folder", isFolder: true),
             "“a.txt” could not be renamed: a folder named “Folder” already exists"),
        ]
        for (newName, expected, message) in cases {
            XCTAssertThrowsError(try operations.rename(file, to: newName), newName) { error in
                XCTAssertEqual(error as? FileOperationError, expected)
                XCTAssertEqual("\(error)", message)
                XCTAssertEqual((error as? LocalizedError)?.errorDescription, message)
            }
        }
        XCTAssertEqual(Inspect.text(file), "a")
        XCTAssertEqual(Inspect.text(url("b.txt")), "b")
        XCTAssertThrowsError(try operations.rename(url("missing.txt"), to: "c.txt")) { error in
            XCTAssertEqual(error as? FileOperationError, .notFound(.rename, name: "missing.txt"))
            XCTAssertEqual("\(error)", "“missing.txt” could not be renamed: it does not exist")
        }
    }

    func testRenamingToTheSameNameDoesNothing() throws {
        let file = try folder.write("a.txt", "a")
        XCTAssertEqual(try operations.rename(file, to: "a.txt"), .renamed(from: file, to: file))
        XCTAssertEqual(Inspect.text(file), "a")
    }

    // MARK: Duplicate

    func testDuplicatesAreNamedCopyThenCopy2AndSoOn() throws {
        let notes = try folder.write("notes.txt", "n")
        var names: [String] = []
        for _ in 1...3 {
            names.append(try XCTUnwrap(try operations.duplicate(notes).resultingURL).lastPathComponent)
        }
        XCTAssertEqual(names, ["notes (copy).txt", "notes (copy 2).txt", "notes (copy 3).txt"])
        // Duplicating a copy numbers on from the original name.
        XCTAssertEqual(try operations.duplicate(url("notes (copy).txt")).resultingURL?.lastPathComponent, "notes (copy 4).txt")
        XCTAssertEqual(Inspect.text(url("notes (copy 2).txt")), "n")
    }

    func testDuplicateNamesKeepMultiPartExtensionsAndHandleDotfiles() throws {
        let expectations = [
            "backup.tar.gz": "backup (copy).tar.gz",
            "logs.tar.xz": "logs (copy).tar.xz",
            "data.json.gz": "data.json (copy).gz",
            ".bashrc": ".bashrc (copy)",
            ".config.json": ".config (copy).json",
            "Makefile": "Makefile (copy)",
            "Version 1.5 notes": "Version 1.5 notes (copy)",
            "photo.JPG": "photo (copy).JPG",
        ]
        for (original, expected) in expectations {
            let file = try folder.write(original, original)
            let result = try operations.duplicate(file)
            XCTAssertEqual(result, .duplicated(original: file, copy: url(expected)), original)
            XCTAssertEqual(Inspect.text(url(expected)), original)
        }
        let photos = url("Photos.2024")
        try folder.write("Photos.2024/a.jpg", "jpg")
        XCTAssertEqual(try operations.duplicate(photos).resultingURL?.lastPathComponent, "Photos.2024 (copy)")
        XCTAssertEqual(try operations.duplicate(photos).resultingURL?.lastPathComponent, "Photos.2024 (copy 2)")
        XCTAssertEqual(Inspect.text(url("Photos.2024 (copy 2)/a.jpg")), "jpg")
    }

    // MARK: New folder

    func testNewFoldersAreUntitledFolderThenNumbered() throws {
        var names: [String] = []
        for _ in 1...3 {
            names.append(try XCTUnwrap(try operations.createFolder(in: folder.url).resultingURL).lastPathComponent)
        }
        XCTAssertEqual(names, ["Untitled Folder", "Untitled Folder 2", "Untitled Folder 3"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: url("Untitled Folder 2").path))

        XCTAssertEqual(try operations.createFolder(in: folder.url, named: "Reports"), .createdFolder(url("Reports")))
        XCTAssertThrowsError(try operations.createFolder(in: folder.url, named: "Reports")) { error in
            XCTAssertEqual("\(error)", "The folder “Reports” could not be created: a folder named “Reports” already exists")
        }
        XCTAssertThrowsError(try operations.createFolder(in: folder.url, named: "a/b")) { error in
            XCTAssertEqual(error as? FileOperationError, .invalidName(.createFolder, name: "a/b", newName: "a/b", problem: .containsSlash))
        }
        XCTAssertThrowsError(try operations.createFolder(in: url("missing"))) { error in
            XCTAssertEqual(error as? FileOperationError, .notFound(.createFolder, name: "missing"))
        }
    }

    func testUndoingANewFolderMovesItToTheTrash() throws {
        let result = try operations.createFolder(in: folder.url)
        let undone = try operations.undo(result)
        guard case .trashed(let item) = undone else { return XCTFail("\(undone)") }
        XCTAssertEqual(item.originalPath, url("Untitled Folder").path)
        XCTAssertFalse(Inspect.exists(url("Untitled Folder")))
    }

    // MARK: Trash and delete

    func testTrashUndoAndRedo() throws {
        let file = try folder.write("draft.txt", "draft")
        let trashed = try operations.moveToTrash(file)
        guard case .trashed(let item) = trashed else { return XCTFail("\(trashed)") }
        XCTAssertEqual(item.originalPath, file.path)
        XCTAssertFalse(Inspect.exists(file))
        let restored = try operations.undo(trashed)
        XCTAssertEqual(restored, .restored(item, to: file))
        XCTAssertEqual(Inspect.text(file), "draft")
        guard case .trashed = try operations.undo(restored) else { return XCTFail("redo should trash again") }
        XCTAssertFalse(Inspect.exists(file))
    }

    func testTrashingSeveralItemsReportsTheMissingOneAndTrashesTheRest() throws {
        let a = try folder.write("a.txt", "a")
        let b = try folder.write("b.txt", "b")
        let progress = Progress(totalUnitCount: 0)
        let batch = operations.moveToTrash([a, url("missing.txt"), b], progress: progress)
        XCTAssertEqual(batch.results.count, 2)
        XCTAssertEqual(batch.failures, [.trash(.notFound(name: "missing.txt"))])
        XCTAssertFalse(Inspect.exists(a) || Inspect.exists(b))
        XCTAssertEqual(progress.completedUnitCount, 3)
        XCTAssertEqual(progress.totalUnitCount, 3)
    }

    func testDeletePermanentlyRemovesATreeWithoutFollowingLinksAndCannotBeUndone() throws {
        let outside = try folder.write("outside/keep.txt", "keep")
        let tree = try folder.write("Tree/sub/file.txt", "x").deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createSymbolicLink(
            atPath: tree.appendingPathComponent("out").path, withDestinationPath: outside.deletingLastPathComponent().path)
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("loop").path, withDestinationPath: ".")
        let progress = Progress(totalUnitCount: 0)
        let result = try operations.deletePermanently(tree, progress: progress)
        XCTAssertEqual(result, .deleted(tree))
        XCTAssertFalse(Inspect.exists(tree))
        XCTAssertEqual(Inspect.text(outside), "keep")
        XCTAssertEqual(progress.totalUnitCount, 5)
        XCTAssertEqual(progress.completedUnitCount, 5)
        XCTAssertFalse(result.isUndoable)
        XCTAssertThrowsError(try operations.undo(result)) { error in
            XCTAssertEqual("\(error)", "Deleting “Tree” cannot be undone")
        }
    }
}
