import CGtk
import GtkSupport

/// A GListModel of the positions `0..<count`: item `n` is a plain GObject that only knows `n`,
/// made when GTK asks for it. GTK asks for the rows on screen, so a list of a million rows
/// costs a few dozen small objects, and the data stays in a Swift array the cells read from.
@MainActor
final class PositionListModel {
    /// The model (one reference, owned by this wrapper).
    let model: OpaquePointer

    init(count: Int) {
        let object = g_object_new_with_properties(positionListModelType, 0, nil, nil)!
        model = OpaquePointer(object)
        storeCount(count)
    }

    isolated deinit { g_object_unref(raw(model)) }

    /// The number of positions; changing it tells the views.
    var count: Int {
        get { Int(readCount(UnsafeMutableRawPointer(model))) }
        set {
            let old = count
            storeCount(newValue)
            g_list_model_items_changed(model, 0, guint(old), guint(max(newValue, 0)))
        }
    }

    /// Adds the positions `count..<newCount` at the end: the views keep the rows they made.
    func grow(to newCount: Int) {
        let old = count
        guard newCount > old else { return }
        storeCount(newCount)
        g_list_model_items_changed(model, guint(old), 0, guint(newCount - old))
    }

    private func storeCount(_ count: Int) {
        UnsafeMutableRawPointer(model).storeBytes(of: UInt(max(count, 0)), toByteOffset: countOffset, as: UInt.self)
    }

    /// The position an item of this model stands for.
    static func position(of item: UnsafeMutableRawPointer?) -> Int? {
        guard let item, let value = g_object_get_qdata(item.assumingMemoryBound(to: GObject.self), positionQuark) else { return nil }
        return Int(bitPattern: UInt(bitPattern: value)) - 1
    }
}

// The type is registered from Swift (one GObject subclass implementing GListModel), so there is
// no C file to build and no risk of a header's static type being registered twice.

/// Where the count lives in an instance: right after the GObject header.
private let countOffset = MemoryLayout<GObject>.stride

private let positionQuark: GQuark = g_quark_from_string("dossier-list-position")

private func readCount(_ instance: UnsafeMutableRawPointer) -> UInt {
    instance.load(fromByteOffset: countOffset, as: UInt.self)
}

private let positionListModelType: GType = {
    var info = GTypeInfo()
    info.class_size = guint16(MemoryLayout<GObjectClass>.size)
    info.instance_size = guint16(MemoryLayout<GObject>.stride + MemoryLayout<UInt>.stride)
    let type = g_type_register_static(dossier_gtk_type_object(), "DossierPositionListModel", &info, GTypeFlags(rawValue: 0))
    var interface = GInterfaceInfo()
    interface.interface_init = { vtable, _ in
        guard let vtable = vtable?.assumingMemoryBound(to: GListModelInterface.self) else { return }
        vtable.pointee.get_item_type = { _ in dossier_gtk_type_object() }
        vtable.pointee.get_n_items = { model in
            guard let model else { return 0 }
            return guint(truncatingIfNeeded: readCount(UnsafeMutableRawPointer(model)))
        }
        vtable.pointee.get_item = { model, position in
            guard let model, UInt(position) < readCount(UnsafeMutableRawPointer(model)) else { return nil }
            guard let item = g_object_new_with_properties(dossier_gtk_type_object(), 0, nil, nil) else { return nil }
            // Stored plus one: a NULL qdata means "no position".
            g_object_set_qdata(item, positionQuark, UnsafeMutableRawPointer(bitPattern: UInt(position) + 1))
            return UnsafeMutableRawPointer(item)
        }
    }
    g_type_add_interface_static(type, dossier_gtk_type_list_model(), &interface)
    return type
}()
