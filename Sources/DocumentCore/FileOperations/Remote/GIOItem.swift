import CGLib
import Foundation
import GObjectSupport

/// One location as GIO sees it (a GFile, referenced), with the asynchronous calls the remote
/// file operations need, each run through `GIOCalls` and mapped onto `FileOperationError`.
final class GIOItem {
    let file: OpaquePointer
    let url: URL

    init(_ url: URL) {
        self.url = url
        file = GVFSFiles.file(forURI: url.absoluteString)
    }

    deinit { unref(file) }

    var name: String {
        let name = url.lastPathComponent
        return name.isEmpty || name == "/" ? url.absoluteString : name
    }

    /// The item called `name` in this folder.
    /// - Throws: `.failed` for a name no item can have ("/", "..": a server's listing is not trusted).
    func child(_ name: String, isFolder: Bool, _ kind: FileOperationKind) throws(FileOperationError) -> GIOItem {
        if FileName.problem(with: name) != nil {
            throw .failed(kind, name: self.name, reason: tr("the location holds an item with an invalid name"))
        }
        return GIOItem(url.appendingPathComponent(name, isDirectory: isFolder))
    }

    /// What a copy, move or delete needs to know of an item.
    struct Info {
        var type: GFileType
        var size: Int64
        var isFolder: Bool { type == G_FILE_TYPE_DIRECTORY }
        var isCopyable: Bool { type == G_FILE_TYPE_REGULAR || type == G_FILE_TYPE_SYMBOLIC_LINK || type == G_FILE_TYPE_SHORTCUT }
    }

