import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Pasting and dropping files: `FileOperations.place` never replaces anything, and the
/// Templates folder is found as xdg-user-dirs names it.
final class PlacingTests: XCTestCase {
    func testPastingIntoAFolderThatHasTheNameGivesTheCopyAFreeName() throws {
        let folder = try TemporaryFolder("dossier-placing")
        let source = try folder.write("from/report.txt", "new\n")
        _ = try folder.write("to/report.txt", "old\n")
        let target = folder.url.appendingPathComponent("to", isDirectory: true)
        let operations = FileOperations(trash: Trash())

        let first = operations.place([source], into: target, move: false)
        XCTAssertEqual(first.failures, [])
        XCTAssertEqual(try String(contentsOf: target.appendingPathComponent("report (copy).txt"), encoding: .utf8), "new\n")
        XCTAssertEqual(try String(contentsOf: target.appendingPathComponent("report.txt"), encoding: .utf8), "old\n", "not replaced")
        _ = operations.place([source], into: target, move: false)
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent("report (copy 2).txt").path))

        let moved = operations.place([source], into: target, move: true)
        XCTAssertEqual(moved.results.count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: source.path), "a cut is a move")
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent("report (copy 3).txt").path))
        XCTAssertEqual(try operations.undo(moved.results[0]), .moved(from: target.appendingPathComponent("report (copy 3).txt"), to: source))
        XCTAssertTrue(FileManager.default.fileExists(atPath: source.path), "undo moves it back")
    }

    func testAMoveIntoItsOwnFolderDoesNothing() throws {
        let folder = try TemporaryFolder("dossier-placing")
        let file = try folder.write("a.txt", "a\n")
        let batch = FileOperations(trash: Trash()).place([file], into: folder.url, move: true)
        XCTAssertTrue(batch.results.isEmpty && batch.failures.isEmpty)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
    }

    func testTemplatesFolderFromUserDirsOrTheDefault() throws {
        let home = try TemporaryFolder("dossier-home")
        let config = home.url.appendingPathComponent(".config", isDirectory: true)
        let directories = UserDirectories(home: home.url, configHome: config, dataHome: home.url.appendingPathComponent(".local/share"))
        XCTAssertNil(directories.templates, "no folder, no templates")
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        XCTAssertEqual(directories.templates?.lastPathComponent, "Templates")
        _ = try home.write(".config/user-dirs.dirs", "XDG_TEMPLATES_DIR=\"$HOME/Vorlagen\"\n")
        XCTAssertNil(directories.templates, "the named folder does not exist")
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("Vorlagen"), withIntermediateDirectories: true)
        XCTAssertEqual(directories.templates?.lastPathComponent, "Vorlagen")
        _ = try home.write(".config/user-dirs.dirs", "XDG_TEMPLATES_DIR=\"$HOME/\"\n")
        XCTAssertNil(directories.templates, "pointing at the home folder disables it")
    }
}
