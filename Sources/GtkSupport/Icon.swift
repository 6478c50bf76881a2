import CGLib
import GObjectSupport

/// An icon (a GIcon: themed names, a file, or pixels), held by a strong reference.
///
/// `gIcon` and `init(gIcon:)` are the bridge to GIO and GTK functions that take a GIcon.
public final class Icon: @unchecked Sendable {
    // @unchecked: a GIcon is immutable once made and its reference counting is atomic.

    /// The reference this wrapper holds.
    private let reference: ObjectReference

    /// The GIcon, for C functions (`gtk_image_new_from_gicon`…); valid for the wrapper's lifetime.
    public var gIcon: OpaquePointer { OpaquePointer(reference.pointer) }

    /// Wraps a GIcon and adds a reference to it (the caller keeps its own).
    public init(gIcon: OpaquePointer) {
        reference = ObjectReference(retaining: UnsafeMutableRawPointer(gIcon))
    }
}
