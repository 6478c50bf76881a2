import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The keyboard on the items, as in Files. A new window and every navigation put the focus on
/// the grid or the list, so Space and the arrows act on the items: GTK would otherwise give it
/// to the first focusable widget, the path bar's "Computer" button, and Space would go to `/`.
/// Tab leaves the items for the header and the sidebar.
extension DocumentBrowser {
    /// The view that shows the items in the current mode.
    var itemsView: WidgetPointer { viewMode == .grid ? grid.grid : list.columnView }

    /// Focuses the items view once it is on screen (now, if it is), unless the user puts the
    /// focus somewhere else first.
    func focusItemsWhenShown() {
        itemsFocusRequest = ItemsFocusRequest(focusThen: currentFocus.map { UnsafeMutableRawPointer($0) })
        focusItemsIfWanted()
    }

    /// Focuses the items view now (the search field that had the focus is going away).
    func focusItemsNow() {
        itemsFocusRequest = nil
        if gtk_widget_grab_focus(itemsView) == 0 { focusItemsWhenShown() }
    }

    /// Gives the items view the focus it was promised, when it can take it: while it is on
    /// screen, and never from a text field the user is typing in. A promise the user overtook
    /// (Tab to the sidebar while a slow folder loaded) is dropped: their choice stands.
    func focusItemsIfWanted() {
        guard let request = itemsFocusRequest, gtk_widget_get_mapped(itemsView) != 0, !isTyping else { return }
        if let focus = currentFocus, UnsafeMutableRawPointer(focus) != request.focusThen, !holdsFocusByDefault(focus) {
            itemsFocusRequest = nil
            return
        }
        if gtk_widget_grab_focus(itemsView) != 0 { itemsFocusRequest = nil }
    }

    private var currentFocus: WidgetPointer? {
        gtk_widget_get_root(contentWidget).flatMap { gtk_root_get_focus($0) }
    }

    /// Where the focus is when no one chose it: the path bar (a new window's first focusable
    /// widget) or the browser's own content (a spinner, a status page, the items).
    private func holdsFocusByDefault(_ focus: WidgetPointer) -> Bool {
        [pathBarWidget, contentWidget].contains { focus == $0 || gtk_widget_is_ancestor(focus, $0) != 0 }
    }

    /// The grid and the list take the focus promised to them once they are mapped: a window's
    /// first frame, or the stack showing them once a location's items arrived. Not while the
    /// window maps: GTK 4.8 then gives a second window of the process the accessible role of
    /// a filler, not a frame, and screen readers lose it.
    func focusItemsOnMap() {
        for view in [grid.grid, list.columnView] {
            dossier_list_view_tab_leaves(view)
            connectSignal(raw(view), "map") { [weak self] in
                DispatchQueue.main.async { self?.focusItemsIfWanted() }
            }
        }
    }

    /// An arrow key with nothing selected selects the first item, as in Files (GTK would move
    /// from its own idea of the focused item, often to the second one, or do nothing).
    func selectFirstItemForArrow(_ key: UInt32) -> Bool {
        let arrows = [GDK_KEY_Up, GDK_KEY_Down, GDK_KEY_Left, GDK_KEY_Right, GDK_KEY_Home, GDK_KEY_Page_Up, GDK_KEY_Page_Down]
        guard arrows.contains(Int32(key)), model.count > 0, selectedPositions.isEmpty, itemsViewHasFocus else { return false }
        selectOnly(0)
        return true
    }

    /// Whether the focus is on the grid or the list, or on one of their items.
    var itemsViewHasFocus: Bool {
        guard let root = gtk_widget_get_root(contentWidget), let focus = gtk_root_get_focus(root) else { return false }
        return [grid.grid, list.columnView].contains { focus == $0 || gtk_widget_is_ancestor(focus, $0) != 0 }
    }

    /// Whether the view itself has the focus, not one of its items: it then takes no Enter of
    /// its own (an item's Enter activates it), so the browser's opens the selection.
    var itemsViewItselfHasFocus: Bool {
        guard let root = gtk_widget_get_root(contentWidget), let focus = gtk_root_get_focus(root) else { return false }
        // The column view gives its focus to the list view inside it.
        return focus == grid.grid || focus == list.columnView
            || (gtk_widget_get_parent(focus) == list.columnView && gtk_widget_is_ancestor(focus, list.columnView) != 0
                && g_type_check_instance_is_a(UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GTypeInstance.self),
                                              gtk_list_view_get_type()) != 0)
    }
}

/// The focus the items view was promised, and where the focus was then (compared, never used).
struct ItemsFocusRequest {
    let focusThen: UnsafeMutableRawPointer?
}
