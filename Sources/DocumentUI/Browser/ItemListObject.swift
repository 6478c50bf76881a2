import CGLib
import CGtk
import GObjectSupport
import GtkSupport

/// The GObject side of `BrowserListModel`: a GListModel whose items are made when GTK asks
/// for them, each a plain GObject carrying a copy of one `BrowserItem` (released with the
/// object). Items carry their data, not their position, so an insertion above a visible row
/// leaves that row's object valid; GTK only fetches the items of the ranges reported changed.
@MainActor
final class ItemListObject {
    /// The model (one reference, owned by this wrapper).
    let model: OpaquePointer

    init(source: BrowserListModel) {
        let object = g_object_new_with_properties(itemListType, 0, nil, nil)!
        model = OpaquePointer(object)
        UnsafeMutableRawPointer(model).storeBytes(
            of: Unmanaged.passUnretained(source).toOpaque(), toByteOffset: ownerOffset, as: UnsafeMutableRawPointer?.self)
    }

    /// Detaches the Swift side: views that still hold the model see it empty.
    func detach() {
        UnsafeMutableRawPointer(model).storeBytes(of: nil, toByteOffset: ownerOffset, as: UnsafeMutableRawPointer?.self)
    }

    isolated deinit {
        detach()
        g_object_unref(raw(model))
    }

    /// Tells the views that `removed` items at `position` were replaced by `added` ones.
    func itemsChanged(at position: Int, removed: Int, added: Int) {
        guard removed > 0 || added > 0 else { return }
        g_list_model_items_changed(model, guint(position), guint(removed), guint(added))
    }

    /// The item an object of this model carries.
    static func item(of object: UnsafeMutableRawPointer?) -> BrowserItem? {
        guard let object, let box = g_object_get_qdata(object.assumingMemoryBound(to: GObject.self), itemQuark) else { return nil }
        return Unmanaged<ItemBox>.fromOpaque(box).takeUnretainedValue().item
    }
}

/// One item, boxed for the qdata of its GObject.
private final class ItemBox {
    let item: BrowserItem
    init(_ item: BrowserItem) { self.item = item }
}

/// Where the owner lives in an instance: right after the GObject header.
private let ownerOffset = MemoryLayout<GObject>.stride

private let itemQuark: GQuark = g_quark_from_string("dossier-browser-item")

private func owner(_ model: OpaquePointer?) -> BrowserListModel? {
    guard let model,
          let pointer = UnsafeMutableRawPointer(model).load(fromByteOffset: ownerOffset, as: UnsafeMutableRawPointer?.self)
    else { return nil }
    return Unmanaged<BrowserListModel>.fromOpaque(pointer).takeUnretainedValue()
}

private let itemListType: GType = {
    var info = GTypeInfo()
    info.class_size = guint16(MemoryLayout<GObjectClass>.size)
    info.instance_size = guint16(MemoryLayout<GObject>.stride + MemoryLayout<UnsafeMutableRawPointer?>.stride)
    let type = g_type_register_static(dossier_gtk_type_object(), "DossierBrowserItemList", &info, GTypeFlags(rawValue: 0))
    var interface = GInterfaceInfo()
    interface.interface_init = { vtable, _ in
        guard let vtable = vtable?.assumingMemoryBound(to: GListModelInterface.self) else { return }
        vtable.pointee.get_item_type = { _ in dossier_gtk_type_object() }
        vtable.pointee.get_n_items = { model in
            nonisolated(unsafe) let model = model
            return MainActor.assumeIsolated { guint(truncatingIfNeeded: owner(model)?.count ?? 0) }
        }
        vtable.pointee.get_item = { model, position in
            nonisolated(unsafe) let model = model
            nonisolated(unsafe) var result: UnsafeMutableRawPointer?
            MainActor.assumeIsolated {
                guard let source = owner(model), Int(position) < source.count else { return }
                guard let object = g_object_new_with_properties(dossier_gtk_type_object(), 0, nil, nil) else { return }
                let box = Unmanaged.passRetained(ItemBox(source[Int(position)])).toOpaque()
                g_object_set_qdata_full(object, itemQuark, box) { data in
                    Unmanaged<ItemBox>.fromOpaque(data!).release()
                }
                result = UnsafeMutableRawPointer(object)
            }
            return result
        }
    }
    g_type_add_interface_static(type, dossier_gtk_type_list_model(), &interface)
    return type
}()

/// Connects GListModel's `items-changed` (position, removed, added).
func connectItemsChanged(_ model: OpaquePointer, _ handler: @escaping @MainActor (Int, Int, Int) -> Void) {
    connectItemsChanged(raw(model), handler)
}
