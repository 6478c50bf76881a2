import CGLib
import CGtk
import DocumentCore
import GObjectSupport
import GtkSupport

/// The controls for the end of the window's header bar: the search toggle, the grid/list
/// toggle, and the view menu (sort, reversed, show hidden, zoom).
@MainActor
final class HeaderControls {
    /// The three controls in a row (HeaderExtras puts more at its start).
    private let box: Box
    private let viewModeButton = Button(iconName: "view-list-symbolic")
    var widget: WidgetPointer { box.gtkWidget }

    init(searchBar: WidgetPointer) {
        let searchButton = gtk_toggle_button_new()!
        gtk_button_set_icon_name(cast(searchButton), "system-search-symbolic")
        setAccessibleName(searchButton, tr("Search"))
        gtk_widget_set_tooltip_text(searchButton, tr("Search"))
        g_object_bind_property(raw(searchButton), "active", raw(searchBar), "search-mode-enabled",
                               GBindingFlags(rawValue: DOSSIER_G_BINDING_BIDIRECTIONAL | DOSSIER_G_BINDING_SYNC_CREATE))

        viewModeButton.actionName = "browser.toggle-view-mode"
        let menuButton = MenuButton(iconName: "view-more-symbolic", name: tr("View Options"), menu: Self.makeMenu())
        box = Box(.horizontal, spacing: 6, [Widget(gtkWidget: searchButton), viewModeButton, menuButton])
    }

    /// The toggle shows the mode a click switches to.
    func show(_ mode: BrowserViewMode) {
        let (icon, name) = mode == .grid
            ? ("view-list-symbolic", tr("Show as List"))
            : ("view-grid-symbolic", tr("Show as Grid"))
        gtk_button_set_icon_name(cast(viewModeButton.gtkWidget), icon)
        viewModeButton.setAccessibleName(name)
        viewModeButton.tooltip = name
    }

    private static func makeMenu() -> Menu {
        let sorts = [("name", tr("Sort by Name")), ("size", tr("Sort by Size")), ("kind", tr("Sort by Kind")),
                     ("modified", tr("Sort by Modification Date"))]
        return Menu(sections: [
            sorts.map { (label: $0.1, action: "browser.sort::" + $0.0) }
                + [(label: tr("Reversed Order"), action: "browser.sort-reversed")],
            [(tr("Grid"), "browser.view-mode::grid"), (tr("List"), "browser.view-mode::list"),
             (tr("Show Hidden Files"), "browser.show-hidden")],
            [(tr("Zoom In"), "browser.zoom-in"), (tr("Zoom Out"), "browser.zoom-out"), (tr("Reset Zoom"), "browser.zoom-reset")],
        ])
    }
}
