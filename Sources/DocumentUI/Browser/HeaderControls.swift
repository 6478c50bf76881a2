import CGLib
import CGtk
import DocumentCore
import GObjectSupport
import GtkSupport

/// The controls for the end of the window's header bar: the search toggle, the grid/list
/// toggle, and the view menu (sort, reversed, show hidden, zoom).
@MainActor
final class HeaderControls {
    let widget: WidgetPointer
    let searchButton: WidgetPointer
    let viewModeButton: WidgetPointer
    let menuButton: WidgetPointer

    init(searchBar: WidgetPointer) {
        searchButton = gtk_toggle_button_new()!
        gtk_button_set_icon_name(cast(searchButton), "system-search-symbolic")
        setAccessibleName(searchButton, tr("Search"))
        gtk_widget_set_tooltip_text(searchButton, tr("Search"))
        g_object_bind_property(raw(searchButton), "active", raw(searchBar), "search-mode-enabled",
                               GBindingFlags(rawValue: DOSSIER_G_BINDING_BIDIRECTIONAL | DOSSIER_G_BINDING_SYNC_CREATE))

        viewModeButton = gtk_button_new()!
        gtk_actionable_set_action_name(cast(viewModeButton), "browser.toggle-view-mode")

        menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(menuButton), "view-more-symbolic")
        setAccessibleName(menuButton, tr("View Options"))
        gtk_widget_set_tooltip_text(menuButton, tr("View Options"))
        let menu = Self.makeMenu()
        gtk_menu_button_set_menu_model(cast(menuButton), cast(menu))
        g_object_unref(raw(menu))

        widget = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [searchButton, viewModeButton, menuButton])
    }

    /// The toggle shows the mode a click switches to.
    func show(_ mode: BrowserViewMode) {
        let (icon, name) = mode == .grid
            ? ("view-list-symbolic", tr("Show as List"))
            : ("view-grid-symbolic", tr("Show as Grid"))
        gtk_button_set_icon_name(cast(viewModeButton), icon)
        setAccessibleName(viewModeButton, name)
        gtk_widget_set_tooltip_text(viewModeButton, name)
    }

    private static func makeMenu() -> OpaquePointer {
        let menu = g_menu_new()!
        let sort = g_menu_new()!
        for (key, title) in [("name", tr("Sort by Name")), ("size", tr("Sort by Size")), ("kind", tr("Sort by Kind")),
                             ("modified", tr("Sort by Modification Date"))] {
            g_menu_append(sort, title, "browser.sort::" + key)
        }
        g_menu_append(sort, tr("Reversed Order"), "browser.sort-reversed")
        g_menu_append_section(menu, nil, cast(sort))
        g_object_unref(raw(sort))

        let view = g_menu_new()!
        g_menu_append(view, tr("Grid"), "browser.view-mode::grid")
        g_menu_append(view, tr("List"), "browser.view-mode::list")
        g_menu_append(view, tr("Show Hidden Files"), "browser.show-hidden")
        g_menu_append_section(menu, nil, cast(view))
        g_object_unref(raw(view))

        let zoom = g_menu_new()!
        g_menu_append(zoom, tr("Zoom In"), "browser.zoom-in")
        g_menu_append(zoom, tr("Zoom Out"), "browser.zoom-out")
        g_menu_append(zoom, tr("Reset Zoom"), "browser.zoom-reset")
        g_menu_append_section(menu, nil, cast(zoom))
        g_object_unref(raw(zoom))
        return menu
    }
}
