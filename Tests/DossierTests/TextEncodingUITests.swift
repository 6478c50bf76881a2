import DossierFixtures
import Foundation
import XCTest

/// Text files in the seven encodings people have, in the previewer as a user sees and hears
/// them: the text a screen reader reads is the file's text, the encoding is named under it,
/// and its menu, opened from the keyboard, re-opens the text in another encoding.
final class TextEncodingUITests: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
    }

    /// The text's first lines in the previewer on the 1280×1024 test screen.
    private let textArea = (x: 20, y: 70, width: 860, height: 200)

    private let titles = [
        "gb18030.txt": "Chinese Simplified (GB18030)", "big5.txt": "Chinese Traditional (Big5)",
        "shift-jis.txt": "Japanese (Shift_JIS)", "euc-kr.txt": "Korean (EUC-KR)",
        "windows-1252.txt": "Western (Windows-1252)", "utf-16le.txt": "Unicode (UTF-16 LE)",
        "utf-16be.txt": "Unicode (UTF-16 BE)",
    ]

    func testEachEncodingIsShownAsItsText() throws {
        let folder = try TemporaryFolder("dossier-encodings")
        let samples = try EncodedTexts.samples()
        let files = try samples.map { try folder.write($0.name, bytes: Array($0.bytes)) }
        let app = try DesktopSession.launch([CommandRunner.binary, "preview"] + files.map(\.path))
        defer { app.terminate() }
        for (index, sample) in samples.enumerated() {
            let title = try XCTUnwrap(titles[sample.name])
            XCTAssertTrue(DesktopSession.waitForAccessible("Character encoding: \(title)"), "\(sample.name): the encoding is named")
            XCTAssertTrue(DesktopSession.waitForAccessible("\(index + 1) of \(samples.count)"))
            XCTAssertTrue(eventually(timeout: 60) { DesktopSession.text(of: "Text of \(sample.name)") == sample.text },
                          "\(sample.name): the text read is the file's text")
            Thread.sleep(forTimeInterval: 0.5)  // the cross-fade
            DesktopSession.screenshot("previewer-encoding-\(sample.name.replacingOccurrences(of: ".txt", with: ""))")
            if index == 0 { DesktopSession.click(x: 450, y: 400) }
            DesktopSession.key("Right")
        }
    }

    func testTheEncodingMenuOpensFromTheKeyboardAndReopensTheText() throws {
        let folder = try TemporaryFolder("dossier-encodings")
        let text = EncodedTexts.japanese
        let file = try folder.write("memo.txt", bytes: Array(try EncodedTexts.encoded(text, as: "SHIFT_JIS")))
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", file.path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Character encoding: Japanese (Shift_JIS)"))
        XCTAssertTrue(eventually { DesktopSession.text(of: "Text of memo.txt") == text })
        let before = try XCTUnwrap(DesktopSession.steadyScreenshot("previewer-encoding-menu-before", region: textArea) {
            DesktopSession.variation($0, x: textArea.x, y: textArea.y, width: textArea.width, height: textArea.height) > 0.01
        }, "the text is drawn")

        // Into the text, then Tab to the encoding's button; Return opens its menu.
        DesktopSession.click(x: 450, y: 300)
        DesktopSession.key("Tab")
        DesktopSession.key("Return")
        XCTAssertTrue(DesktopSession.waitForAccessible("Reopen With Encoding") || DesktopSession.waitForAccessible("Japanese (EUC-JP)"),
                      "the menu is open")
        XCTAssertTrue(app.isRunning, "Return opened the menu, not the file, and the previewer stayed")
        DesktopSession.screenshot("previewer-encoding-menu-open")
        let names = DesktopSession.accessibleNames()
        XCTAssertTrue(names.contains { $0.hasSuffix("menu item: Japanese (Shift_JIS)") }, "the item's name keeps its underscore: \(names)")
        XCTAssertTrue(DesktopSession.activate("Western (Windows-1252)"), "the item is chosen")

        XCTAssertTrue(DesktopSession.waitForAccessible("Character encoding: Western (Windows-1252)"), "the button names the new encoding")
        XCTAssertTrue(eventually {
            guard let shown = DesktopSession.text(of: "Text of memo.txt") else { return false }
            return shown != text && shown.hasPrefix("\u{201C}\u{0152}")  // 東 is 0x93 0x8C in Shift_JIS: “Œ in Windows-1252
        }, "the text is re-read as Windows-1252")
        var change = 0.0
        XCTAssertTrue(eventually(timeout: 60) {
            let after = DesktopSession.screenshot("previewer-encoding-menu-after")
            change = DesktopSession.difference(before, after, x: textArea.x, y: textArea.y, width: textArea.width, height: textArea.height)
            return change > 0.01
        }, "the text looks different (\(change))")
    }
}
