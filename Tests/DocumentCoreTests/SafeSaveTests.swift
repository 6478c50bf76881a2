import CGLib
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

final class SafeSaveTests: XCTestCase {
    func testSaveReplacesAtomicallyAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a.txt", "old")
        let before = try XCTUnwrap(FileVersion(at: file))
        let written = try SafeSave.write(Data("new".utf8), to: file, expecting: .version(before))
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "new")
        XCTAssertNotEqual(written.inode, before.inode, "a new inode was renamed into place")
        XCTAssertEqual(written, FileVersion(at: file))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), ["a.txt"])
    }

    func testModeOwnerAndExtendedAttributesAreKept() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("kept.txt", "old", mode: 0o640)
        if getuid() == 0 {
            XCTAssertEqual(chown(file.path, 65534, 65534), 0)
        }
        let hasXattrs = setxattr(file.path, "user.xdg.tags", "red,work", 8, 0) == 0
        try SafeSave.write(Data("new".utf8), to: file)
        var status = stat()
        XCTAssertEqual(stat(file.path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o7777, 0o640)
        if getuid() == 0 {
            XCTAssertEqual(status.st_uid, 65534)
            XCTAssertEqual(status.st_gid, 65534)
        }
        if hasXattrs {
            var value = [CChar](repeating: 0, count: 64)
            let length = getxattr(file.path, "user.xdg.tags", &value, 64)
            XCTAssertEqual(length, 8)
            XCTAssertEqual(String(decoding: value[0..<max(length, 0)].map { UInt8($0) }, as: UTF8.self), "red,work")
        }
    }

    func testSaveThroughASymbolicLinkWritesItsTarget() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("real/target.txt", "old")
        let link = folder.url.appendingPathComponent("link.txt")
        XCTAssertEqual(symlink("real/target.txt", link.path), 0)
        try SafeSave.write(Data("through the link".utf8), to: link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "real/target.txt")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "through the link")
    }

    func testHardLinksKeepSharingTheFile() throws {
        let folder = try TemporaryFolder()
        let first = try folder.write("first.txt", "old")
        let second = folder.url.appendingPathComponent("second.txt")
        XCTAssertEqual(link(first.path, second.path), 0)
        let inode = FileVersion(at: first)?.inode
        try SafeSave.write(Data("new and longer".utf8), to: first)
        XCTAssertEqual(FileVersion(at: first)?.inode, inode, "written in place, as GIO's replace does")
        XCTAssertEqual(try String(contentsOf: second, encoding: .utf8), "new and longer")
    }

    func testSavingOverAnotherProgramsVersionIsAConflictAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("shared.txt", "as read")
        let read = try XCTUnwrap(FileVersion(at: file))
        // Another program saves in between, without coordinating.
        Thread.sleep(forTimeInterval: 0.01)
        try Data("theirs".utf8).write(to: file)
        XCTAssertThrowsError(try SafeSave.write(Data("mine".utf8), to: file, expecting: .version(read))) { error in
            guard case .conflict(let conflict) = error as? SaveError else { return XCTFail("\(error)") }
            XCTAssertEqual(conflict.unsavedContents, Data("mine".utf8))
            XCTAssertEqual(conflict.current, FileVersion(at: file))
            XCTAssertEqual("\(error)", "'shared.txt' was not saved: another program changed it since it was opened")
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "theirs")
        XCTAssertThrowsError(try SafeSave.write(Data("mine".utf8), to: file, expecting: .absent))
    }

    func testSavingIntoAMissingFolderFailsClearly() throws {
        let folder = try TemporaryFolder()
        XCTAssertThrowsError(try SafeSave.write(Data("x".utf8), to: folder.url.appendingPathComponent("gone/x.txt"))) { error in
            XCTAssertEqual("\(error)", "'x.txt' could not be saved: No such file or directory")
        }
    }
}
