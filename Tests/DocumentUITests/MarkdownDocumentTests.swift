import Foundation
import XCTest

@testable import DocumentUI

/// Markdown as the previewer shows it: parsed by cmark-gfm in a decoder worker, then written as
/// blocks of Pango markup for the labels.
final class MarkdownDocumentTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func document(_ text: String) throws -> MarkdownDocument {
        let file = folder.appendingPathComponent("notes.md")
        try Data(text.utf8).write(to: file)
        return try MarkdownDocument.load(file, withPictures: false)
    }

    private func blocks(_ text: String) throws -> [MarkdownDocument.Block] { try document(text).blocks }

    /// The markup of a one-paragraph document.
    private func markup(_ text: String) throws -> String {
        guard case .paragraph(let pieces) = try blocks(text).first, case .markup(let markup) = pieces.first else { return "" }
        return markup
    }

    func testHeadingsParagraphsRulesAndCode() throws {
        XCTAssertEqual(try blocks("# Title #\n\nSome\ntext\n\n***\n\n```swift\nlet a = 1\n```\n\n    indented\n"), [
            .heading(level: 1, markup: "Title"), .paragraph([.markup("Some text")]), .rule,
            .code(language: "swift", text: "let a = 1"), .code(language: nil, text: "indented"),
        ])
        XCTAssertEqual(try blocks("Title\n=====\nSub\n---"), [.heading(level: 1, markup: "Title"), .heading(level: 2, markup: "Sub")])
        XCTAssertEqual(try blocks("#hashtag"), [.paragraph([.markup("#hashtag")])], "no space: not a heading")
    }

    func testNestedListsQuotesAndTasks() throws {
        typealias Item = MarkdownDocument.Item
        XCTAssertEqual(try blocks("- one\n- two\n  - nested\n- [x] done\n\n3. three\n4. four"), [
            .list(ordered: false, start: 0, items: [
                Item(checked: nil, blocks: [.paragraph([.markup("one")])]),
                Item(checked: nil, blocks: [.paragraph([.markup("two")]), .list(ordered: false, start: 0, items: [
                    Item(checked: nil, blocks: [.paragraph([.markup("nested")])]),
                ])]),
                Item(checked: true, blocks: [.paragraph([.markup("done")])]),
            ]),
            .list(ordered: true, start: 3, items: [
                Item(checked: nil, blocks: [.paragraph([.markup("three")])]),
                Item(checked: nil, blocks: [.paragraph([.markup("four")])]),
            ]),
        ])
        XCTAssertEqual(try blocks("> quoted\nlazy\n> > deeper"),
                       [.quote([.paragraph([.markup("quoted lazy")]), .quote([.paragraph([.markup("deeper")])])])])
    }

    func testPipeTables() throws {
        XCTAssertEqual(try blocks("| a | b |\n|:--|--:|\n| 1 | `x\\|y` |\n| 2 |"), [
            .table(header: ["a", "b"], alignments: [.leading, .trailing],
                   rows: [["1", MarkdownMarkup.codeSpanOpening + "x|y</span>"], ["2", ""]]),
        ])
    }

    func testInlinesBecomeEscapedMarkup() throws {
        XCTAssertEqual(try markup("**bold** and *it* and `a<b`"),
                       "<b>bold</b> and <i>it</i> and <span font_family=\"monospace\" bgcolor=\"#808080\" bgalpha=\"20%\">a&lt;b</span>")
        XCTAssertEqual(try markup("<b>not markup</b> & 5 > 3"), "&lt;b&gt;not markup&lt;/b&gt; &amp; 5 &gt; 3")
        XCTAssertEqual(try markup("snake_case_name and __strong__ ~~gone~~"), "snake_case_name and <b>strong</b> <s>gone</s>")
        XCTAssertEqual(try markup("\\*literal\\* &copy; &#65;"), "*literal* © A")
        XCTAssertEqual(try markup("***both***"), "<i><b>both</b></i>")
        XCTAssertEqual(try markup("line  \nbreak"), "line\nbreak")
    }

    func testLinksResolveAgainstTheDocumentsFolder() throws {
        let next = folder.appendingPathComponent("other file.md").absoluteString
        XCTAssertEqual(try markup("[site](https://example.org/ \"Title\")"),
                       "<a href=\"https://example.org/\" title=\"Title\">site</a>")
        XCTAssertEqual(try markup("[next](other%20file.md)"), "<a href=\"\(next)\">next</a>")
        XCTAssertEqual(try markup("[ref] and [text][Ref]\n\n[ref]: https://r.example/"),
                       "<a href=\"https://r.example/\">ref</a> and <a href=\"https://r.example/\">text</a>")
        XCTAssertEqual(try markup("<https://a.example/?q=1&b=2>"), "<a href=\"https://a.example/?q=1&amp;b=2\">https://a.example/?q=1&amp;b=2</a>")
        XCTAssertEqual(try markup("see www.example.org now"), "see <a href=\"http://www.example.org\">www.example.org</a> now",
                       "GitHub's bare links")
        XCTAssertEqual(try markup("[not a link] [a](b"), "[not a link] [a](b")
        XCTAssertEqual(try markup("[section](#usage)"), "<a href=\"\">section</a>", "in-page links open nothing")
    }

    func testImagesArePiecesOfTheirOwn() throws {
        XCTAssertEqual(try blocks("Before ![An icon](img/icon.png) after"), [.paragraph([
            .markup("Before"),
            .image(MarkdownImage(source: folder.appendingPathComponent("img/icon.png"), alternative: "An icon")),
            .markup("after"),
        ])])
    }

    func testRawHTMLIsShownAsText() throws {
        XCTAssertEqual(try blocks("<div onclick=\"x()\">\n<script>alert(1)</script>\n</div>"),
                       [.paragraph([.markup("&lt;div onclick=&quot;x()&quot;&gt; &lt;script&gt;alert(1)&lt;/script&gt; &lt;/div&gt;")])])
        let html = MarkdownDocument.html(try document("a <script>alert(1)</script> b\n\n<iframe src=x>\n").tree)
        XCTAssertFalse(html.contains("<script"), html)
        XCTAssertFalse(html.contains("<iframe"), html)
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

    /// Inputs that are slow or deep for a parser end, and nesting past the limit is kept as text.
    func testPathologicalInputEnds() throws {
        let deep = try blocks(String(repeating: ">", count: 5000) + " x")
        XCTAssertFalse(deep.isEmpty)
        XCTAssertFalse(try markup(String(repeating: "*a", count: 20_000)).isEmpty)
        XCTAssertFalse(try markup(String(repeating: "[", count: 20_000)).isEmpty)
        XCTAssertFalse(try markup(String(repeating: "[a](", count: 20_000)).isEmpty)
        XCTAssertFalse(try markup(String(repeating: "` ``", count: 20_000)).isEmpty)
        XCTAssertFalse(try blocks(String(repeating: "- ", count: 5000) + "x").isEmpty)
    }
}
