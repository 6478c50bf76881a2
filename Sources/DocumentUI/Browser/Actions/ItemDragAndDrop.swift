import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Items by drag and drop: the selection drags out as a file list (`text/uri-list` to other
/// apps, with each item's own URI: `sftp://…` for a server's items, as Files drags GVFS
/// locations); files dropped on the view are copied into the shown folder — or into the folder
/// item they are dropped on — and moved when Shift is held. A server's folder takes them through
/// the remote file operations (`place`), and so does an empty folder's page.
extension DocumentBrowser {
    func installDragAndDrop() {
        // An empty folder shows a status page instead of the items: what is dropped there goes
        // into the folder too.
        let emptyTarget = gtk_drop_target_new(gdk_file_list_get_type(), GdkDragAction(GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue))!
        connectDropSignal(raw(emptyTarget)) { [weak self] value, _, _ in
            guard let self, self.status.status == .emptyFolder else { return false }
            return self.drop(Self.urls(in: value), on: nil, x: 0, y: 0, move: Self.isMove(emptyTarget))
        }
        gtk_widget_add_controller(status.widget, emptyTarget)

        for view in [grid.grid, list.columnView] {
            let source = gtk_drag_source_new()!
            gtk_drag_source_set_actions(source, GdkDragAction(GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue))
            connectDragPrepareSignal(raw(source)) { [weak self] x, y in
                self?.dragContent(from: view, source: source, x: x, y: y)
            }
            gtk_widget_add_controller(view, source)

            let target = gtk_drop_target_new(gdk_file_list_get_type(), GdkDragAction(GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue))!
            connectDropSignal(raw(target)) { [weak self] value, x, y in
                guard let self else { return false }
                return self.drop(Self.urls(in: value), on: view, x: x, y: y, move: Self.isMove(target))
            }
            gtk_widget_add_controller(view, target)
        }
    }

    private func dragContent(from view: WidgetPointer, source: OpaquePointer, x: Double, y: Double) -> UnsafeMutablePointer<GdkContentProvider>? {
        guard location != .trash else { return nil }
        let item = view == grid.grid ? grid.item(at: x, y) : list.item(at: x, y)
        guard let item, let position = model.position(of: item.url) else { return nil }
        if !selectedPositions.contains(position) { gtk_selection_model_select_item(selection, guint(position), 1) }
        let urls = selectedURLs
        if let cell = itemWidget(for: item.url) {
            let paintable = gtk_widget_paintable_new(cell)!
            gtk_drag_source_set_icon(source, paintable, Int32(x - (bounds(of: cell, in: view)?.x ?? 0)),
                                     Int32(y - (bounds(of: cell, in: view)?.y ?? 0)))
            g_object_unref(raw(paintable))
        }
        return FileClipboard.contentProvider(for: urls)
    }

    /// Places dropped `urls` into the folder item at `x`, `y` of `view`, else into the folder
    /// shown (`view` nil: the empty folder's page). True when they are taken.
    func drop(_ urls: [URL], on view: WidgetPointer?, x: Double, y: Double, move: Bool) -> Bool {
        guard !urls.isEmpty else { return false }
        let target = view == nil ? nil : view == grid.grid ? grid.item(at: x, y) : list.item(at: x, y)
        let destination: URL
        if let target, target.isDirectory, target.trashed == nil, !urls.contains(where: { FileOperations.sameFolder($0, target.url) }) {
            destination = target.url
        } else if let folder = currentFolder {
            destination = folder
            // Items dropped back on their own folder's background stay where they are.
            if urls.allSatisfy({ FileOperations.sameFolder($0.deletingLastPathComponent(), folder) }) {
                return false
            }
        } else {
            return false
        }
        place(urls, into: destination, move: move)
        return true
    }

    /// Whether a drop moves: the source asked for a move only (another app's drag with Shift
    /// held: the X drag protocol carries the action, not the keys), or Shift is down here.
    private static func isMove(_ target: OpaquePointer) -> Bool {
        let state = gtk_event_controller_get_current_event_state(target).rawValue
        if state & GDK_SHIFT_MASK.rawValue != 0 { return true }
        guard let drop = gtk_drop_target_get_current_drop(target) else { return false }
        let actions = gdk_drop_get_actions(drop).rawValue
        return actions & GDK_ACTION_MOVE.rawValue != 0 && actions & GDK_ACTION_COPY.rawValue == 0
    }

    /// The files of a dropped GdkFileList (GTK makes one from a `text/uri-list`, remote URIs
    /// included).
    static func urls(in value: UnsafePointer<GValue>?) -> [URL] {
        guard let value, let list = g_value_get_boxed(value) else { return [] }
        var urls: [URL] = []
        var node = gdk_file_list_get_files(OpaquePointer(list))
        let head = node
        while let current = node {
            if let file = current.pointee.data, let uri = takeString(g_file_get_uri(OpaquePointer(file))), let url = URL(string: uri) {
                urls.append(url)
            }
            node = current.pointee.next
        }
        g_slist_free(head)
        return urls
    }
}
