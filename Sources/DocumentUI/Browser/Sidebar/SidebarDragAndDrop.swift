import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Favorites by drag and drop: a folder dropped on the sidebar (from Dossier, Files or any
/// app offering `text/uri-list`) becomes a favorite where it lands; a favorite dragged within
/// the sidebar (or any drop of a folder that is already a favorite) moves there. Favorites can also be dragged out, as their folder.
extension BrowserSidebar {
    func installDropTarget() {
        let actions = GdkDragAction(GDK_ACTION_COPY.rawValue | GDK_ACTION_LINK.rawValue | GDK_ACTION_MOVE.rawValue)
        let target = gtk_drop_target_new(gdk_file_list_get_type(), actions)!
        connectDropSignal(raw(target)) { [weak self] value, _, y in
            guard let self else { return false }
            return self.drop(uris: Self.uris(in: value), atY: y)
        }
        gtk_widget_add_controller(listBox, target)
    }

    func installDragSource(on row: WidgetPointer, item: SidebarItem) {
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GdkDragAction(GDK_ACTION_COPY.rawValue | GDK_ACTION_LINK.rawValue | GDK_ACTION_MOVE.rawValue))
        connectDragPrepareSignal(raw(source)) { _, _ in
            guard let favorite = item.favorite else { return nil }
            return Self.contentProvider(uri: favorite.uri)
        }
        gtk_widget_add_controller(row, source)
    }

    /// Adds the dropped folders as favorites, or moves the dragged favorite, before the row
    /// under `y` (after it when in its lower half).
    private func drop(uris: [String], atY y: Double) -> Bool {
        let favorites = rows.compactMap(\.item.favorite)
        var index = favorites.count
        if let (row, item) = nearestRow(toY: y) {
            var top = 0.0, height = 0.0
            dossier_widget_vertical_extent(row, &top, &height)
            let lowerHalf = y > top + height / 2
            if let favorite = item.favorite, let position = favorites.firstIndex(of: favorite) {
                index = position + (lowerHalf ? 1 : 0)
            } else if item.section.rawValue < SidebarItem.Section.favorites.rawValue {
                index = 0
            }
        }
        // A favorite dropped on the sidebar (dragged from it, or from another window's) moves.
        if uris.count == 1, let dragged = favorites.first(where: { Self.sameLocation($0.uri, uris[0]) }),
           let from = favorites.firstIndex(of: dragged) {
            // The index counts the favorites without the moved one.
            let target = index > from ? index - 1 : index
            if target != from { changeFavorites { try $0.move(dragged.uri, to: target) } }
            return true
        }
        guard !uris.isEmpty else { return false }
        let favoritesStore = sources.favorites
        let insertAt = index
        Task { @MainActor [weak self] in
            let failures = await Task.detached { () -> [String] in
                var failures: [String] = []
                for (offset, uri) in uris.enumerated() {
                    let file = g_file_new_for_uri(uri)
                    defer { unref(file) }
                    let name = takeString(g_file_get_basename(file)) ?? uri
                    guard g_file_query_file_type(file, GFileQueryInfoFlags(rawValue: 0), nil) == G_FILE_TYPE_DIRECTORY else {
                        failures.append(tr("“%s” is not a folder: only folders can be favorites.", name))
                        continue
                    }
                    let location = takeString(g_file_get_path(file)) ?? uri
                    do {
                        try favoritesStore.add(location, at: insertAt + offset)
                    } catch {
                        failures.append("\(error)")
                    }
                }
                return failures
            }.value
            for failure in failures { self?.errorHandler?(failure) }
        }
        return true
    }

    /// The row under `y`, or the closest one when `y` is in the gap between two rows (the
    /// sidebar style spaces them, and a separator heads each section).
    private func nearestRow(toY y: Double) -> (WidgetPointer, SidebarItem)? {
        rows.min { distance(of: $0.row, to: y) < distance(of: $1.row, to: y) }.map { ($0.row, $0.item) }
    }

    private func distance(of row: WidgetPointer, to y: Double) -> Double {
        var top = 0.0, height = 0.0
        dossier_widget_vertical_extent(row, &top, &height)
        let bottom = top + height
        return y < top ? top - y : y > bottom ? y - bottom : 0
    }

    private static func sameLocation(_ a: String, _ b: String) -> Bool {
        let first = g_file_new_for_uri(a), second = g_file_new_for_uri(b)
        defer { unref(first); unref(second) }
        return g_file_equal(first, second) != 0
    }

    /// The URIs of a dropped GdkFileList.
    private static func uris(in value: UnsafePointer<GValue>?) -> [String] {
        guard let value, let list = g_value_get_boxed(value) else { return [] }
        var uris: [String] = []
        var node = gdk_file_list_get_files(OpaquePointer(list))
        let head = node
        while let current = node {
            if let file = current.pointee.data, let uri = takeString(g_file_get_uri(OpaquePointer(file))) { uris.append(uri) }
            node = current.pointee.next
        }
        g_slist_free(head)
        return uris
    }

    /// What a dragged favorite carries: its folder, as a file list (`text/uri-list` to others).
    private static func contentProvider(uri: String) -> UnsafeMutablePointer<GdkContentProvider>? {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        let files = g_slist_prepend(nil, UnsafeMutableRawPointer(file))
        let list = gdk_file_list_new_from_list(files)
        g_slist_free(files)
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        g_value_take_boxed(&value, UnsafeRawPointer(list))
        let provider = gdk_content_provider_new_for_value(&value)
        g_value_unset(&value)
        return provider
    }
}
