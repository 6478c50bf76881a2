import CGLib

/// An owning reference to a GObject: the wrapper holds one reference and drops it in `deinit`.
///
/// Taking ownership of a floating reference (a freshly made GtkWidget, say) sinks it, so the
/// wrapper never shares the floating reference with a container that may later drop it.
public final class ObjectReference: @unchecked Sendable {
    // @unchecked: GObject reference counting is atomic; what the object may be used for on
    // which thread is the caller's business (GTK objects stay on the main actor).

    /// The wrapped object; valid for the wrapper's lifetime.
    public let pointer: UnsafeMutableRawPointer

    /// Takes ownership of a reference returned by a C function ("transfer full" or floating).
    /// A floating reference is sunk; a full one is adopted as it is.
    public convenience init(taking pointer: UnsafeMutableRawPointer) {
        if g_object_is_floating(pointer) != 0 {
            g_object_ref_sink(pointer)
        }
        self.init(adopting: pointer)
    }

    /// Adds a reference to an object the caller does not own ("transfer none").
    public convenience init(retaining pointer: UnsafeMutableRawPointer) {
        g_object_ref(pointer)
        self.init(adopting: pointer)
    }

    /// Adopts exactly one reference the caller owns, without touching the count.
    public init(adopting pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }

    /// Takes ownership when `pointer` is non-nil.
    public convenience init?(takingOptional pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return nil }
        self.init(taking: pointer)
    }

    /// The object as a typed pointer, for calling C functions.
    public func cast<T>(to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        pointer.assumingMemoryBound(to: T.self)
    }

    deinit {
        g_object_unref(pointer)
    }
}

/// Casts any GObject-ish pointer to another typed pointer: the one place where GTK's
/// C "inheritance by first member" is bridged.
@inlinable
public func gcast<T>(_ pointer: UnsafeMutableRawPointer?, to type: T.Type = T.self) -> UnsafeMutablePointer<T>? {
    pointer?.assumingMemoryBound(to: T.self)
}

@inlinable
public func gcast<T, U>(_ pointer: UnsafeMutablePointer<U>?, to type: T.Type = T.self) -> UnsafeMutablePointer<T>? {
    guard let pointer else { return nil }
    return UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

/// Watches an object through `g_object_add_weak_pointer`: `isAlive` turns false the moment
/// the object is finalized. Useful for leak tests and for holding a widget without owning it.
public final class WeakObject {
    private let slot: UnsafeMutablePointer<gpointer?>

    public init(_ object: UnsafeMutableRawPointer) {
        slot = .allocate(capacity: 1)
        slot.initialize(to: object)
        dossier_g_object_add_weak_pointer(object, slot)
    }

    /// The object while it lives; nil once it has been finalized.
    public var object: UnsafeMutableRawPointer? { slot.pointee }

    public var isAlive: Bool { slot.pointee != nil }

    deinit {
        if let object = slot.pointee {
            dossier_g_object_remove_weak_pointer(object, slot)
        }
        slot.deallocate()
    }
}

/// Drops one reference of a GObject that imports as an opaque pointer (GFile, GFileInfo, GIcon…).
@inlinable
public func unref(_ object: OpaquePointer?) {
    if let object { g_object_unref(UnsafeMutableRawPointer(object)) }
}

/// Drops one reference of a GObject that imports as a typed pointer.
@inlinable
public func unref<T>(_ object: UnsafeMutablePointer<T>?) {
    if let object { g_object_unref(object) }
}
