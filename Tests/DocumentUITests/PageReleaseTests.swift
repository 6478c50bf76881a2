import CGLib
import CGtk
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// Every page the previewer lets go of goes, with its renderer and its widgets, whether it had
/// finished loading or was dropped while it loaded (an arrow key held down in Files). A page
/// that stays behind keeps its decoded content, and for a web page or a clip a web process or
/// a GStreamer pipeline too, a leak that `make soak` sees grow with every call.
final class PageReleaseTests: XCTestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    /// One file of every kind the previewer shows: the bundled samples (real files), the small
    /// made ones, the damaged ones, and pages that misbehave.
    private func files(in folder: TemporaryFolder) throws -> [URL] {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/samples").standardized
        let real = try FileManager.default.contentsOfDirectory(at: samples, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let made = try SampleFiles.writeAll(into: folder.url.appendingPathComponent("made"))
        let damaged = try DamagedFiles.kinds.map { kind in
            try folder.write("damaged-\(kind.name)", bytes: kind.content)
        }
        let pages = [
            try folder.write("cut-short.html", "<!DOCTYPE html><html><head><style>body { color:"),
            try folder.write("device.html", "<p>x</p><img src=\"file:///dev/zero\"><iframe src=\"file:///etc/passwd\"></iframe>"),
            try folder.write("refresh.html", "<meta http-equiv=\"refresh\" content=\"0; url=file:///etc/passwd\"><p>x</p>"),
        ]
        return real + made + damaged + pages
    }

    func testEveryPageGoesOnceLetGoOfWhetherItFinishedOrNot() throws {
        let folder = try TemporaryFolder()
        let files = try files(in: folder)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 800, 600)
            let stack = gtk_stack_new()!
            gtk_window_set_child(cast(window), stack)
            gtk_window_present(cast(window))

            for file in files {
                for finishing in [true, false] {
                    try Self.showAndLetGo(file, finishing: finishing, in: stack)
                }
            }
        }
    }

    /// Shows `file` in a page in `stack`, lets it finish loading (or cancels it at once, as the
    /// window does with a page it no longer needs), takes it out, and waits until the page,
    /// its renderer and the page's widgets are gone.
    @MainActor
    private static func showAndLetGo(_ file: URL, finishing: Bool, in stack: UnsafeMutablePointer<GtkWidget>) throws {
        let label = "\(file.lastPathComponent) (\(finishing ? "shown" : "dropped while loading"))"
        var page: PreviewPage? = PreviewPage(item: PreviewItem(url: file))
        weak var weakPage = page
        let view = try XCTUnwrap(page?.view)
        gtk_stack_add_named(cast(stack), view, "page")
        gtk_stack_set_visible_child(cast(stack), view)
        page?.start()
        if finishing {
            // The page's own deadline (15 s) ends every load; a minute more for a loaded machine.
            XCTAssertTrue(spin(timeout: 75) { page?.state != .loading }, "\(label): loading ends")
        } else {
            // Whatever the page began first: the type, or the renderer's load.
            _ = spin(timeout: 75) { page?.renderer != nil || page?.state != .loading }
        }
        weak var weakRenderer = page?.renderer
        // Every widget of the page, and every text view's buffer, as the page is let go of.
        let objects = WeakObjects(descendantsOf: view)
        page?.cancel()
        gtk_stack_remove(cast(stack), view)
        page = nil

        XCTAssertTrue(spin(timeout: 60) { weakPage == nil && weakRenderer == nil && objects.alive.isEmpty },
                      "\(label): the page \(weakPage == nil ? "went" : "stayed"), its renderer "
                          + "\(weakRenderer == nil ? "went" : "stayed"); objects left: \(objects.alive)")
    }
}

/// Weak pointers to a widget, all its descendants, and the buffers of the text views among
/// them; `alive` names those not yet finalized.
@MainActor
private final class WeakObjects {
    private var slots: [(name: String, slot: UnsafeMutablePointer<gpointer?>)] = []

    init(descendantsOf root: UnsafeMutablePointer<GtkWidget>) {
        var pending = [root]
        while let widget = pending.popLast() {
            watch(UnsafeMutableRawPointer(widget))
            if g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(widget)), gtk_text_view_get_type()) != 0,
               let buffer = gtk_text_view_get_buffer(cast(widget)) {
                watch(UnsafeMutableRawPointer(buffer))
            }
            var child = gtk_widget_get_first_child(widget)
            while let next = child {
                pending.append(next)
                child = gtk_widget_get_next_sibling(next)
            }
        }
    }

    private func watch(_ object: UnsafeMutableRawPointer) {
        let slot = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)
        slot.pointee = object
        let gobject = object.assumingMemoryBound(to: GObject.self)
        slots.append((String(cString: g_type_name(gobject.pointee.g_type_instance.g_class.pointee.g_type)), slot))
        g_object_add_weak_pointer(gobject, slot)
    }

    var alive: [String] { slots.filter { $0.slot.pointee != nil }.map(\.name) }

    isolated deinit {
        for (_, slot) in slots {
            if let object = slot.pointee { g_object_remove_weak_pointer(object.assumingMemoryBound(to: GObject.self), slot) }
            slot.deallocate()
        }
    }
}
