import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Names are bytes: a name that is not UTF-8 keeps its bytes from a file URL to the file.
final class FileSystemPathTests: XCTestCase {
    /// "café" in Latin-1, "日本" in Shift_JIS and "Ñandú" in CP437: none of them UTF-8.
    static let legacyNames: [[UInt8]] = [
        Array("caf".utf8) + [0xE9] + Array(".txt".utf8),
        [0x93, 0xFA, 0x96, 0x7B] + Array(".txt".utf8),
        [0xA5] + Array("and".utf8) + [0xA3] + Array(".txt".utf8),
    ]

    func testANameThatIsNotUTF8KeepsItsBytesFromItsURLToTheFile() throws {
        let folder = try TemporaryFolder()
        for (index, name) in Self.legacyNames.enumerated() {
            let path = FileSystemPath(bytes: folder.url.rawPath.bytes + [UInt8(ascii: "/")] + name)
            XCTAssertNil(path.string, "not UTF-8")
            XCTAssertEqual(path.lastComponent, name)
            let url = path.url
            XCTAssertTrue(url.isFileURL)
            XCTAssertEqual(url.rawPath, path, "the URL's escapes keep the bytes")
            XCTAssertEqual(url.parseName, url.absoluteString, "written as its URI, which GIO reads back")

            let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            XCTAssertGreaterThanOrEqual(fd, 0, "made \(index)")
            XCTAssertEqual(write(fd, "hello\n", 6), 6)
            close(fd)

            let info = try ItemInfo.inspect(url)
            XCTAssertEqual(info.kind, .regular)
            XCTAssertEqual(info.size, 6)
            XCTAssertEqual(info.type.identifier, "text/plain", "typed by its .txt, which the bytes keep")
            XCTAssertEqual(info.url, url)
            XCTAssertEqual(try ItemInfo.inspect(url.absoluteString).url, url, "the URI as an argument")
            XCTAssertTrue(info.displayName.hasSuffix(".txt (invalid encoding)"), info.displayName)
            XCTAssertTrue(info.displayName.contains("\u{FFFD}"), "an invalid byte is visible: \(info.displayName)")
            XCTAssertEqual(url.fileDisplayName, info.displayName, "GIO's display name and Dossier's agree")
            XCTAssertEqual(try DocumentType(contentsOf: url.rawPath).identifier, "text/plain")
            let handle = try XCTUnwrap(FileHandle(forReadingAt: url.rawPath))
            XCTAssertEqual(try handle.readToEnd(), Data("hello\n".utf8))
        }
        // What Foundation's String path would have named instead: nothing there.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count, Self.legacyNames.count)
    }

    func testALatin1NameIsEscapedAsGLibEscapesIt() {
        let path = FileSystemPath(bytes: Array("/tmp/caf".utf8) + [0xE9] + Array(".txt".utf8))
        XCTAssertEqual(path.url.absoluteString, "file:///tmp/caf%E9.txt")
        XCTAssertEqual(URL(string: "file:///tmp/caf%E9.txt")?.rawPath, path)
        XCTAssertEqual(path.displayName, "caf\u{FFFD}.txt (invalid encoding)")
        XCTAssertEqual(path.nameForMatching, "caf\u{FFFD}.txt")
    }

    func testAUTF8PathGetsFoundationsOwnURL() {
        let text = "/tmp/a b/ü 100%.txt"
        let path = FileSystemPath(text)
        XCTAssertEqual(path.url, URL(fileURLWithPath: text))
        XCTAssertEqual(URL(fileURLWithPath: text).rawPath, path, "escapes of spaces, ü and % decode to the same bytes")
        XCTAssertEqual(path.string, text)
        XCTAssertEqual(path.displayName, "ü 100%.txt")
        XCTAssertEqual(path.url.parseName, text)
        XCTAssertEqual(FileSystemPath("/tmp/folder/").lastComponent, Array("folder".utf8))
        // A folder's URL ends in a slash; its path, as URL.path gives it, does not.
        let folder = URL(fileURLWithPath: "/tmp/a folder", isDirectory: true)
        XCTAssertEqual(folder.rawPath.string, folder.path)
        XCTAssertEqual(URL(fileURLWithPath: "/", isDirectory: true).rawPath.string, "/")
    }

    func testAnEscapedSlashOrNULNeverCutsOrSplitsThePath() {
        // As Foundation and GLib leave them: "%00" would end the C string at "/etc/x".
        XCTAssertEqual(URL(string: "file:///etc/x%00.png")?.rawPath.description, "/etc/x%00.png")
        XCTAssertEqual(URL(string: "file:///tmp/a%2Fb")?.rawPath.description, "/tmp/a%2Fb")
        XCTAssertEqual(URL(string: "file:///tmp/caf%E9%2f")?.rawPath.bytes, Array("/tmp/caf".utf8) + [0xE9] + Array("%2f".utf8))
    }

    func testAFolderWhoseNameIsNotUTF8IsRefusedNotListedAsAnother() throws {
        // Its URL's path string is empty, which once listed "/".
        let folder = try TemporaryFolder()
        let latin1 = FileSystemPath(bytes: folder.url.rawPath.bytes + Array("/caf".utf8) + [0xE9])
        XCTAssertEqual(latin1.withCString { mkdir($0, 0o700) }, 0)
        XCTAssertThrowsError(try DirectoryQuery.gather(folder: latin1.url)) { error in
            XCTAssertTrue("\(error)".contains("not UTF-8"), "\(error)")
        }
    }
}
