import CGtk
import Foundation

/// A GObject reference that may cross to another thread (pixbufs are immutable once made).
final class PixbufReference: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { g_object_unref(raw(pointer)) }
}
