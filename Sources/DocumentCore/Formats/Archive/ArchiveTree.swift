import Foundation

/// The listing's folder tree, worked out from the entries' paths in the process that shows it.
extension ArchiveListing {
    private final class Folder {
        var entry: ArchiveEntry?
        var folders: [String: Folder] = [:]
        var files: [ArchiveEntry] = []
    }

    /// How deep the tree nests; deeper parts of a path stay in one name. Every implied folder
    /// carries its whole path, so a 32,000-folder-deep entry (64 KiB of `a/a/…`) made about
    /// 1 GiB of paths, and releasing that chain of folders recursed 32,000 deep.
    static let depthLimit = 128

    /// Nests the entries by path and flattens the tree in display order. A folder that only
    /// appears in other entries' paths is listed too.
    static func tree(_ entries: [ArchiveEntry]) -> [ArchiveEntry] {
        let root = Folder()
        var unsafe: [ArchiveEntry] = []
        for entry in entries {
            if entry.isUnsafe {
                unsafe.append(entry)
                continue
            }
            var parts = components(entry.path)
            if parts.count > depthLimit {
                parts = Array(parts[..<(depthLimit - 1)]) + [parts[(depthLimit - 1)...].joined(separator: "/")]
            }
            guard let last = parts.popLast() else { continue }  // "./" itself
            var folder = root
            for part in parts {
                if let existing = folder.folders[part] {
                    folder = existing
                } else {
                    let created = Folder()
                    folder.folders[part] = created
                    folder = created
                }
            }
            if entry.kind == .folder {
                let node = folder.folders[last] ?? Folder()
                node.entry = entry
                folder.folders[last] = node
            } else {
                folder.files.append(entry)
            }
        }
        var result = unsafe
        // Depth first without recursion: an archive can nest thousands of folders deep.
        var stack: [(name: String, folder: Folder, depth: Int, path: String)] =
            root.folders.sorted { $0.key.lowercased() > $1.key.lowercased() }.map { ($0.key, $0.value, 0, $0.key) }
        func appendFiles(_ files: [ArchiveEntry], depth: Int) {
            for var file in files.sorted(by: { $0.path.lowercased() < $1.path.lowercased() }) {
                file.name = components(file.path).last ?? file.path
                file.depth = depth
                result.append(file)
            }
        }
        // Files of a folder come after its subfolders: keep them until the subfolders are done.
        var pendingFiles: [(afterCount: Int, files: [ArchiveEntry], depth: Int)] = [(0, root.files, 0)]
        while let (name, folder, depth, path) = stack.popLast() {
            var entry = folder.entry ?? ArchiveEntry(path: path + "/", name: name, depth: depth, kind: .folder, size: nil,
                                                      modified: nil, isUnsafe: false, isEncrypted: false,
                                                      linkTarget: nil, headerIndex: nil)
            entry.name = name
            entry.depth = depth
            result.append(entry)
            let children = folder.folders.sorted { $0.key.lowercased() > $1.key.lowercased() }
            if folder.files.isEmpty == false {
                pendingFiles.append((stack.count, folder.files, depth + 1))
            }
            stack += children.map { ($0.key, $0.value, depth + 1, path + "/" + $0.key) }
            // Flush the files of every folder whose subfolders are all listed.
            while let pending = pendingFiles.last, stack.count <= pending.afterCount {
                pendingFiles.removeLast()
                appendFiles(pending.files, depth: pending.depth)
            }
        }
        for pending in pendingFiles.reversed() { appendFiles(pending.files, depth: pending.depth) }
        return result
    }
}
