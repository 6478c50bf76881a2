import CGtk
import DocumentUI

// The app's few casts between GTK's typed and opaque pointers (DocumentUI keeps its own set
// internal), so the window code speaks in widgets.

@inlinable func widget(_ pointer: OpaquePointer?) -> Widget {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: GtkWidget.self)
}

@inlinable func widget<T>(_ pointer: UnsafeMutablePointer<T>?) -> Widget {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: GtkWidget.self)
}

/// The same object as another typed pointer (GtkWindow, GApplication…), inferred from the use.
@inlinable func cast<T, U>(_ pointer: UnsafeMutablePointer<U>?) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: T.self)
}

/// The same object as an opaque pointer, for the classes whose struct is private.
@inlinable func cast<U>(_ pointer: UnsafeMutablePointer<U>?) -> OpaquePointer {
    OpaquePointer(pointer!)
}

@inlinable func cast<T>(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: T.self)
}

@inlinable func raw<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
@inlinable func raw(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

/// Sets a widget's accessible name (what a screen reader and AT-SPI tests see).
@MainActor
func setAccessibleName(_ widget: Widget, _ name: String) {
    dossier_gtk_accessible_set_label(widget, name)
}

/// A vertical or horizontal box holding `children`.
@MainActor
func makeBox(_ orientation: GtkOrientation, spacing: Int32 = 0, _ children: [Widget]) -> Widget {
    let box = gtk_box_new(orientation, spacing)!
    for child in children { gtk_box_append(cast(box), child) }
    return box
}
