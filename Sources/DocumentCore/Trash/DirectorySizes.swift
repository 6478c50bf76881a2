import Foundation

/// The `$trash/directorysizes` cache (Trash specification 1.0): one line per trashed folder,
/// "SIZE MTIME NAME", where SIZE is its disk usage in bytes (as `du -B1`), MTIME the
/// modification time of its `.trashinfo` in seconds and NAME its percent-encoded name in
/// `files/`. Readers check MTIME, so a missing or stale line only costs them a recount;
/// keeping the cache is therefore best effort and never fails an operation.
struct DirectorySizes {
    let trash: TrashDirectory

    /// Records the size of the folder `name` that was just trashed.
    func add(_ name: String) {
        guard let size = Self.diskUsage(trash.itemPath(name)),
            let info = FileStatus.existing(trash.infoFilePath(name))
        else { return }
        var lines = readLines().filter { $0.name != name }
        lines.append((size, Int64(info.modificationTime.tv_sec), name))
        write(lines)
    }

    /// Forgets the folders in `names` (restored or deleted).
    func remove(_ names: Set<String>) {
        let lines = readLines()
        let kept = lines.filter { !names.contains($0.name) }
        if kept.count != lines.count { write(kept) }
    }

    /// Forgets everything (the trash was emptied).
    func removeAll() {
        unlink(trash.directorySizesPath)
    }

    /// Disk usage of `path` and everything under it, not following links.
    static func diskUsage(_ path: String) -> Int64? {
        guard let status = FileStatus.existing(path) else { return nil }
        var total = status.diskUsage
        if status.isDirectory, let names = try? FileSystem.contentsOfFolder(path) {
            for name in names {
                total += diskUsage(path + "/" + name) ?? 0
            }
        }
        return total
    }

    private func readLines() -> [(size: Int64, mtime: Int64, name: String)] {
        guard let text = try? String(contentsOfFile: trash.directorySizesPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let size = Int64(fields[0]), let mtime = Int64(fields[1]),
                let name = TrashInfo.unescape(String(fields[2]))
            else { return nil }
            return (size, mtime, name)
        }
    }

    /// Replaces the file atomically: a temporary file in the trash folder, then rename(2).
    private func write(_ lines: [(size: Int64, mtime: Int64, name: String)]) {
        let text = lines.map { "\($0.size) \($0.mtime) \(TrashInfo.escape($0.name))\n" }.joined()
        let temporary = trash.path + "/.directorysizes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = (try? FileSystem.writeAll(fd, Array(text.utf8))) != nil
        close(fd)
        if !written || rename(temporary, trash.directorySizesPath) != 0 {
            unlink(temporary)
        }
    }
}
