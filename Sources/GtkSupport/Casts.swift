import CGLib
import CGtk
import GObjectSupport

// GTK's C types arrive in Swift as typed pointers for the classes with public instance structs
// (GtkWidget, GtkWindow) and as opaque pointers for the rest (GtkBox, GtkLabel…). These are the
// casts between them, for the package's own code that calls GTK. They are unchecked, so they
// stay in the package: public API speaks `Widget`, `WindowWidget` and the typed views.

/// A raw GtkWidget pointer, as GTK's functions take and return it (what `Widget` bridges).
public typealias WidgetPointer = UnsafeMutablePointer<GtkWidget>

/// The object as a GtkWidget pointer; the pointer must not be nil.
@inlinable package func widget(_ pointer: OpaquePointer?) -> WidgetPointer {
    gcast(UnsafeMutableRawPointer(pointer!))!
}

/// The object as a GtkWidget pointer; the pointer must not be nil.
@inlinable package func widget<T>(_ pointer: UnsafeMutablePointer<T>?) -> WidgetPointer {
    gcast(pointer!)!
}

/// The object as an opaque pointer, for the classes whose struct is private (GtkBox, GtkStack…).
@inlinable package func opaque<T>(_ pointer: UnsafeMutablePointer<T>?) -> OpaquePointer {
    OpaquePointer(pointer!)
}

/// The same object as another typed pointer (GtkWindow, GApplication…), inferred from the use.
@inlinable package func cast<T, U>(_ pointer: UnsafeMutablePointer<U>?) -> UnsafeMutablePointer<T> {
    gcast(pointer!)!
}

/// The same object as an opaque pointer, inferred from the use.
@inlinable package func cast<U>(_ pointer: UnsafeMutablePointer<U>?) -> OpaquePointer {
    OpaquePointer(pointer!)
}

/// An object that imports as an opaque pointer as a typed one, inferred from the use.
@inlinable package func cast<T>(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<T> {
    gcast(UnsafeMutableRawPointer(pointer!))!
}

/// The widget as a GtkWindow pointer (it must be a window).
@inlinable package func window(_ widget: WidgetPointer) -> UnsafeMutablePointer<GtkWindow> {
    gcast(widget)!
}

/// The object as an untyped pointer, for GObject's functions (`g_object_ref`, signals…).
@inlinable package func raw<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

/// The object as an untyped pointer, for GObject's functions (`g_object_ref`, signals…).
@inlinable package func raw(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

extension WeakObject {
    /// Watches a widget without owning it.
    public convenience init(widget: WidgetPointer) {
        self.init(UnsafeMutableRawPointer(widget))
    }

    /// The watched object as a widget while it lives; nil once it has been finalized.
    public var widget: WidgetPointer? { gcast(object) }
}
