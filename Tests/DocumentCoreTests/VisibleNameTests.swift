import XCTest

@testable import DocumentCore

/// A name cannot pass for another: the controls that reorder or hide text are written out.
final class VisibleNameTests: XCTestCase {
    func testARightToLeftOverrideCannotHideTheRealExtension() {
        XCTAssertEqual(VisibleName.of("invoice\u{202E}fdp.exe"), "invoice<U+202E>fdp.exe")
        XCTAssertEqual(VisibleName.of("a\u{2066}b\u{2069}c\u{200F}"), "a<U+2066>b<U+2069>c<U+200F>")
        XCTAssertEqual(VisibleName.of("line\nbreak\ttab"), "line<U+000A>break<U+0009>tab")
        XCTAssertEqual(VisibleName.of("\u{FEFF}bom\u{200B}"), "<U+FEFF>bom<U+200B>")
    }

    func testOrdinaryNamesInEveryScriptAreUnchanged() {
        for name in ["report.pdf", "café.txt", "日本語のファイル.txt", "تقرير.pdf", "סיכום.docx", "👩‍💻 notes.md",
                     "कार्य.txt", "می‌خواهم.txt"] {
            XCTAssertEqual(VisibleName.of(name), name, name)
        }
    }
}
