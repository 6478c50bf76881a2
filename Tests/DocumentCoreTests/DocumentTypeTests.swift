import DocumentCore
import Foundation
import XCTest

final class DocumentTypeTests: XCTestCase {
    func testAliasesResolveToTheCanonicalType() {
        XCTAssertEqual(DocumentType(mimeType: "application/x-pdf"), .pdf)
        XCTAssertEqual(DocumentType(mimeType: "IMAGE/PNG"), .png)
        XCTAssertEqual(DocumentType(mimeType: "text/x-markdown"), .markdown)
    }

    func testDeclaredSubclassesConform() {
        let svg = DocumentType.svg
        XCTAssertTrue(svg.conforms(to: .xml))
        XCTAssertTrue(svg.conforms(to: .text))
        XCTAssertTrue(svg.conforms(to: .image))
        let docx = DocumentType(mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        XCTAssertTrue(docx.conforms(to: .zip))
        XCTAssertTrue(docx.conforms(to: .wordProcessing))
        XCTAssertFalse(docx.conforms(to: .text))
    }

    func testImplicitRulesOfTheSpec() {
        // Every text/* type is text/plain; every non-inode type is application/octet-stream.
        XCTAssertTrue(DocumentType(mimeType: "text/x-csrc").conforms(to: .plainText))
        XCTAssertTrue(DocumentType(mimeType: "text/x-made-up-for-this-test").conforms(to: .text))
        XCTAssertTrue(DocumentType.png.conforms(to: .data))
        XCTAssertTrue(DocumentType(mimeType: "application/x-made-up").conforms(to: .data))
        XCTAssertFalse(DocumentType.folder.conforms(to: .data))
        XCTAssertFalse(DocumentType.png.conforms(to: .text))
    }

    func testMediaFamiliesAndGroups() {
        XCTAssertTrue(DocumentType.jpeg.conforms(to: .image))
        XCTAssertTrue(DocumentType(mimeType: "audio/flac").conforms(to: .audio))
        XCTAssertTrue(DocumentType(mimeType: "video/webm").conforms(to: .movie))
        XCTAssertFalse(DocumentType(mimeType: "video/webm").conforms(to: .audio))
        XCTAssertTrue(DocumentType(mimeType: "text/x-csrc").conforms(to: .sourceCode))
        XCTAssertTrue(DocumentType(mimeType: "text/x-c++src").conforms(to: .sourceCode))
        XCTAssertFalse(DocumentType.markdown.conforms(to: .sourceCode))
        XCTAssertTrue(DocumentType(mimeType: "application/x-compressed-tar").conforms(to: .archive))
        XCTAssertTrue(DocumentType.csv.conforms(to: .spreadsheet))
        XCTAssertTrue(DocumentType(mimeType: "application/vnd.oasis.opendocument.presentation").conforms(to: .presentation))
        XCTAssertTrue(DocumentType(mimeType: "font/ttf").conforms(to: .font))
        XCTAssertTrue(DocumentType(mimeType: "application/x-font-ttf").conforms(to: .font))
        XCTAssertFalse(DocumentType.pdf.conforms(to: .font))
        XCTAssertTrue(DocumentType.sourceCode.isAbstract)
        XCTAssertTrue(DocumentType.image.isAbstract)
    }

    func testSupertypesAreListedNearestFirst() {
        XCTAssertEqual(DocumentType.svg.supertypes.map(\.identifier), ["application/xml", "text/plain", "application/octet-stream"])
        XCTAssertEqual(DocumentType.png.supertypes.map(\.identifier), ["application/octet-stream"])
        XCTAssertEqual(DocumentType(mimeType: "text/x-csrc").conformanceChain.map(\.identifier),
                       ["text/x-csrc", "text/plain", "application/octet-stream"])
        XCTAssertEqual(DocumentType.folder.supertypes, [])
        let chain = DocumentType(mimeType: "application/x-compressed-tar").supertypes.map(\.identifier)
        XCTAssertEqual(chain.first, "application/gzip")
        XCTAssertEqual(chain.last, "application/octet-stream")
    }

    func testDescriptionsComeFromTheMIMEDatabase() {
        XCTAssertEqual(DocumentType.png.localizedDescription, "PNG image")
        XCTAssertEqual(DocumentType.pdf.localizedDescription, "PDF document")
        // "folder" up to shared-mime-info 2.2, "Folder" after.
        XCTAssertEqual(DocumentType.folder.localizedDescription.lowercased(), "folder")
    }

    func testExtensions() {
        XCTAssertEqual(DocumentType.pdf.preferredFilenameExtension, "pdf")
        XCTAssertEqual(DocumentType.jpeg.preferredFilenameExtension, "jpg")
        XCTAssertTrue(Set(DocumentType.jpeg.filenameExtensions).isSuperset(of: ["jpg", "jpeg", "jpe"]))
        XCTAssertEqual(DocumentType.png.filenameExtensions, ["png"])
        XCTAssertEqual(DocumentType(filenameExtension: "md"), .markdown)
        XCTAssertEqual(DocumentType(filenameExtension: "CSV"), .csv)
        XCTAssertNil(DocumentType(filenameExtension: "no-such-extension-anywhere"))
        XCTAssertEqual(DocumentType.folder.filenameExtensions, [])
    }

    func testIconNamesGoFromSpecificToFallback() {
        let png = DocumentType.png.iconNames
        XCTAssertEqual(png.first, "image-png")
        XCTAssertTrue(png.contains("image-x-generic"))
        XCTAssertEqual(png.last, "application-x-generic")
        XCTAssertEqual(DocumentType(mimeType: "text/x-csrc").iconNames.last, "text-x-generic")
        XCTAssertEqual(DocumentType.folder.iconNames.last, "folder")
        XCTAssertEqual(DocumentType.pdf.symbolicIconNames.first, "application-pdf-symbolic")
    }

    func testDeclaredAndUnknownTypes() {
        XCTAssertTrue(DocumentType.png.isDeclared)
        XCTAssertTrue(DocumentType.folder.isDeclared)
        XCTAssertFalse(DocumentType(mimeType: "application/x-made-up").isDeclared)
        XCTAssertTrue(DocumentType.data.isUnknown)
        XCTAssertFalse(DocumentType.png.isUnknown)
    }

    func testWellKnownTypesAreReachableByName() {
        for (name, type) in DocumentType.wellKnown {
            XCTAssertTrue(type.isAbstract || type.isDeclared, name)
        }
        XCTAssertEqual(DocumentType.wellKnown["image"], .image)
    }

    func testTypesRoundTripThroughCodable() throws {
        let data = try JSONEncoder().encode([DocumentType.pdf, .sourceCode])
        XCTAssertEqual(try JSONDecoder().decode([DocumentType].self, from: data), [.pdf, .sourceCode])
    }
}
