import CGLib
import CGtk

/// Sets a widget's accessible name (what a screen reader and AT-SPI tests see).
@MainActor
public func setAccessibleName(_ widget: WidgetPointer, _ name: String) {
    dossier_gtk_accessible_set_label(widget, name)
    // A button with a text is labelled by its label too, and GTK 4.8 reads both ("Empty
    // Trash Empty Trash…"): the name given here is the one to read.
    if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                  gtk_button_get_type()) != 0 {
        gtk_accessible_reset_relation(OpaquePointer(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
    }
}
