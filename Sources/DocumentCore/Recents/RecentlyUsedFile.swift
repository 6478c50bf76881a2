import CGLib
import Foundation
import GObjectSupport

/// `recently-used.xbel` held in memory through GLib's GBookmarkFile, the parser and writer
/// GtkRecentManager and GNOME Files use, so every other program's entries survive our writes.
/// Reloaded only when the file on disk changed since we last read or wrote it; saved with
/// `g_bookmark_file_to_file`, which writes a temporary file and renames it over.
///
/// Not thread-safe: `RecentDocuments` owns one behind its lock.
final class RecentlyUsedFile {
    /// One application's registration of an item.
    struct Registration {
        let name: String
        let exec: String
        let count: Int
        let stamp: Date?
    }

    let url: URL
    private var file: OpaquePointer
    /// What was on disk when last read or written (nil: no file).
    private var onDisk: FileState?
    private var loaded = false
    /// Changed in memory since last read or written.
    private var changed = false

    init(url: URL) {
        self.url = url
        file = g_bookmark_file_new()
    }

    deinit { g_bookmark_file_free(file) }

    /// Reads the file again when another program changed it since.
    func refresh() throws(RecentsError) {
        let state = FileState(path: url.path)
        guard !loaded || state != onDisk else { return }
        changed = false
        let fresh = g_bookmark_file_new()!
        if state != nil {
            do {
                _ = try withGError { g_bookmark_file_load_from_file(fresh, url.path, $0) }
            } catch {
                g_bookmark_file_free(fresh)
                // An empty file is what some programs leave after clearing: take it as empty.
                if state?.size != 0 {
                    throw .unreadable(path: url.path, reason: (error as? GLibError)?.message ?? "\(error)")
                }
                onDisk = state
                loaded = true
                g_bookmark_file_free(file)
                file = g_bookmark_file_new()
                return
            }
        }
        g_bookmark_file_free(file)
        file = fresh
        onDisk = state
        loaded = true
    }

    /// Writes the file atomically (GLib: temporary file, fsync, rename), if it was changed.
    func save() throws(RecentsError) {
        guard changed else { return }
        let folder = url.deletingLastPathComponent().path
        g_mkdir_with_parents(folder, 0o700)
        do {
            _ = try withGError { g_bookmark_file_to_file(file, url.path, $0) }
        } catch {
            throw .unwritable(path: url.path, reason: (error as? GLibError)?.message ?? "\(error)")
        }
        onDisk = FileState(path: url.path)
        changed = false
    }

    // MARK: Reading

    var uris: [String] {
        var length: gsize = 0
        return takeStringArray(g_bookmark_file_get_uris(file, &length))
    }

    func contains(_ uri: String) -> Bool { g_bookmark_file_has_item(file, uri) != 0 }

    func mimeType(_ uri: String) -> String? {
        takeString(try? withGError { g_bookmark_file_get_mime_type(file, uri, $0) })
    }

    func title(_ uri: String) -> String? {
        takeString(try? withGError { g_bookmark_file_get_title(file, uri, $0) })
    }

    func isPrivate(_ uri: String) -> Bool {
        (try? withGError { g_bookmark_file_get_is_private(file, uri, $0) }) == 1
    }

    func added(_ uri: String) -> Date? { date(try? withGError { g_bookmark_file_get_added_date_time(file, uri, $0) }) }
    func modified(_ uri: String) -> Date? { date(try? withGError { g_bookmark_file_get_modified_date_time(file, uri, $0) }) }
    func visited(_ uri: String) -> Date? { date(try? withGError { g_bookmark_file_get_visited_date_time(file, uri, $0) }) }

    func registrations(_ uri: String) -> [Registration] {
        var length: gsize = 0
        let names = takeStringArray(try? withGError { g_bookmark_file_get_applications(file, uri, &length, $0) })
        return names.compactMap { name in registration(uri, name) }
    }

    func registration(_ uri: String, _ name: String) -> Registration? {
        var exec: UnsafeMutablePointer<CChar>?
        var count: UInt32 = 0
        var stamp: OpaquePointer?
        let found = try? withGError { g_bookmark_file_get_application_info(file, uri, name, &exec, &count, &stamp, $0) }
        guard found == 1 else { return nil }
        return Registration(name: name, exec: takeString(exec) ?? "", count: Int(count), stamp: date(stamp))
    }

    // MARK: Changing

    /// Registers `application` for `uri` (creating the item), counts one more use and sets
    /// the dates: visited for an opening, modified for an edit or a creation.
    func record(_ uri: String, mimeType: String, application: String, exec: String, visited: Bool, modified: Bool,
                at time: Date) {
        changed = true
        let stamp = dateTime(time)
        defer { g_date_time_unref(stamp) }
        let count = registration(uri, application)?.count ?? 0
        if !contains(uri) {
            g_bookmark_file_add_application(file, uri, application, exec)
            g_bookmark_file_set_added_date_time(file, uri, stamp)
        }
        // Counts the use and stamps it with `time` rather than GLib's "now".
        _ = try? withGError { g_bookmark_file_set_application_info(file, uri, application, exec, Int32(count + 1), stamp, $0) }
        g_bookmark_file_set_mime_type(file, uri, mimeType)
        if visited { g_bookmark_file_set_visited_date_time(file, uri, stamp) }
        if modified { g_bookmark_file_set_modified_date_time(file, uri, stamp) }
    }

    /// Drops one application's registration; the item goes with its last one (GLib would
    /// otherwise write a warning and skip it).
    func removeRegistration(_ uri: String, application: String) {
        if registrations(uri).contains(where: { $0.name != application }) {
            _ = try? withGError { g_bookmark_file_remove_application(file, uri, application, $0) }
        } else {
            remove(uri)
        }
    }

    func remove(_ uri: String) {
        changed = true
        _ = try? withGError { g_bookmark_file_remove_item(file, uri, $0) }
    }

    /// Points the item at a new URI, keeping everything else (`g_bookmark_file_move_item`).
    func move(_ uri: String, to newURI: String) {
        changed = true
        _ = try? withGError { g_bookmark_file_move_item(file, uri, newURI, $0) }
    }

    func removeAll() {
        changed = true
        g_bookmark_file_free(file)
        file = g_bookmark_file_new()
    }

    // MARK: Dates

    private func date(_ dateTime: OpaquePointer?) -> Date? {
        guard let dateTime else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(g_date_time_to_unix(dateTime))
            + TimeInterval(g_date_time_get_microsecond(dateTime)) / 1_000_000)
    }

    private func dateTime(_ date: Date) -> OpaquePointer {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let whole = g_date_time_new_from_unix_utc(gint64(seconds))!
        defer { g_date_time_unref(whole) }
        return g_date_time_add(whole, GTimeSpan((date.timeIntervalSince1970 - seconds) * 1_000_000))!
    }
}
