import DocumentCore
import DossierFixtures
import Foundation
import XCTest

final class TypeDetectionTests: XCTestCase {
    /// The name this system's shared-mime-info gives a type: newer ones made some former
    /// aliases canonical (application/x-bzip2, audio/vnd.wave), and the old names aliases.
    private func canonical(_ mimeType: String) -> String { DocumentType(mimeType: mimeType).identifier }

    func testMoreThanThirtyKindsAreRecognisedByName() throws {
        XCTAssertGreaterThanOrEqual(SampleFiles.kinds.count, 30)
        var checked = 0
        for kind in SampleFiles.kinds where kind.name.contains(".") {
            guard let expected = kind.mimeTypeByName else { continue }
            XCTAssertEqual(DocumentType(fileName: kind.name).identifier, canonical(expected), "by name: \(kind.name)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 30)
    }

    func testMoreThanThirtyKindsAreRecognisedFromFilesOnDisk() throws {
        let folder = try TemporaryFolder()
        let files = try SampleFiles.writeAll(into: folder.url)
        for (kind, file) in zip(SampleFiles.kinds, files) {
            XCTAssertEqual(try DocumentType(contentsOf: file.path).identifier, canonical(kind.mimeType), "file: \(kind.name)")
        }
    }

    func testContentAloneIdentifiesFilesWithoutExtension() throws {
        let folder = try TemporaryFolder()
        var checked = 0
        for kind in SampleFiles.kinds where kind.recognisableByContent {
            let file = try folder.write("no-extension-\(checked)", bytes: kind.content)
            XCTAssertEqual(try DocumentType(contentsOf: file.path).identifier, canonical(kind.mimeType), "content of \(kind.name)")
            XCTAssertEqual(DocumentType(content: kind.content, fileName: nil).identifier, canonical(kind.mimeType), "bytes of \(kind.name)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 30)
    }

    func testMisnamedBinaryFilesAreRecognisedByTheirContent() throws {
        let folder = try TemporaryFolder()
        let cases: [(String, [UInt8], String)] = [
            ("holiday.txt", SampleFiles.png, "image/png"),
            ("photo.png", SampleFiles.jpeg, "image/jpeg"),
            ("paper.doc", Array(SampleFiles.pdf.utf8), "application/pdf"),
            ("song.mp3", SampleFiles.oggVorbis, "audio/x-vorbis+ogg"),
            ("archive.tar", SampleFiles.zip(entries: [("a", [1])]), "application/zip"),
        ]
        for (name, bytes, expected) in cases {
            let file = try folder.write(name, bytes: bytes)
            XCTAssertEqual(try DocumentType(contentsOf: file.path).identifier, expected, name)
        }
    }

    func testNameIsKeptWhenContentOnlyConfirmsItsFamily() throws {
        // A .docx is a zip by magic; the name's more specific type wins.
        let docx = SampleFiles.kinds.first { $0.name == "report.docx" }!
        XCTAssertEqual(DocumentType(content: docx.content, fileName: "report.docx").identifier, docx.mimeType)
        // Text with weak magic ("#include") keeps the type its name gives.
        let text = Array("#include <stdio.h>\n".utf8)
        XCTAssertEqual(DocumentType(content: text, fileName: "notes.txt").identifier, "text/plain")
    }

    func testGlobsAreCaseInsensitive() {
        XCTAssertEqual(DocumentType(fileName: "IMG_0001.JPG"), .jpeg)
        XCTAssertEqual(DocumentType(fileName: "Report.PDF"), .pdf)
        XCTAssertEqual(DocumentType(fileName: "Makefile").identifier, "text/x-makefile")
    }

    func testLongestGlobWins() {
        XCTAssertEqual(DocumentType(fileName: "backup.tar.gz").identifier, "application/x-compressed-tar")
        XCTAssertEqual(DocumentType(fileName: "notes.gz").identifier, "application/gzip")
    }

    func testEmptyAndUnknownFiles() throws {
        let folder = try TemporaryFolder()
        let empty = try folder.write("empty", bytes: [])
        XCTAssertEqual(try DocumentType(contentsOf: empty.path), .empty)
        let emptyText = try folder.write("empty.txt", bytes: [])
        XCTAssertEqual(try DocumentType(contentsOf: emptyText.path), .text)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0, 0, 0]
        let unknown = try folder.write("mystery.xyz9", bytes: [0x00, 0x01, 0x02] + noise)
        XCTAssertEqual(try DocumentType(contentsOf: unknown.path), .data)
    }

    func testSpecialFilesAreTypedWithoutBeingRead() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("pipe.txt").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Opening a FIFO for reading with no writer would block forever: it must not be opened.
        XCTAssertEqual(try DocumentType(contentsOf: fifo), .fifo)
        XCTAssertEqual(try DocumentType(contentsOf: "/dev/zero"), .characterDevice)
        XCTAssertEqual(try DocumentType(contentsOf: folder.url.path), .folder)
    }

    func testOnlyTheFirstBytesOfALargeFileAreRead() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("big.bin")
        // A sparse 8 GiB file: reading it whole would take minutes and gigabytes.
        let fd = open(file.path, O_CREAT | O_WRONLY, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(ftruncate(fd, 8 << 30), 0)
        _ = SampleFiles.png.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        close(fd)
        let item = try ItemInfo.inspect(file.path)
        XCTAssertEqual(item.type, .png)
        XCTAssertEqual(item.size, 8 << 30)
    }

    func testMissingFilesAndLinkLoopsGiveClearErrors() throws {
        let folder = try TemporaryFolder()
        XCTAssertThrowsError(try ItemInfo.inspect(folder.url.appendingPathComponent("gone.pdf").path)) { error in
            XCTAssertEqual(error as? ItemError, .notFound(name: "gone.pdf"))
            XCTAssertEqual("\(error)", "'gone.pdf' does not exist")
        }
        let a = folder.url.appendingPathComponent("a").path
        let b = folder.url.appendingPathComponent("b").path
        XCTAssertEqual(symlink(b, a), 0)
        XCTAssertEqual(symlink(a, b), 0)
        XCTAssertThrowsError(try ItemInfo.inspect(a)) { error in
            XCTAssertEqual(error as? ItemError, .symlinkLoop(name: "a"))
        }
        let dangling = folder.url.appendingPathComponent("dangling").path
        XCTAssertEqual(symlink("/nonexistent/target", dangling), 0)
        let item = try ItemInfo.inspect(dangling)
        XCTAssertEqual(item.kind, .symbolicLink)
        XCTAssertEqual(item.symlinkTarget, "/nonexistent/target")
    }

    func testOddNamesAreHandled() throws {
        let folder = try TemporaryFolder()
        for name in ["with space.png", "ünïcødé 中文.png", "-leading-dash.png", "new\nline.png", ".hidden.png"] {
            let file = try folder.write(name, bytes: SampleFiles.png)
            let item = try ItemInfo.inspect(file.path)
            XCTAssertEqual(item.type, .png, name)
            XCTAssertEqual(item.displayName, name)
        }
    }
}
