import CGLib
import Foundation

/// The operations on locations that are not local files (GVFS: sftp, smb, dav…), through GIO's
/// asynchronous calls (`GIOTransfer`, `GIOItem`). The public methods of `FileOperations`
/// come here when an item, or the folder it goes to, is remote; local items never do, and
/// keep their own code. Coordination is local-only: only a local end of a transfer is
/// coordinated; folder views of a remote end hear of the change through
/// `DirectoryQuery.noteChange`, which lists that folder again (servers send no changes).
extension FileOperations {
    /// Tells the folder views of the remote locations among `urls` that something there changed.
    static func noteRemoteChange(_ urls: URL...) {
        for url in urls where !url.isFileURL { DirectoryQuery.noteChange(at: url) }
    }

    func renameRemotely(_ url: URL, to newName: String) throws(FileOperationError) -> FileOperationResult {
        let item = GIOItem(url)
        if let problem = FileName.problem(with: newName) {
            throw .invalidName(.rename, name: item.name, newName: newName, problem: problem)
        }
        if newName == item.name { return .renamed(from: url, to: url) }
        defer { Self.noteRemoteChange(url) }
        let calls = GIOCalls(progress: nil)
        guard let info = try item.info(calls, .rename) else { throw .notFound(.rename, name: item.name) }
        let destination = url.deletingLastPathComponent().appendingPathComponent(newName, isDirectory: info.isFolder)
        // A server that ignores case finds the item itself under "A.txt" for "a.txt".
        if newName.lowercased() != item.name.lowercased(), let existing = try GIOItem(destination).info(calls, .rename) {
            throw .alreadyExists(.rename, name: item.name, existing: newName, isFolder: existing.isFolder)
        }
        let renamed = try item.setName(newName, calls)
        return .renamed(from: url, to: renamed.flatMap { URL(string: $0) } ?? destination)
    }

    func createFolderRemotely(in folder: URL, named name: String?) throws(FileOperationError) -> FileOperationResult {
        defer { Self.noteRemoteChange(folder) }
        let calls = GIOCalls(progress: nil)
        if let name {
            if let problem = FileName.problem(with: name) {
                throw .invalidName(.createFolder, name: name, newName: name, problem: problem)
            }
            let made = folder.appendingPathComponent(name, isDirectory: true)
            try GIOItem(made).makeDirectory(calls, .createFolder)
            return .createdFolder(made)
        }
        for number in 1...10_000 {
            let made = folder.appendingPathComponent(FileName.untitledFolderName(number: number), isDirectory: true)
            do throws(FileOperationError) {
                try GIOItem(made).makeDirectory(calls, .createFolder)
                return .createdFolder(made)
            } catch .alreadyExists {
                continue
            }
        }
        let first = FileName.untitledFolderName(number: 1)
        throw .alreadyExists(.createFolder, name: first, existing: first, isFolder: true)
    }

    /// Moves the item to its location's own trash.
    /// - Throws: `.trashNotSupported` where there is none (sftp, smb, dav): offer to delete it.
    func moveToTrashRemotely(_ url: URL) throws(FileOperationError) -> FileOperationResult {
        try GIOItem(url).trash(GIOCalls(progress: nil))
        Self.noteRemoteChange(url)
        return .trashedOnServer(url)
    }

    func deleteRemotely(_ url: URL, progress: Progress?) throws(FileOperationError) -> FileOperationResult {
        defer { Self.noteRemoteChange(url) }
        try GIOTransfer(kind: .delete, progress: progress).delete(url)
        return .deleted(url)
    }

    /// A copy where one end is remote; `measured` when the batch already counted a local source.
    func copyAcross(_ source: URL, to destination: URL, kind: FileOperationKind, progress: Progress?,
                    measured: Bool) throws(FileOperationError) {
        let transfer = GIOTransfer(kind: kind, progress: progress, measures: !measured || !source.isFileURL)
        defer { Self.noteRemoteChange(destination) }
        guard destination.isFileURL else { return try transfer.copy(source, to: destination) }
        try Self.coordinating(.write(destination), kind) { () throws(FileOperationError) in
            try transfer.copy(source, to: destination)
        }
    }

    func moveAcross(_ source: URL, to destination: URL, progress: Progress?) throws(FileOperationError) -> FileOperationResult {
        let transfer = GIOTransfer(kind: .move, progress: progress)
        defer { Self.noteRemoteChange(source, destination) }
        if destination.isFileURL {
            try Self.coordinating(.write(destination), .move) { () throws(FileOperationError) in
                try transfer.move(source, to: destination)
            }
        } else if source.isFileURL {
            try Self.coordinating(.delete(source), .move) { () throws(FileOperationError) in
                try transfer.move(source, to: destination)
            }
        } else {
            try transfer.move(source, to: destination)
        }
        return .moved(from: source, to: destination)
    }

    func duplicateRemotely(_ url: URL, progress: Progress?) throws(FileOperationError) -> FileOperationResult {
        let item = GIOItem(url)
        let calls = GIOCalls(progress: progress)
        guard let info = try item.info(calls, .duplicate) else { throw .notFound(.duplicate, name: item.name) }
        let folder = url.deletingLastPathComponent()
        let name = Self.freeRemoteName(for: item.name, isFolder: info.isFolder, in: folder, calls)
        let copy = folder.appendingPathComponent(name, isDirectory: info.isFolder)
        defer { Self.noteRemoteChange(copy) }
        try GIOTransfer(kind: .duplicate, progress: progress).copy(url, to: copy)
        return .duplicated(original: url, copy: copy)
    }

    /// Whether the item at `url` is a folder (false when it cannot be looked at).
    static func isFolder(_ url: URL) -> Bool {
        if let path = FileSystem.localPath(url) { return FileStatus.existing(path)?.isDirectory ?? false }
        return (try? GIOItem(url).info(GIOCalls(progress: nil), .copy))?.isFolder ?? false
    }

    /// `freeName` in a remote folder: the name, or the first free "name (copy).ext".
    static func freeRemoteName(for name: String, isFolder: Bool, in folder: URL, _ calls: GIOCalls) -> String {
        func isFree(_ candidate: String) -> Bool {
            // A location that cannot be asked counts as free: the copy itself then reports why.
            (try? GIOItem(folder.appendingPathComponent(candidate)).info(calls, .copy)) == nil
        }
        if isFree(name) { return name }
        for number in 1...10_000 {
            let candidate = FileName.copyName(of: name, isFolder: isFolder, number: number)
            if isFree(candidate) { return candidate }
        }
        return FileName.copyName(of: name, isFolder: isFolder, number: 10_001)
    }

    /// Whether two folder URLs name the same place (local: by path; remote: by URI, with or
    /// without a trailing "/").
    public static func sameFolder(_ a: URL, _ b: URL) -> Bool {
        if a.isFileURL && b.isFileURL { return a.standardizedFileURL.path == b.standardizedFileURL.path }
        func trimmed(_ url: URL) -> String {
            var text = url.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        return trimmed(a) == trimmed(b)
    }
}
