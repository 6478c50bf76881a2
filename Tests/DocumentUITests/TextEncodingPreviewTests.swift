import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// The previewer's text renderer shows text files in the seven encodings people have as the
/// text they hold, names the encoding under the text, and re-opens the text in another one.
final class TextEncodingPreviewTests: XCTestCase {
    private final class Flag: @unchecked Sendable { var value = false }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    /// A renderer in a window of its own, loaded with `file`.
    @MainActor
    private static func show(_ file: URL, in window: WidgetPointer) -> TextRenderer {
        let renderer = TextRenderer()
        gtk_window_set_child(cast(window), renderer.view.gtkWidget)
        let loaded = Flag()
        Task { @MainActor in
            try await renderer.load(PreviewItem(url: file), type: .text)
            loaded.value = true
        }
        XCTAssertTrue(spin { loaded.value }, "\(file.lastPathComponent) loads")
        return renderer
    }

    @MainActor
    private static func label(of button: WidgetPointer) -> String {
        borrowString(gtk_menu_button_get_label(cast(button))) ?? ""
    }

    func testEachEncodingShowsItsTextAndItsName() throws {
        let folder = try TemporaryFolder("dossier-encodings")
        let expected: [String: TextEncoding] = [
            "gb18030.txt": .gb18030, "big5.txt": .big5, "shift-jis.txt": .shiftJIS, "euc-kr.txt": .eucKR,
            "windows-1252.txt": .windows1252, "utf-16le.txt": .utf16LittleEndian, "utf-16be.txt": .utf16BigEndian,
        ]
        let samples = try EncodedTexts.samples()
        let files = try samples.map { try folder.write($0.name, bytes: Array($0.bytes)) }
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            gtk_window_present(cast(window))
            for (sample, file) in zip(samples, files) {
                let encoding = try XCTUnwrap(expected[sample.name])
                let renderer = Self.show(file, in: window)
                XCTAssertTrue(spin { renderer.text == sample.text }, "\(sample.name) shows its text")
                XCTAssertEqual(renderer.text, sample.text, sample.name)
                XCTAssertEqual(Self.label(of: renderer.encodingMenuButton), encoding.title, "\(sample.name): the encoding is named")
                waitUntilDrawn()
                TestScreenshot.take("encoding-\(sample.name.replacingOccurrences(of: ".txt", with: ""))")
            }
        }
    }

    func testAUTF8FileNamesUTF8AndShowsItsTextAsBefore() throws {
        let folder = try TemporaryFolder()
        let text = EncodedTexts.japanese + EncodedTexts.western
        let file = try folder.write("utf8.txt", text)
        MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_present(cast(window))
            let renderer = Self.show(file, in: window)
            XCTAssertEqual(renderer.text, text)
            XCTAssertEqual(Self.label(of: renderer.encodingMenuButton), "Unicode (UTF-8)")
        }
    }

    /// Re-opening picks an item of the encoding menu: its action, as the menu activates it.
    func testReopeningInAnotherEncodingChangesTheText() throws {
        let folder = try TemporaryFolder()
        let text = EncodedTexts.chinese
        let file = try folder.write("chinese.txt", bytes: Array(try EncodedTexts.encoded(text, as: "GB18030")))
        MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            gtk_window_present(cast(window))
            let renderer = Self.show(file, in: window)
            XCTAssertEqual(renderer.text, text)

            gtk_widget_activate_action_variant(renderer.encodingMenuButton, "text.encoding", dossier_variant_string("BIG5"))
            XCTAssertTrue(spin { renderer.text != text }, "the text changed")
            XCTAssertFalse(renderer.text.isEmpty)
            XCTAssertEqual(Self.label(of: renderer.encodingMenuButton), "Chinese Traditional (Big5)")
            waitUntilDrawn()
            TestScreenshot.take("encoding-reopened-as-big5")

            gtk_widget_activate_action_variant(renderer.encodingMenuButton, "text.encoding", dossier_variant_string("GB18030"))
            XCTAssertTrue(spin { renderer.text == text }, "back in GB18030, the text is Chinese again")
            XCTAssertEqual(Self.label(of: renderer.encodingMenuButton), "Chinese Simplified (GB18030)")
        }
    }
}

/// A screenshot of the test's display, kept with the others (`Screenshots.folder`).
enum TestScreenshot {
    static func take(_ name: String) {
        let folder = Screenshots.folder
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/import")
        process.arguments = ["-window", "root", folder.appendingPathComponent(name + ".png").path]
        try? process.run()
        process.waitUntilExit()
    }
}
