import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The widgets of one sidebar row: icon, name, and for a removable volume an eject button.
@MainActor
enum SidebarRow {
    private static var styled = false

    /// A list box row for `item`; `eject` is called by the row's eject or unmount button.
    static func make(_ item: SidebarItem, eject: @escaping () -> Void) -> WidgetPointer {
        addStyle()
        let icon: WidgetPointer
        switch item.icon {
        case .named(let name): icon = gtk_image_new_from_icon_name(name)
        case .gicon(let gicon): icon = gtk_image_new_from_gicon(OpaquePointer(gicon.pointer))
        case .dot:
            icon = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
            gtk_widget_add_css_class(icon, "dossier-tag-dot")
            gtk_widget_set_valign(icon, GTK_ALIGN_CENTER)
            gtk_widget_set_halign(icon, GTK_ALIGN_CENTER)
        }
        let label = makeLabel(item.title)
        gtk_label_set_xalign(opaque(label), 0)
        gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(label, 1)
        let box = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [icon, label])
        if let mount = item.mount, let removal = SidebarVolumes.removal(of: mount) {
            let button = gtk_button_new_from_icon_name("media-eject-symbolic")!
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
            let name = removal == .eject ? tr("Eject “%s”", item.title) : tr("Unmount “%s”", item.title)
            setAccessibleName(button, name)
            gtk_widget_set_tooltip_text(button, name)
            connectSignal(raw(button), "clicked") { eject() }
            gtk_box_append(cast(box), button)
        }
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(cast(row), box)
        setAccessibleName(row, item.title)
        if let tooltip = item.tooltip { gtk_widget_set_tooltip_text(row, tooltip) }
        return row
    }

    private static func addStyle() {
        guard !styled else { return }
        styled = true
        dossier_add_css("""
            .dossier-tag-dot { min-width: 10px; min-height: 10px; margin: 3px; border-radius: 50%; background: @accent_bg_color; }
            """)
    }
}
