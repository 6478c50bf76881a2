import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Tags in `user.xdg.tags`, as KDE writes them, and the fallback for file systems without.
final class TagStoreTests: XCTestCase {
    private func getfattr(_ url: URL) throws -> String {
        let result = try OtherProgram.run("/usr/bin/getfattr", ["--only-values", "-n", "user.xdg.tags", url.path])
        return result.status == 0 ? result.output : "(none: \(result.errors.trimmingCharacters(in: .whitespacesAndNewlines)))"
    }

    func testTagListIsTrimmedDedupedAndKeepsItsOrder() {
        XCTAssertEqual(TagList.parse(" work, urgent,work ,, 2024 "), ["work", "urgent", "2024"])
        XCTAssertEqual(TagList.parse(""), [])
        XCTAssertEqual(TagList.format(["a b", "c"]), "a b,c")
    }

    /// A comma followed by a combining mark is one Character, yet still separates the tags: read
    /// by Character, the two tags around it would be one that holds a comma, and a stored tag
    /// that begins with a combining mark would merge with the tag before it.
    func testCommaBeforeCombiningMarkStillSeparatesTags() throws {
        XCTAssertEqual(TagList.parse("a,\u{331}b"), ["a", "\u{331}b"])
        XCTAssertEqual(TagList.parse(TagList.format(["\u{FFFD}", "\u{331}x"])), ["\u{FFFD}", "\u{331}x"])
        XCTAssertEqual(TagList.parse(attribute: [0x80, 0x2c, 0x20, 0xcc, 0xb1, 0x78]), ["\u{FFFD}", "\u{331}x"])
        let folder = try TemporaryFolder()
        let file = try folder.write("a.txt", "a")
        XCTAssertThrowsError(try TagStore(fallbackURL: nil).setTags(["a,\u{301}b"], of: file)) { error in
            XCTAssertEqual(error as? TagError, .invalidTag(tag: "a,\u{301}b"))
        }
    }

    func testTagsAreWrittenAsKDEWritesThemAndReadBackByGetfattr() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("invoice.pdf", "%PDF")
        let store = TagStore(fallbackURL: nil)
        try store.setTags([" invoice", "2024 ", "invoice"], of: file)
        XCTAssertEqual(try getfattr(file), "invoice,2024")
        try store.add(["paid", "2024"], to: file)
        XCTAssertEqual(try getfattr(file), "invoice,2024,paid")
        try store.remove(["2024"], from: file)
        XCTAssertEqual(try store.tags(of: file), ["invoice", "paid"])
        try store.remove(["invoice", "paid"], from: file)
        XCTAssertTrue(try getfattr(file).contains("No such attribute"), "an empty list removes the attribute")
        XCTAssertEqual(try store.tags(of: file), [])
        XCTAssertEqual(store.storage(for: file), .extendedAttribute)
    }

    func testTagsWrittenByAnotherProgramAreRead() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("photo.jpg", "jpg")
        XCTAssertEqual(try OtherProgram.run("/usr/bin/setfattr", ["-n", "user.xdg.tags", "-v", "holiday, beach,holiday", file.path]).status, 0)
        XCTAssertEqual(try TagStore(fallbackURL: nil).tags(of: file), ["holiday", "beach"])
    }

    func testTagsSurviveAnAtomicSave() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes.txt", "v1")
        let store = TagStore(fallbackURL: nil)
        try store.setTags(["keep"], of: file)
        try SafeSave.write(Data("v2".utf8), to: file)
        XCTAssertEqual(try store.tags(of: file), ["keep"])
    }

    func testInvalidTagsAndMissingFilesGiveClearErrors() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a.txt", "a")
        let store = TagStore(fallbackURL: nil)
        XCTAssertThrowsError(try store.setTags(["a,b"], of: file)) { error in
            XCTAssertEqual("\(error)", "'a,b' cannot be a tag: tags cannot contain commas")
        }
        XCTAssertThrowsError(try store.tags(of: folder.url.appendingPathComponent("nope.txt"))) { error in
            XCTAssertEqual(error as? TagError, .notFound(name: "nope.txt"))
        }
    }

    /// A ramfs has no user extended attributes (ENOTSUP), like some FUSE and network file
    /// systems. Mounting one needs root.
    private func mountRamfs() throws -> TemporaryFolder {
        let mountPoint = try TemporaryFolder("dossier-ramfs")
        let result = try OtherProgram.run("/bin/mount", ["-t", "ramfs", "dossier-test", mountPoint.url.path])
        guard result.status == 0 else {
            throw XCTSkip("a ramfs could not be mounted (needs root): \(result.errors)")
        }
        addTeardownBlock {
            _ = try? OtherProgram.run("/bin/umount", [mountPoint.url.path])
            try? FileManager.default.removeItem(at: mountPoint.url)  // XCTest may keep this block
        }
        return mountPoint
    }

    func testFileSystemWithoutExtendedAttributesIsExplainedWithoutAFallback() throws {
        let ramfs = try mountRamfs()
        let file = try ramfs.write("memo.txt", "memo")
        let store = TagStore(fallbackURL: nil)
        XCTAssertEqual(store.storage(for: file), .fallback)
        XCTAssertThrowsError(try store.setTags(["x"], of: file)) { error in
            XCTAssertEqual(error as? TagError, .notSupported(name: "memo.txt", fileSystem: "ramfs"))
            XCTAssertTrue("\(error)".contains("does not store extended attributes"), "\(error)")
        }
    }

    func testFallbackStoreKeepsTagsThatFollowARename() throws {
        let ramfs = try mountRamfs()
        let data = try TemporaryFolder("dossier-data")
        let file = try ramfs.write("memo.txt", "memo")
        let store = TagStore(directories: UserDirectories(home: data.url, configHome: data.url, dataHome: data.url))
        XCTAssertEqual(store.fallbackURL?.path, data.url.appendingPathComponent("dossier/tags.json").path)
        try store.setTags(["draft", "mine"], of: file)
        XCTAssertEqual(store.storage(for: file), .fallback)
        XCTAssertTrue(try getfattr(file).hasPrefix("(none"), "nothing written to the file")
        let renamed = ramfs.url.appendingPathComponent("memo-final.txt")
        try FileManager.default.moveItem(at: file, to: renamed)
        XCTAssertEqual(try store.tags(of: renamed), ["draft", "mine"])
        // Another process's store (a fresh object) reads the same file.
        let other = TagStore(fallbackURL: store.fallbackURL)
        try other.remove(["draft"], from: renamed)
        XCTAssertEqual(try store.tags(of: renamed), ["mine"])
        try other.setTags([], of: renamed)
        XCTAssertEqual(try store.tags(of: renamed), [])
    }
}
