import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport

@testable import DocumentUI

// Shared with RemoteLocationTests through a link (GTK: DossierFixtures stays GTK-free).

/// A window holding a browser the way Dossier's main window does: the path bar as the
/// header's title, the header controls at its end.
@MainActor
final class BrowserTestWindow {
    let window: WidgetPointer
    let browser: DocumentBrowser

    /// `thumbnails`: a generator of the test's own (its own cache, one worker) instead of the
    /// process's.
    init(location: BrowserLocation, thumbnails: ThumbnailGenerator? = nil) {
        browser = thumbnails.map { DocumentBrowser(location: location, directories: UserDirectories(), trash: Trash(), thumbnails: $0) }
            ?? DocumentBrowser(location: location)
        window = widget(adw_window_new())
        gtk_window_set_title(cast(window), "Browser Test")
        gtk_window_set_default_size(cast(window), 1100, 760)
        let header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(OpaquePointer(header), browser.pathBar.gtkWidget)
        adw_header_bar_pack_end(OpaquePointer(header), browser.headerControls.gtkWidget)
        adw_window_set_content(cast(window), makeBox(GTK_ORIENTATION_VERTICAL, [header, browser.widget.gtkWidget]))
        gtk_window_present(cast(window))
        spin { gtk_widget_get_mapped(window) != 0 }
    }

    /// Closes the previewer (after its zoom back) and the window, and waits until the X server
    /// has destroyed it: the next test looks its window up by the same title.
    func close() {
        browser.preview.controller.dismiss()
        spin { browser.preview.controller.windowWidget.map { gtk_widget_get_visible($0.gtkWidget) == 0 } ?? true }
        gtk_window_destroy(cast(window))
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
    }

    /// How many grid cells show a picture (a thumbnail) rather than an icon.
    func thumbnailsShown(_ browser: DocumentBrowser) -> Int {
        var count = 0
        var cells: [WidgetPointer] = []
        collect(browser.grid.grid, into: &cells)
        for image in cells where gtk_image_get_storage_type(cast(image)) == GTK_IMAGE_PAINTABLE { count += 1 }
        return count
    }

    private func collect(_ widget: WidgetPointer, into images: inout [WidgetPointer]) {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(current)), gtk_image_get_type()) != 0 {
                images.append(current)
            }
            collect(current, into: &images)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// The screen position of the middle of `item`'s cell (the window is at the screen's top
    /// left under a bare X server).
    func screenPoint(of item: BrowserItem, in browser: DocumentBrowser) -> (x: Int, y: Int)? {
        guard let cell = browser.grid.cell(showing: item.url) else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(cell.image, window, &bounds) != 0 else { return nil }
        var offsetX = 0.0, offsetY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &offsetX, &offsetY)
        let origin = DesktopTest.windowOrigin("Browser Test")
        return (origin.x + Int(offsetX + Double(bounds.origin.x + bounds.size.width / 2)),
                origin.y + Int(offsetY + Double(bounds.origin.y + bounds.size.height / 2)))
    }

    /// A screenshot of the whole screen, once every window has drawn what it shows now.
    func screenshot(_ name: String) {
        waitUntilDrawn()
        DesktopTest.screenshot(name)
    }
}

/// xdotool and ImageMagick's import, for the in-process window tests.
enum DesktopTest {
    @discardableResult
    static func run(_ arguments: [String]) -> String {
        OtherProgram.output(of: arguments)
    }

    /// A click at `point` on the screen. What it does is the caller's to wait for; the short
    /// settle only paces the input (GTK takes the click before the next key or click).
    @MainActor
    static func click(_ point: (x: Int, y: Int)) {
        run(["/usr/bin/xdotool", "mousemove", String(point.x), String(point.y), "click", "1"])
        settle(0.3)
    }

    /// A key press, paced like `click`.
    @MainActor
    static func key(_ name: String) {
        run(["/usr/bin/xdotool", "key", name])
        settle(0.3)
    }

    static func windowOrigin(_ title: String) -> (x: Int, y: Int) {
        let id = run(["/usr/bin/xdotool", "search", "--name", title]).split(separator: "\n").first.map(String.init) ?? ""
        let text = run(["/usr/bin/xdotool", "getwindowgeometry", "--shell", id])
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return (values["X"] ?? 0, values["Y"] ?? 0)
    }

    static func screenshot(_ name: String) {
        Screenshots.take(name)
    }
}
