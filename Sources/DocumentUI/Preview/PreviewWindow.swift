import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The previewer's window: a libadwaita window with the item's title and "3 of 12" in the
/// header, an Open With button (a split button: the default app, and the Open With menu of the
/// item's `DocumentInteractionController`), a menu with Copy, Copy Path, Show in Folder,
/// Properties and Print… (the controller's `doc.` actions), and the items in a cross-fading stack.
@MainActor
final class PreviewWindow {
    let window: WidgetPointer
    let title: OpaquePointer
    let stack: WidgetPointer
    let openButton: OpaquePointer
    let zoomLayer: WidgetPointer
    let zoom: ZoomTransition
    /// The host program's actions (`host.`), a section of the menu.
    let hostActions = PreviewHostActions()
    private(set) var isFullscreen = false
    /// The size the window opens at.
    nonisolated static let defaultSize: (width: Int32, height: Int32) = (900, 700)

    /// The width `root`'s content has, or is about to get when the window is not laid out yet
    /// (a renderer's first drawing): its default width, within the screen's, less the window's
    /// own edges. A window drawn without a compositor keeps a resize border inside its size (5 px
    /// a side in Adwaita), and a first drawing made for the whole default width would be drawn
    /// again at once.
    static func contentWidth(of root: WidgetPointer) -> Int32 {
        let allocated = gtk_widget_get_width(root)
        if allocated > 0 { return allocated }
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(cast(root), &width, &height)
        if width <= 0 { width = defaultSize.width }
        // GTK fits a window's default size into its monitor: on a screen narrower than the
        // window (640 logical pixels at scale 2), the window is the screen's width.
        if let screen = firstMonitorWidth(of: root), screen > 0 { width = min(width, screen) }
        // The window's measure holds its content's and its own padding, border and margin.
        guard let content = gtk_widget_get_first_child(root) else { return width }
        var window: Int32 = 0, inside: Int32 = 0
        gtk_widget_measure(root, GTK_ORIENTATION_HORIZONTAL, -1, &window, nil, nil, nil)
        gtk_widget_measure(content, GTK_ORIENTATION_HORIZONTAL, -1, &inside, nil, nil, nil)
        return max(width - max(window - inside, 0), 1)
    }

    /// The width of the display's first monitor, in logical pixels (where a window is not yet shown).
    private static func firstMonitorWidth(of widget: WidgetPointer) -> Int32? {
        guard let monitors = gdk_display_get_monitors(gtk_widget_get_display(widget)),
              let first = g_list_model_get_item(monitors, 0) else { return nil }
        defer { g_object_unref(first) }
        var geometry = GdkRectangle()
        gdk_monitor_get_geometry(OpaquePointer(first), &geometry)
        return geometry.width
    }

    init(application: UnsafeMutablePointer<GtkApplication>?) {
        window = application.map { widget(adw_application_window_new($0)) } ?? widget(adw_window_new())
        gtk_window_set_default_size(cast(window), Self.defaultSize.width, Self.defaultSize.height)
        setAccessibleName(window, tr("Preview"))

        title = OpaquePointer(adw_window_title_new("", ""))
        let header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(OpaquePointer(header), widget(title))

        openButton = OpaquePointer(adw_split_button_new())
        adw_split_button_set_label(openButton, tr("Open"))
        gtk_actionable_set_action_name(cast(widget(openButton)), "doc.open")
        setAccessibleName(widget(openButton), tr("Open in the default application"))
        adw_split_button_set_dropdown_tooltip(openButton, tr("Open with another application"))
        // AdwSplitButton 1.2 gives its arrow only a tooltip: name the arrow (a GtkMenuButton)
        // and the toggle inside it, or a screen reader announces "GtkMenuButton".
        var part = gtk_widget_get_first_child(widget(openButton))
        while let current = part {
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_menu_button_get_type()) != 0 {
                setAccessibleName(current, tr("Open with another application"))
                if let toggle = gtk_widget_get_first_child(current) { setAccessibleName(toggle, tr("Open with another application")) }
            }
            part = gtk_widget_get_next_sibling(current)
        }
        adw_header_bar_pack_end(OpaquePointer(header), widget(openButton))

        let menu = g_menu_new()
        g_menu_append(menu, tr("Copy"), "doc.copy")
        g_menu_append(menu, tr("Copy Path"), "doc.copy-path")
        g_menu_append(menu, tr("Show in Folder"), "doc.show-in-folder")
        g_menu_append(menu, tr("Properties"), "doc.properties")
        // Only for an item Dossier prints (the action is disabled for the others).
        let print = g_menu_item_new(tr("Print…"), "doc.print")
        g_menu_item_set_attribute_value(print, "hidden-when", g_variant_new_string("action-disabled"))
        g_menu_append_item(menu, print)
        g_object_unref(raw(print!))
        g_menu_append_section(menu, nil, cast(hostActions.menu))
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(menuButton), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(cast(menuButton), cast(menu))
        g_object_unref(raw(menu!))
        setAccessibleName(menuButton, tr("Menu"))
        gtk_menu_button_set_primary(cast(menuButton), 1)  // F10 opens it
        adw_header_bar_pack_end(OpaquePointer(header), menuButton)

        stack = gtk_stack_new()
        gtk_stack_set_transition_type(OpaquePointer(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_set_transition_duration(OpaquePointer(stack), 150)
        // Sized by the item shown only: a homogeneous stack measures every page it holds, and
        // the pages kept for a quick return (a long Markdown document, say) would be measured
        // again each time the window is shown.
        gtk_stack_set_hhomogeneous(OpaquePointer(stack), 0)
        gtk_stack_set_vhomogeneous(OpaquePointer(stack), 0)
        gtk_widget_set_vexpand(stack, 1)

        // The zoom's picture moves on a layer over everything, which never takes input.
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(cast(overlay), makeBox(GTK_ORIENTATION_VERTICAL, [header, stack]))
        zoomLayer = gtk_fixed_new()
        gtk_widget_set_can_target(zoomLayer, 0)
        gtk_overlay_add_overlay(cast(overlay), zoomLayer)
        if application != nil {
            adw_application_window_set_content(cast(window), overlay)
        } else {
            adw_window_set_content(cast(window), overlay)
        }
        zoom = ZoomTransition(layer: zoomLayer, content: stack, window: window)
        gtk_widget_insert_action_group(window, "host", cast(hostActions.group))
    }

    /// Fills the Open With button: "Open With <default>", and the Open With menu (the item's
    /// interaction controller's model, over its `doc.` actions).
    func setOpenWith(menu: OpaquePointer?, default defaultApp: Application?) {
        let label = defaultApp.map { tr("Open With %s", $0.name) } ?? tr("Open With…")
        adw_split_button_set_label(openButton, label)
        setAccessibleName(widget(openButton), label)
        adw_split_button_set_menu_model(openButton, menu.map { cast($0) })
    }

    func toggleFullscreen() {
        isFullscreen.toggle()
        isFullscreen ? gtk_window_fullscreen(cast(window)) : gtk_window_unfullscreen(cast(window))
    }
}
