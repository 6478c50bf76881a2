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

    func testANameRefinesMagicThatManyFormatsShare() throws {
        // An OLE compound file is also every .xls and .ppt; their own magic is missing or rare.
        let ole: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 504)
        XCTAssertEqual(DocumentType(content: ole, fileName: "budget.xls").identifier, "application/vnd.ms-excel")
        XCTAssertEqual(DocumentType(content: ole, fileName: "talk.ppt").identifier, "application/vnd.ms-powerpoint")
        XCTAssertEqual(DocumentType(content: ole, fileName: nil).identifier, "application/x-ole-storage")
        // An ELF shared object is an executable by its magic, and a library by its name.
        var elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 56)
        elf[16] = 3  // ET_DYN
        elf[18] = 0x3E  // x86-64
        XCTAssertEqual(DocumentType(content: elf, fileName: "libz.so.1").identifier, "application/x-sharedlib")
        XCTAssertEqual(DocumentType(content: elf, fileName: "libz.so").identifier, "application/x-sharedlib")
        // "StartFont" is SunOS News fonts' magic, and the start of every Adobe font metrics file.
        let afm = Array("StartFontMetrics 4.1\nFontName Utopia-Regular\n".utf8)
        XCTAssertEqual(DocumentType(content: afm, fileName: "putr.afm").identifier, "application/x-font-afm")
        // A gzipped bitmap font, named for what it is under the compression.
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x08] + [UInt8](repeating: 0, count: 60)
        XCTAssertEqual(DocumentType(content: gzip, fileName: "6x13.pcf.gz").identifier, "application/x-font-pcf")
        XCTAssertEqual(DocumentType(content: gzip, fileName: "notes.gz").identifier, "application/gzip")
        XCTAssertEqual(DocumentType(content: gzip, fileName: "notes.txt").identifier, "application/gzip")
        // Magic that only one format has still wins over a wrong name.
        XCTAssertEqual(DocumentType(content: SampleFiles.jpeg, fileName: "photo.xls").identifier, "image/jpeg")
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
