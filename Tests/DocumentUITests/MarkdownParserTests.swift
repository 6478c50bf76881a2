import Foundation
import XCTest

@testable import DocumentUI

/// The Markdown subset as blocks and as the Pango markup the labels get.
final class MarkdownParserTests: XCTestCase {
    private func blocks(_ text: String) -> [MarkdownBlock] {
        var parser = MarkdownBlockParser()
        return parser.parse(text)
    }

    private func markup(_ text: String, references: [String: MarkdownReference] = [:]) -> String {
        MarkdownInlines(references: references, base: URL(fileURLWithPath: "/docs/")).markup(text)
    }

    func testHeadingsParagraphsRulesAndCode() {
        XCTAssertEqual(blocks("# Title #\n\nSome\ntext\n\n***\n\n```swift\nlet a = 1\n```\n\n    indented\n"), [
            .heading(level: 1, text: "Title"), .paragraph("Some\ntext"), .rule,
            .code(language: "swift", text: "let a = 1"), .code(language: nil, text: "indented"),
        ])
        XCTAssertEqual(blocks("Title\n=====\nSub\n---"), [.heading(level: 1, text: "Title"), .heading(level: 2, text: "Sub")])
        XCTAssertEqual(blocks("#hashtag"), [.paragraph("#hashtag")], "no space: not a heading")
    }

    func testNestedListsQuotesAndTasks() {
        XCTAssertEqual(blocks("- one\n- two\n  - nested\n- [x] done\n\n3. three\n4. four"), [
            .list(ordered: false, start: 0, items: [
                MarkdownListItem(checked: nil, blocks: [.paragraph("one")]),
                MarkdownListItem(checked: nil, blocks: [.paragraph("two"), .list(ordered: false, start: 0, items: [
                    MarkdownListItem(checked: nil, blocks: [.paragraph("nested")]),
                ])]),
                MarkdownListItem(checked: true, blocks: [.paragraph("done")]),
            ]),
            .list(ordered: true, start: 3, items: [
                MarkdownListItem(checked: nil, blocks: [.paragraph("three")]),
                MarkdownListItem(checked: nil, blocks: [.paragraph("four")]),
            ]),
        ])
        XCTAssertEqual(blocks("> quoted\nlazy\n> > deeper"), [.quote([.paragraph("quoted\nlazy"), .quote([.paragraph("deeper")])])])
    }

    func testPipeTables() {
        XCTAssertEqual(blocks("| a | b |\n|:--|--:|\n| 1 | `x|y` |\n| 2 |"), [
            .table(header: ["a", "b"], alignments: [.leading, .trailing], rows: [["1", "`x|y`"], ["2", ""]]),
        ])
    }

    func testInlinesBecomeEscapedMarkup() {
        XCTAssertEqual(markup("**bold** and *it* and `a<b`"),
                       "<b>bold</b> and <i>it</i> and <span font_family=\"monospace\" bgcolor=\"#808080\" bgalpha=\"20%\">a&lt;b</span>")
        XCTAssertEqual(markup("<b>not markup</b> & 5 > 3"), "&lt;b&gt;not markup&lt;/b&gt; &amp; 5 &gt; 3")
        XCTAssertEqual(markup("snake_case_name and __strong__ ~~gone~~"), "snake_case_name and <b>strong</b> <s>gone</s>")
        XCTAssertEqual(markup("\\*literal\\* &copy; &#65;"), "*literal* © A")
        XCTAssertEqual(markup("***both***"), "<i><b>both</b></i>")
    }

    func testLinksResolveAgainstTheDocumentsFolder() {
        XCTAssertEqual(markup("[site](https://example.org/ \"Title\")"),
                       "<a href=\"https://example.org/\" title=\"Title\">site</a>")
        XCTAssertEqual(markup("[next](other%20file.md)"), "<a href=\"file:///docs/other%20file.md\">next</a>")
        XCTAssertEqual(markup("[ref] and [text][Ref]", references: ["ref": MarkdownReference(destination: "https://r.example/", title: nil)]),
                       "<a href=\"https://r.example/\">ref</a> and <a href=\"https://r.example/\">text</a>")
        XCTAssertEqual(markup("<https://a.example/?q=1&b=2>"), "<a href=\"https://a.example/?q=1&amp;b=2\">https://a.example/?q=1&amp;b=2</a>")
        XCTAssertEqual(markup("[not a link] [a](b"), "[not a link] [a](b")
        XCTAssertEqual(markup("[section](#usage)"), "<a href=\"\">section</a>", "in-page links open nothing")
    }

    func testImagesArePiecesOfTheirOwn() {
        let inlines = MarkdownInlines(references: [:], base: URL(fileURLWithPath: "/docs/"))
        XCTAssertEqual(inlines.pieces("Before ![An icon](img/icon.png) after"), [
            .markup("Before"),
            .image(MarkdownImage(source: URL(string: "file:///docs/img/icon.png"), alternative: "An icon")),
            .markup("after"),
        ])
    }

    /// A picture whose path is a FIFO is not read: opening it would block the document's
    /// loading for good, in the previewer and in printing (the markdown fuzz target has a
    /// named pipe beside its input for this).
    func testPictureThatIsANamedPipeIsNotRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("pipe.png").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let document = folder.appendingPathComponent("notes.md")
        try Data("Look: ![a pipe](pipe.png)\n".utf8).write(to: document)

        let loaded = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var images: Int?
        Thread.detachNewThread {
            images = (try? MarkdownDocument.load(document))?.images.count
            loaded.signal()
        }
        let finished = loaded.wait(timeout: .now() + 10) == .success
        if !finished {
            // Let the reader go: a writer opening the pipe unblocks its open.
            let writer = open(pipe, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = loaded.wait(timeout: .now() + 10)
        }
        XCTAssertTrue(finished, "loading a document whose picture is a named pipe never ended")
        XCTAssertEqual(images, 0)
    }

    func testPathologicalInputEndsQuickly() {
        let deep = String(repeating: ">", count: 5000) + " x"
        XCTAssertFalse(blocks(deep).isEmpty)
        XCTAssertFalse(markup(String(repeating: "*a", count: 20_000)).isEmpty)
        XCTAssertFalse(markup(String(repeating: "[", count: 20_000)).isEmpty)
        XCTAssertFalse(markup(String(repeating: "[a](", count: 20_000)).isEmpty)
        XCTAssertFalse(markup(String(repeating: "` ``", count: 20_000)).isEmpty)
    }
}