    /// The item's type and size (links not followed); nil when nothing is there.
    func info(_ calls: GIOCalls, _ kind: FileOperationKind) throws(FileOperationError) -> Info? {
        do {
            let info = try calls.call({ [file] callback, data in
                g_file_query_info_async(file, "standard::type,standard::size", nofollow, G_PRIORITY_DEFAULT,
                                        calls.cancellable, callback, data)
            }, finish: { result, error in g_file_query_info_finish(file, result, error) })
            guard let info else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(info)) }
            return Info(type: g_file_info_get_file_type(info), size: max(0, Int64(g_file_info_get_size(info))))
        } catch {
            if error.isIOError(G_IO_ERROR_NOT_FOUND) { return nil }
            throw FileOperationError(error, kind, name: name)
        }
    }

    /// The names of the items in this folder, in batches as GIO lists them.
    func childNames(_ calls: GIOCalls, _ kind: FileOperationKind) throws(FileOperationError) -> [(String, Bool)] {
        do {
            let enumerator = try calls.call({ [file] callback, data in
                g_file_enumerate_children_async(file, "standard::name,standard::type", nofollow, G_PRIORITY_DEFAULT,
                                                calls.cancellable, callback, data)
            }, finish: { result, error in g_file_enumerate_children_finish(file, result, error) })
            guard let enumerator else { return [] }
            defer { g_object_unref(UnsafeMutableRawPointer(enumerator)) }
            var names: [(String, Bool)] = []
            while true {
                let list = try calls.call({ callback, data in
                    g_file_enumerator_next_files_async(enumerator, 200, G_PRIORITY_DEFAULT, calls.cancellable, callback, data)
                }, finish: { result, error in g_file_enumerator_next_files_finish(enumerator, result, error) })
                guard let list else { break }
                var node: UnsafeMutablePointer<GList>? = list
                while let current = node {
                    let info = OpaquePointer(current.pointee.data)
                    if let name = borrowString(g_file_info_get_name(info)) {
                        names.append((name, g_file_info_get_file_type(info) == G_FILE_TYPE_DIRECTORY))
                    }
                    node = current.pointee.next
                }
                g_list_free_full(list) { g_object_unref($0) }
            }
            _ = try? calls.call({ callback, data in
                g_file_enumerator_close_async(enumerator, G_PRIORITY_DEFAULT, nil, callback, data)
            }, finish: { result, error in g_file_enumerator_close_finish(enumerator, result, error) })
            return names
        } catch {
            throw FileOperationError(error, kind, name: name)
        }
    }

    func makeDirectory(_ calls: GIOCalls, _ kind: FileOperationKind) throws(FileOperationError) {
        do {
            _ = try calls.call({ [file] callback, data in
                g_file_make_directory_async(file, G_PRIORITY_DEFAULT, calls.cancellable, callback, data)
            }, finish: { result, error in g_file_make_directory_finish(file, result, error) })
        } catch {
            throw FileOperationError(error, kind, name: name, isFolder: true)
        }
    }

    /// Deletes this item (a folder only when empty).
    func delete(_ calls: GIOCalls, _ kind: FileOperationKind) throws(FileOperationError) {
        do {
            _ = try calls.call({ [file] callback, data in
                g_file_delete_async(file, G_PRIORITY_DEFAULT, calls.cancellable, callback, data)
            }, finish: { result, error in g_file_delete_finish(file, result, error) })
        } catch {
            throw FileOperationError(error, kind, name: name)
        }
    }

    /// Moves this item to its location's own trash.
    /// - Throws: `.trashNotSupported` when the location has none (most servers).
    func trash(_ calls: GIOCalls) throws(FileOperationError) {
        do {
            _ = try calls.call({ [file] callback, data in
                g_file_trash_async(file, G_PRIORITY_DEFAULT, calls.cancellable, callback, data)
            }, finish: { result, error in g_file_trash_finish(file, result, error) })
        } catch {
            if error.isIOError(G_IO_ERROR_NOT_SUPPORTED) { throw .trashNotSupported(name: name) }
            throw FileOperationError(error, .trash, name: name)
        }
    }

    /// Gives the item a new name in its folder, and returns the renamed item's URI.
    func setName(_ newName: String, _ calls: GIOCalls) throws(FileOperationError) -> String? {
        do {
            let renamed = try calls.call({ [file] callback, data in
                g_file_set_display_name_async(file, newName, G_PRIORITY_DEFAULT, calls.cancellable, callback, data)
            }, finish: { result, error in g_file_set_display_name_finish(file, result, error) })
            defer { unref(renamed) }
            return renamed.flatMap { takeString(g_file_get_uri($0)) }
        } catch {
            if error.isIOError(G_IO_ERROR_EXISTS) {
                throw .alreadyExists(.rename, name: name, existing: newName, isFolder: false)
            }
            throw FileOperationError(error, .rename, name: name)
        }
    }

    /// Moves this item to `destination` without replacing anything there. With `renameOnly`,
    /// only a move the backend does in place (a rename on the same server) is tried: GIO then
    /// fails with `G_IO_ERROR_NOT_SUPPORTED` (or `WOULD_RECURSE` for a folder) instead of copying.
    /// With `overwrite`, a file at `destination` is replaced.
    func move(to destination: GIOItem, renameOnly: Bool, overwrite: Bool = false, _ calls: GIOCalls,
              _ kind: FileOperationKind) throws(GLibError) {
        let flags = GFileCopyFlags(rawValue: DOSSIER_G_FILE_COPY_NOFOLLOW_SYMLINKS
            | (renameOnly ? DOSSIER_G_FILE_COPY_NO_FALLBACK_FOR_MOVE : 0) | (overwrite ? DOSSIER_G_FILE_COPY_OVERWRITE : 0))
        _ = try calls.call({ [file] callback, data in
            g_file_move_async(file, destination.file, flags, G_PRIORITY_DEFAULT, calls.cancellable, nil, nil, callback, data)
        }, finish: { result, error in g_file_move_finish(file, result, error) })
    }

    /// Copies this file (not a folder) to `destination`, which must not exist; `report` gets
    /// the bytes copied so far.
    func copyFile(to destination: GIOItem, _ calls: GIOCalls, _ kind: FileOperationKind,
                  report: @escaping (Int64) -> Void) throws(FileOperationError) {
        let flags = GFileCopyFlags(rawValue: DOSSIER_G_FILE_COPY_NOFOLLOW_SYMLINKS | DOSSIER_G_FILE_COPY_ALL_METADATA)
        do {
            _ = try calls.call(reporting: { current, _ in report(current) }, { [file] progressed, progressData, callback, data in
                g_file_copy_async(file, destination.file, flags, G_PRIORITY_DEFAULT, calls.cancellable,
                                  progressed, progressData, callback, data)
            }, finish: { result, error in g_file_copy_finish(file, result, error) })
        } catch {
            throw FileOperationError(error, kind, name: error.isIOError(G_IO_ERROR_EXISTS) ? destination.name : name)
        }
    }
}

private let nofollow = GFileQueryInfoFlags(rawValue: DOSSIER_G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS)
