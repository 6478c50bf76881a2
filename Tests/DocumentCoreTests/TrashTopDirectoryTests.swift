import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Items on another file system go to the trash at the top of that file system, never
/// copied to the home trash. Tested twice: on a real tmpfs when this process may mount one,
/// and always on a folder the `MountTable` is told to treat as a file system's top.
final class TrashTopDirectoryTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var dataHome: URL { folder.url.appendingPathComponent("data") }
    private var volume: URL { folder.url.appendingPathComponent("volume") }
    private var simulated: Trash { Trash(dataHome: dataHome, mounts: .simulated([volume])) }
    private let uid = getuid()

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-topdir")
        try FileManager.default.createDirectory(at: volume, withIntermediateDirectories: true)
    }

    override func tearDown() {
        folder = nil
    }

    func testItemOnAnotherFileSystemGoesToItsOwnTrashWithARelativePath() throws {
        let file = try folder.write("volume/Docs/a b.txt", "a")
        let item = try simulated.trash(file)
        let expected = volume.appendingPathComponent(".Trash-\(uid)")
        XCTAssertEqual(item.trash.url.path, expected.path)
        XCTAssertEqual(item.trash.topDirectory?.path, volume.path)
        XCTAssertEqual(Inspect.mode(expected), 0o700)
        XCTAssertEqual(Inspect.text(expected.appendingPathComponent("files/a b.txt")), "a")
        let record = try XCTUnwrap(Inspect.text(expected.appendingPathComponent("info/a b.txt.trashinfo")))
        XCTAssertTrue(record.hasPrefix("[Trash Info]\nPath=Docs/a%20b.txt\nDeletionDate="), record)
        XCTAssertFalse(Inspect.exists(dataHome.appendingPathComponent("Trash/files/a b.txt")))

        XCTAssertEqual(simulated.contents().items, [item])
        XCTAssertEqual(item.originalPath, file.path)
        try simulated.restore(item)
        XCTAssertEqual(Inspect.text(file), "a")
    }

    func testAnAdministratorsStickyTrashFolderIsUsedFirst() throws {
        let shared = volume.appendingPathComponent(".Trash")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        chmod(shared.path, 0o1777)
        let item = try simulated.trash(try folder.write("volume/a.txt", "a"))
        XCTAssertEqual(item.trash.url.path, shared.appendingPathComponent("\(uid)").path)
        XCTAssertTrue(Inspect.exists(shared.appendingPathComponent("\(uid)/files/a.txt")))
        XCTAssertFalse(Inspect.exists(volume.appendingPathComponent(".Trash-\(uid)")))
        XCTAssertEqual(simulated.contents().items, [item])
    }

    func testATrashFolderWithoutTheStickyBitIsNeverUsed() throws {
        let shared = volume.appendingPathComponent(".Trash")
        try FileManager.default.createDirectory(at: shared.appendingPathComponent("\(uid)/info"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shared.appendingPathComponent("\(uid)/files"), withIntermediateDirectories: true)
        chmod(shared.path, 0o777)
        // Someone planted an item there; it must not show up as ours.
        try Data("[Trash Info]\nPath=planted\nDeletionDate=2020-01-01T00:00:00\n".utf8)
            .write(to: shared.appendingPathComponent("\(uid)/info/planted.trashinfo"))
        try Data("x".utf8).write(to: shared.appendingPathComponent("\(uid)/files/planted"))

        let item = try simulated.trash(try folder.write("volume/a.txt", "a"))
        XCTAssertEqual(item.trash.url.path, volume.appendingPathComponent(".Trash-\(uid)").path)
        XCTAssertEqual(simulated.contents().items.map(\.name), ["a.txt"])
    }

    func testATrashFolderThatIsALinkIsNeverUsed() throws {
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        chmod(elsewhere.path, 0o1777)
        try FileManager.default.createSymbolicLink(
            atPath: volume.appendingPathComponent(".Trash").path, withDestinationPath: elsewhere.path)
        let item = try simulated.trash(try folder.write("volume/a.txt", "a"))
        XCTAssertEqual(item.trash.url.path, volume.appendingPathComponent(".Trash-\(uid)").path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    func testAnUnusableTrashFolderIsAnErrorNotACopyToTheHomeTrash() throws {
        // A plain file where .Trash-$uid should be: nothing may be trashed on this volume.
        try folder.write("volume/.Trash-\(uid)", "not a folder")
        let file = try folder.write("volume/a.txt", "a")
        XCTAssertThrowsError(try simulated.trash(file)) { error in
            guard case .noTrashOnVolume(let name, let top, _)? = error as? TrashError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "a.txt")
            XCTAssertEqual(top, volume.path)
            XCTAssertTrue("\(error)".contains("You can delete it permanently instead."), "\(error)")
        }
        XCTAssertEqual(Inspect.text(file), "a")
        XCTAssertFalse(Inspect.exists(dataHome.appendingPathComponent("Trash/files/a.txt")))
    }

    func testARealSecondFileSystemGetsItsOwnTrashAndTheItemIsRenamedNotCopied() throws {
        let mount = try ScratchMount.makeOrSkip()
        let trash = Trash(dataHome: dataHome, mounts: .only([mount.url]))
        let file = mount.url.appendingPathComponent("photo.png")
        try Data(SampleFiles.png).write(to: file)
        let inode = try XCTUnwrap(Inspect.status(file)).st_ino

        let item = try trash.trash(file)
        XCTAssertEqual(item.trash.url.path, mount.url.appendingPathComponent(".Trash-\(uid)").path)
        XCTAssertEqual(Inspect.status(item.url)?.st_ino, inode, "renamed within the file system, not copied")
        let record = try XCTUnwrap(Inspect.text(item.infoURL))
        XCTAssertTrue(record.hasPrefix("[Trash Info]\nPath=photo.png\n"), record)

        // Listed through the mount table, restored in place.
        XCTAssertEqual(trash.contents().items, [item])
        try trash.restore(item)
        XCTAssertEqual(Inspect.status(file)?.st_ino, inode)

        // The same file system found through /proc/self/mountinfo, as the app does.
        let again = try Trash(dataHome: dataHome, mounts: .system).trash(file)
        XCTAssertEqual(again.trash.url.path, item.trash.url.path)
        XCTAssertTrue(Trash(dataHome: dataHome, mounts: .system).contents().items.contains(again))
        try trash.delete(again)
    }
}
