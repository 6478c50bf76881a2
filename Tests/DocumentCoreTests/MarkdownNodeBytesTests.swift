import DocumentCore
import Foundation
import XCTest

/// The Markdown tree's bytes, as a worker sends them: pinned, so that a change to them is
/// deliberate (with `MarkdownNode.bytesVersion`), and read back only when they are sound.
final class MarkdownNodeBytesTests: XCTestCase {
    /// A paragraph of "a" and a link to "u" reading "b".
    private let tree: MarkdownNode = {
        var link = MarkdownNode(.link, children: [MarkdownNode(.text, literal: "b")])
        link.url = "u"
        return MarkdownNode(.document, children: [MarkdownNode(.paragraph, children: [MarkdownNode(.text, literal: "a"), link])])
    }()

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testTheBytesHaveTheShapeTheyHadWhenTheirVersionWasSet() {
        XCTAssertEqual(MarkdownNode.bytesVersion, 1, "a new version pins the bytes again")
        XCTAssertEqual(hex(tree.encoded()),
                       "01" + "00" + "0000" + "01000000"  // the version; the document: no fields, one child
                       + "06" + "0000" + "02000000"  // a paragraph of two
                       + "0c" + "0100" + "01000000" + "61" + "00000000"  // text "a"
                       + "14" + "0200" + "01000000" + "75" + "01000000"  // a link to "u", of one
                       + "0c" + "0100" + "01000000" + "62" + "00000000")  // text "b"
        XCTAssertEqual(tree.encoded().withUnsafeBytes { MarkdownNode(decoding: $0) }, tree)
    }

    func testEveryFieldReadsBack() {
        var node = MarkdownNode(.table)
        node.literal = "l"; node.url = "https://example.org/ä"; node.title = "t"; node.level = 3; node.info = "swift x"
        node.ordered = true; node.start = 7; node.tight = false; node.checked = true; node.isHeader = false
        node.alignments = [.none, .left, .center, .right]
        let document = MarkdownNode(.document, children: [node])
        XCTAssertEqual(document.encoded().withUnsafeBytes { MarkdownNode(decoding: $0) }, document)
    }

    func testBytesThatAreNotATreeAreRefused() {
        let bytes = tree.encoded()
        for end in 0..<bytes.count {
            XCTAssertNil(Array(bytes[..<end]).withUnsafeBytes { MarkdownNode(decoding: $0) }, "cut at \(end)")
        }
        XCTAssertNil((bytes + [0]).withUnsafeBytes { MarkdownNode(decoding: $0) }, "bytes after the tree")
        var lying = bytes
        lying[4] = 0xff  // the document claims 255 children
        XCTAssertNil(lying.withUnsafeBytes { MarkdownNode(decoding: $0) })
        var kind = bytes
        kind[1] = 0xee
        XCTAssertNil(kind.withUnsafeBytes { MarkdownNode(decoding: $0) })

        var deep = MarkdownNode(.text, literal: "x")
        for _ in 0...(MarkdownNode.depthLimit + 1) { deep = MarkdownNode(.quote, children: [deep]) }
        XCTAssertNil(MarkdownNode(.document, children: [deep]).encoded().withUnsafeBytes { MarkdownNode(decoding: $0) },
                     "deeper than a worker makes")
    }
}
