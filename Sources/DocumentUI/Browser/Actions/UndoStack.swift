import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// A window's undoable file operations, newest last: Ctrl+Z undoes the newest, a toast's
/// Undo button undoes its own. Each entry is one user action (a rename, a paste of ten
/// files), undone as a whole.
@MainActor
final class UndoStack {
    struct Entry: Identifiable {
        let id = UUID()
        /// What the toast said ("“a.txt” renamed").
        let title: String
        let results: [FileOperationResult]
    }

    /// At most this many actions are kept.
    static let limit = 50
    private(set) var entries: [Entry] = []
    /// Each entry's toast (referenced), dismissed when the entry is undone another way.
    private var toasts: [UUID: OpaquePointer] = [:]

    isolated deinit { toasts.values.forEach { g_object_unref(raw($0)) } }

    /// Remembers the toast that offers to undo `id`.
    func attach(_ toast: OpaquePointer, to id: UUID) {
        g_object_ref(raw(toast))
        toasts[id] = toast
    }

    private func forget(_ id: UUID, dismiss: Bool) {
        guard let toast = toasts.removeValue(forKey: id) else { return }
        if dismiss { adw_toast_dismiss(toast) }
        g_object_unref(raw(toast))
    }

    /// Records `results` as one action; nothing when none of them can be undone.
    @discardableResult
    func push(_ title: String, _ results: [FileOperationResult]) -> Entry? {
        let undoable = results.filter(\.isUndoable)
        guard !undoable.isEmpty else { return nil }
        let entry = Entry(title: title, results: undoable)
        entries.append(entry)
        while entries.count > Self.limit { forget(entries.removeFirst().id, dismiss: false) }
        return entry
    }

    /// Takes the newest action off the stack.
    func popLast() -> Entry? {
        guard let entry = entries.popLast() else { return nil }
        forget(entry.id, dismiss: true)
        return entry
    }

    /// Takes the action `id` off the stack (its toast's Undo), if it is still there.
    func take(_ id: UUID) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        forget(id, dismiss: false)
        return entries.remove(at: index)
    }

    /// Drops the actions that moved things to the Trash, and dismisses their toasts: after the
    /// Trash was emptied, there is nothing left to put back.
    func dropTrashings() {
        let gone = entries.filter { $0.results.contains { if case .trashed = $0 { true } else { false } } }
        for entry in gone { forget(entry.id, dismiss: true) }
        entries.removeAll { entry in gone.contains { $0.id == entry.id } }
    }

    var isEmpty: Bool { entries.isEmpty }
}
