import CGLib
import CGtk
@testable import DocumentUI
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

/// A long Markdown document shows its first screen before all its blocks are built; the rest
/// are appended after, in the document's order, and stop with the page when it goes.
final class MarkdownColumnTests: XCTestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    private static let sections = 400

    private func longDocument(in folder: TemporaryFolder) throws -> URL {
        var text = "# A long document\n\n"
        for index in 0..<Self.sections {
            text += "Paragraph \(index) of the document, with [a link](https://example.org/\(index)).\n\n"
            text += "```swift\nlet value = \(index)\nprint(value)\n```\n\n"
        }
        return try folder.write("long.md", text)
    }

    func testALongDocumentIsReadyBeforeItsLastBlocksAreBuiltAndGetsThemAllInOrder() throws {
        let folder = try TemporaryFolder()
        let file = try longDocument(in: folder)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let page = PreviewPage(item: PreviewItem(url: file))
            gtk_window_set_child(cast(window), page.view)
            gtk_window_present(cast(window))

            var builtWhenReady: Int?
            page.stateDidChange = { [weak page] state in
                guard state == .ready else { return }
                builtWhenReady = (page?.renderer as? MarkdownRenderer)?.column?.builtCount
            }
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let column = try XCTUnwrap((page.renderer as? MarkdownRenderer)?.column)
            XCTAssertEqual(column.blockCount, 1 + 2 * Self.sections)
            let built = try XCTUnwrap(builtWhenReady)
            XCTAssertGreaterThan(built, 0, "the page shows its first blocks")
            XCTAssertLessThan(built, column.blockCount, "and is ready before the last are built")

            XCTAssertTrue(spin { column.builtCount == column.blockCount }, "the rest follow")
            func children(of parent: Widget) -> [Widget] {
                var children: [Widget] = []
                var child = gtk_widget_get_first_child(parent)
                while let current = child {
                    children.append(current)
                    child = gtk_widget_get_next_sibling(current)
                }
                return children
            }
            let children = children(of: column.view).flatMap(children(of:))  // the blocks, in their groups
            XCTAssertEqual(children.count, column.blockCount, "one widget a block")
            let paragraphs = children.compactMap { widget -> Int? in
                guard g_type_check_instance_is_a(cast(widget), gtk_label_get_type()) != 0,
                      let text = borrowString(gtk_label_get_text(opaque(widget))), text.hasPrefix("Paragraph ")
                else { return nil }
                return Int(text.split(separator: " ")[1])
            }
            XCTAssertEqual(paragraphs, Array(0..<Self.sections), "in the document's order")
        }
    }

    func testAPageLetGoOfWhileItsBlocksAreBuiltGoesWithAllItsWidgets() throws {
        let folder = try TemporaryFolder()
        let file = try longDocument(in: folder)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            var page: PreviewPage? = PreviewPage(item: PreviewItem(url: file))
            page?.start()
            XCTAssertTrue(spin { page?.state == .ready })
            let alive = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)
            defer { alive.deallocate() }
            let view: Widget
            do {  // the column itself held only while looked at
                let column = try XCTUnwrap((page?.renderer as? MarkdownRenderer)?.column)
                view = column.view
                XCTAssertLessThan(column.builtCount, column.blockCount, "let go of while building")
            }
            alive.pointee = UnsafeMutableRawPointer(view)
            g_object_add_weak_pointer(UnsafeMutablePointer<GObject>(OpaquePointer(view)), alive)

            page = nil
            XCTAssertTrue(spin { alive.pointee == nil }, "the column goes with the page")
            if alive.pointee != nil { g_object_remove_weak_pointer(UnsafeMutablePointer<GObject>(OpaquePointer(view)), alive) }
        }
    }

    func testTheSourceButtonShowsTheFilesText() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("short.md", "# Title\n\nSome *text*.\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let page = PreviewPage(item: PreviewItem(url: file))
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let renderer = try XCTUnwrap(page.renderer as? MarkdownRenderer)
            renderer.setSourceShown(true)
            XCTAssertEqual(renderer.sourceText, "# Title\n\nSome *text*.\n")
            renderer.setSourceShown(false)
            renderer.setSourceShown(true)
            XCTAssertEqual(renderer.sourceText, "# Title\n\nSome *text*.\n", "filled once")
        }
    }
}
