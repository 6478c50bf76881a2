import CGLib
import CGtk
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// A long Markdown document shows its first screen before all its blocks are built; the rest
/// are built after, in the document's order, shown or not, and stop with the page when it
/// goes. Only the groups of blocks near the visible part are in the column (and mapped).
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
            func children(of parent: WidgetPointer) -> [WidgetPointer] {
                var children: [WidgetPointer] = []
                var child = gtk_widget_get_first_child(parent)
                while let current = child {
                    children.append(current)
                    child = gtk_widget_get_next_sibling(current)
                }
                return children
            }
            let children = column.groups.flatMap(children(of:))  // the blocks, in their groups
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

    func testTheBlocksAreBuiltWhileTheColumnIsHiddenAndOnlyTheFirstScreenIsInIt() throws {
        let folder = try TemporaryFolder()
        let file = try longDocument(in: folder)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let page = PreviewPage(item: PreviewItem(url: file))
            gtk_window_set_child(cast(window), page.view)  // not shown yet, as a neighbour's page or a closed previewer's
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let column = try XCTUnwrap((page.renderer as? MarkdownRenderer)?.column)
            XCTAssertTrue(spin { column.builtCount == column.blockCount }, "the rest are built while the column is not shown")
            let groups = column.groups
            XCTAssertGreaterThan(groups.count, 4)
            XCTAssertTrue(column.isInColumn(groups[0]), "the first screen is in the column")
            XCTAssertFalse(column.isInColumn(groups[groups.count - 1]), "the end is not, and is not laid out")

            gtk_window_present(cast(window))
            XCTAssertTrue(spin { gtk_widget_get_mapped(groups[0]) != 0 }, "shown, the first screen is mapped")
            XCTAssertFalse(column.isInColumn(groups[groups.count - 1]))
        }
    }

    func testOnlyTheGroupsNearTheVisiblePartAreMapped() throws {
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
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let column = try XCTUnwrap((page.renderer as? MarkdownRenderer)?.column)
            XCTAssertTrue(spin { column.builtCount == column.blockCount })
            let groups = column.groups
            XCTAssertGreaterThan(groups.count, 4)
            let first = groups[0], last = groups[groups.count - 1]
            XCTAssertTrue(spin { gtk_widget_get_mapped(first) != 0 && gtk_widget_get_mapped(last) == 0 },
                          "at the top, the first blocks are mapped and the last are not")

            let scrolled = try XCTUnwrap(gtk_widget_get_ancestor(column.view, gtk_scrolled_window_get_type()))
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
            XCTAssertTrue(spin { gtk_widget_get_mapped(last) != 0 && gtk_widget_get_mapped(first) == 0 },
                          "scrolled to the end, the last blocks are mapped and the first are not")
            let blocks = groups.reduce(0) { count, group in
                var count = count
                var child = gtk_widget_get_first_child(group)
                while let current = child {
                    count += 1
                    child = gtk_widget_get_next_sibling(current)
                }
                return count
            }
            XCTAssertEqual(blocks, column.blockCount, "every block is kept, in the column or not")
            XCTAssertLessThan(column.groups.filter(column.isInColumn).count, groups.count / 2, "and few groups are in it")
        }
    }

    func testASelectionStaysWhenTheViewScrollsAwayAndBack() throws {
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
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let column = try XCTUnwrap((page.renderer as? MarkdownRenderer)?.column)
            XCTAssertTrue(spin { column.builtCount == column.blockCount })
            let groups = column.groups
            let paragraph = try XCTUnwrap(gtk_widget_get_next_sibling(gtk_widget_get_first_child(groups[0])))
            XCTAssertEqual(borrowString(gtk_label_get_text(opaque(paragraph)))?.hasPrefix("Paragraph 0 "), true)
            XCTAssertTrue(spin { gtk_widget_get_mapped(paragraph) != 0 })
            gtk_widget_grab_focus(paragraph)
            gtk_label_select_region(opaque(paragraph), 0, 9)

            let scrolled = try XCTUnwrap(gtk_widget_get_ancestor(column.view, gtk_scrolled_window_get_type()))
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
            XCTAssertTrue(spin { gtk_widget_get_mapped(groups[groups.count - 1]) != 0 }, "scrolled to the end")
            XCTAssertFalse(column.isInColumn(groups[1]), "the groups between are out of the column")
            XCTAssertTrue(column.isInColumn(groups[0]), "the one holding the selection stays in it")

            gtk_adjustment_set_value(adjustment, 0)
            XCTAssertTrue(spin { gtk_widget_get_mapped(groups[1]) != 0 }, "back at the top")
            var start: Int32 = 0, end: Int32 = 0
            XCTAssertNotEqual(gtk_label_get_selection_bounds(opaque(paragraph), &start, &end), 0)
            XCTAssertEqual([start, end], [0, 9], "with the selection as it was")
        }
    }

    /// The view is moved to the top (a drag of the scrollbar) just after the end's groups came
    /// into the column and were laid out, before the next frame corrects the view for their
    /// heights: the view stays at the top rather than being put back at the end.
    func testAViewMovedBeforeItsNewGroupsAreMeasuredStaysWhereItWasMoved() throws {
        try moveToTheTopOnceTheEndIsLaidOut(screenshot: "markdown-moved-to-the-top-as-the-end-came-in") { _, adjustment in
            gtk_adjustment_set_value(adjustment, 0)
        }
    }

    /// Home (the scrolled window's Ctrl+Home, an animated scroll) at the same moment: the
    /// correction for the end's groups does not end the scroll where it starts.
    func testHomeJustAfterTheEndsGroupsAreLaidOutGoesToTheTop() throws {
        try moveToTheTopOnceTheEndIsLaidOut(screenshot: "markdown-home-as-the-end-came-in") { scrolled, _ in
            let boolean = GType(5 << G_TYPE_FUNDAMENTAL_SHIFT)  // G_TYPE_BOOLEAN
            var arguments = [GValue(), GValue(), GValue()]
            g_value_init(&arguments[0], gtk_scrolled_window_get_type())
            g_value_set_object(&arguments[0], scrolled)
            g_value_init(&arguments[1], gtk_scroll_type_get_type())
            g_value_set_enum(&arguments[1], gint(GTK_SCROLL_START.rawValue))
            g_value_init(&arguments[2], boolean)
            var handled = GValue()
            g_value_init(&handled, boolean)
            g_signal_emitv(arguments, g_signal_lookup("scroll-child", gtk_scrolled_window_get_type()), 0, &handled)
            for index in arguments.indices { g_value_unset(&arguments[index]) }
            g_value_unset(&handled)
        }
    }

    /// Scrolls a long document to the end and has `move` move it to the top after the frame
    /// that first lays the last group out, before the next frame's start, where the column
    /// corrects the view for the groups it laid out; then expects the view at the top.
    private func moveToTheTopOnceTheEndIsLaidOut(
        screenshot: String, _ move: @escaping @MainActor (WidgetPointer, UnsafeMutablePointer<GtkAdjustment>) -> Void
    ) throws {
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
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let column = try XCTUnwrap((page.renderer as? MarkdownRenderer)?.column)
            XCTAssertTrue(spin { column.builtCount == column.blockCount })
            let groups = column.groups
            let last = groups[groups.count - 1]
            XCTAssertTrue(spin { gtk_widget_get_mapped(groups[0]) != 0 && !column.isInColumn(last) })

            let scrolled = try XCTUnwrap(gtk_widget_get_ancestor(column.view, gtk_scrolled_window_get_type()))
            let adjustment = try XCTUnwrap(gtk_scrolled_window_get_vadjustment(cast(scrolled)))
            let clock = try XCTUnwrap(gtk_widget_get_frame_clock(window))
            var isMovedBack = false
            let endLaidOut = connectSignal(UnsafeMutableRawPointer(clock), "after-paint") {
                guard !isMovedBack, column.isInColumn(last), gtk_widget_get_height(last) > 0 else { return }
                isMovedBack = true
                move(scrolled, adjustment)
            }
            defer { endLaidOut.disconnect(from: UnsafeMutableRawPointer(clock)) }
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
            XCTAssertTrue(spin { isMovedBack }, "the end's groups came into the column and were laid out")

            XCTAssertTrue(spin { gtk_widget_get_mapped(groups[1]) != 0 && gtk_adjustment_get_value(adjustment) == 0 }, "back at the top")
            XCTAssertTrue(waitUntilDrawn())
            XCTAssertTrue(waitUntilDrawn(), "and a frame after")
            XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0, "the view stays there")
            XCTAssertTrue(spin { !column.isInColumn(last) }, "and the end goes out of the column")
            DesktopTest.screenshot(screenshot)
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
            let view: WidgetPointer
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

    func testThePrefetchParsesAFirstDocumentAndItsPageTakesIt() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("first.md", "# First\n\nA paragraph.\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let prefetch = PreviewPrefetch()
            prefetch.start(file)
            var prepared: (any Sendable)??
            Task { @MainActor in prepared = .some(await prefetch.takePrepared(for: file, by: MarkdownRenderer.self)?.value) }
            XCTAssertTrue(spin { prepared != nil })
            let parsed = prepared.flatMap { $0 } as? MarkdownRenderer.Prepared
            guard case .success(let document) = parsed?.document else { return XCTFail("\(String(describing: prepared))") }
            XCTAssertEqual(document.blocks.count, 2, "parsed while the service starts")

            prefetch.start(file)  // taken by the page, as the service's first item
            let page = PreviewPage(item: PreviewItem(url: file), prefetch: prefetch)
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            XCTAssertEqual((page.renderer as? MarkdownRenderer)?.column?.blockCount, 2)
            var isLeft: Bool?
            Task { @MainActor in isLeft = await prefetch.takePrepared(for: file, by: MarkdownRenderer.self)?.value != nil }
            XCTAssertTrue(spin { isLeft != nil })
            XCTAssertEqual(isLeft, false, "the page took the parsed document")
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
