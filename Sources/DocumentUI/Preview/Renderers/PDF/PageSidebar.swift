import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// A column of small page pictures beside a PDF: a click on one scrolls the document to that
/// page. It slides in and out with the Pages button; it is there from the first frame when
/// the document opens with it, and as wide as it will be once its pictures come (they are
/// drawn after the pages), so that the pages do not move when it fills.
@MainActor
final class PageSidebar {
    nonisolated static let thumbnailWidth: Int32 = 120
    /// The room it takes beside the pages: a picture, its button's padding and the margins.
    nonisolated static let width: Int32 = thumbnailWidth + 40

    let view: WidgetPointer
    private let list: WidgetPointer
    var onSelect: ((Int) -> Void)?

    init() {
        list = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_set_margin_top(list, 8)
        gtk_widget_set_margin_bottom(list, 8)
        gtk_widget_set_margin_start(list, 8)
        gtk_widget_set_margin_end(list, 8)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(scrolled), list)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_size_request(scrolled, Self.width, -1)
        setAccessibleName(scrolled, tr("Page thumbnails"))
        view = gtk_revealer_new()
        gtk_revealer_set_transition_type(cast(view), GTK_REVEALER_TRANSITION_TYPE_SLIDE_RIGHT)
        gtk_revealer_set_child(cast(view), scrolled)
    }

    var isShown: Bool {
        get { gtk_revealer_get_reveal_child(cast(view)) != 0 }
        set { gtk_revealer_set_reveal_child(cast(view), newValue ? 1 : 0) }
    }

    /// Shows or hides it at once, without sliding (a document opening with it).
    func show(_ shown: Bool) {
        gtk_revealer_set_transition_type(cast(view), GTK_REVEALER_TRANSITION_TYPE_NONE)
        isShown = shown
        gtk_revealer_set_transition_type(cast(view), GTK_REVEALER_TRANSITION_TYPE_SLIDE_RIGHT)
    }

    /// Adds the picture of page `index` (0-based), drawn `thumbnailWidth` pixels wide.
    func add(_ rendered: RenderedPage, page index: Int) {
        let picture = makePicture(showing: rendered.surface)
        let number = makeLabel(String(index + 1), classes: ["caption", "dim-label"])
        let button = gtk_button_new()!
        gtk_button_set_child(cast(button), makeBox(GTK_ORIENTATION_VERTICAL, spacing: 4, [picture, number]))
        gtk_widget_add_css_class(button, "flat")
        setAccessibleName(button, tr("Page %s thumbnail", String(index + 1)))
        connectSignal(raw(button), "clicked") { [weak self] () -> Void in self?.onSelect?(index) }
        gtk_box_append(cast(list), button)
    }

    func removeAll() {
        while let child = gtk_widget_get_first_child(list) { gtk_box_remove(cast(list), child) }
    }
}
