import CGLib
import Foundation

extension FileOperations {
    // MARK: Copy

    /// Copies the item at `source` to `destination`, which must not exist: a folder with
    /// everything in it, links as links (never followed, so link loops are harmless), mode,
    /// times and extended attributes kept, across file systems too.
    /// - Throws: `.alreadyExists`, `.intoItself` for a folder copied into itself,
    ///   `.cancelled` (with nothing left behind) when `progress` is cancelled.
    public func copy(_ source: URL, to destination: URL, progress: Progress? = nil) throws(FileOperationError) -> FileOperationResult {
        try copyItem(source, to: destination, kind: .copy, progress: progress, measured: false)
        return .copied(source: source, copy: destination)
    }

    /// Copies each item into `folder` under its own name. One that cannot be copied is
    /// reported and the others still are; cancelling stops the batch.
    public func copy(_ sources: [URL], into folder: URL, progress: Progress? = nil) -> FileOperationBatch {
        // Measure everything first so that the total is known before the first byte moves.
        progress?.totalUnitCount += sources.reduce(0) { $0 + (FileSystem.localPath($1).map { CopySize.of($0).units } ?? 0) }
        return batch(sources, into: folder, kind: .copy, progress: progress) { source, destination throws(FileOperationError) in
            try copyItem(source, to: destination, kind: .copy, progress: progress, measured: true)
            return .copied(source: source, copy: destination)
        }
    }

    /// Makes a copy of the item beside it, named "name (copy).ext", then "name (copy 2).ext",
    /// … (folders: "Folder (copy)"; "archive.tar.gz" → "archive (copy).tar.gz").
    public func duplicate(_ url: URL, progress: Progress? = nil) throws(FileOperationError) -> FileOperationResult {
        guard url.isFileURL else { return try duplicateRemotely(url, progress: progress) }
        let path = try Self.localPath(url, .duplicate)
        let status = try Self.status(path, .duplicate)
        let name = FileOperationError.displayName(path)
        let folder = (path as NSString).deletingLastPathComponent
        for number in 1...10_000 {
            let copyName = FileName.copyName(of: name, isFolder: status.isDirectory, number: number)
            let destination = folder + "/" + copyName
            guard FileStatus.existing(destination) == nil else { continue }
            let copy = URL(fileURLWithPath: destination, isDirectory: status.isDirectory)
            try copyItem(url, to: copy, kind: .duplicate, progress: progress, measured: false)
            return .duplicated(original: url, copy: copy)
        }
        throw .alreadyExists(.duplicate, name: name, existing: FileName.copyName(of: name, isFolder: status.isDirectory, number: 1),
                             isFolder: status.isDirectory)
    }

    func copyItem(
        _ source: URL, to destination: URL, kind: FileOperationKind, progress: Progress?, measured: Bool
    ) throws(FileOperationError) {
        guard source.isFileURL && destination.isFileURL else {
            return try copyAcross(source, to: destination, kind: kind, progress: progress, measured: measured)
        }
        let (from, to, _) = try checkTransfer(source, to: destination, kind: kind)
        if !measured { progress?.totalUnitCount += CopySize.of(from).units }
        try Self.coordinating(.copy(source, to: destination), kind) { () throws(FileOperationError) in
            try TreeCopy(kind: kind, progress: progress).copy(from, to: to)
        }
    }

    // MARK: Move

    /// Moves the item at `source` to `destination`, which must not exist: a rename on the
    /// same file system (instant, atomic), else a copy that keeps mode and times followed by
    /// removing the original. A cancelled move across file systems leaves the original in
    /// place and nothing at the destination. The progress total grows by the copy's size
    /// when the move turns out to cross file systems.
    /// - Throws: `.alreadyExists`, `.intoItself` for a folder moved into itself, `.cancelled`,
    ///   `.originalNotRemoved` when the copy succeeded but the original could not be removed.
    public func move(_ source: URL, to destination: URL, progress: Progress? = nil) throws(FileOperationError) -> FileOperationResult {
        guard source.isFileURL && destination.isFileURL else { return try moveAcross(source, to: destination, progress: progress) }
        let (from, to, _) = try checkTransfer(source, to: destination, kind: .move, allowSameItem: true)
        if from == to { return .moved(from: source, to: destination) }
        progress?.totalUnitCount += 1
        try Self.coordinating(.move(source, to: destination), .move) { () throws(FileOperationError) in
            do throws(SystemError) {
                try FileSystem.renameWithoutReplacing(from, to)
            } catch {
                guard error.code == EXDEV else {
                    throw Self.error(error, .move, name: FileOperationError.displayName(from), destination: to)
                }
                progress?.totalUnitCount += CopySize.of(from).units
                try TreeCopy(kind: .move, progress: progress).copy(from, to: to)
                do throws(TreeRemoval.Failure) {
                    try TreeRemoval().remove(from)
                } catch {
                    throw .originalNotRemoved(name: FileOperationError.displayName(from), reason: error.error.message)
                }
            }
        }
        progress?.completedUnitCount += 1
        return .moved(from: source, to: destination)
    }

    /// Moves each item into `folder` under its own name. One that cannot be moved is
    /// reported and the others still are; cancelling stops the batch.
    public func move(_ sources: [URL], into folder: URL, progress: Progress? = nil) -> FileOperationBatch {
        batch(sources, into: folder, kind: .move, progress: progress) { source, destination throws(FileOperationError) in
            try move(source, to: destination, progress: progress)
        }
    }

    // MARK: Shared

    /// Checks a copy or move of `source` to `destination` and returns both paths with their
    /// parent folders' links resolved, and the source's status.
    private func checkTransfer(
        _ source: URL, to destination: URL, kind: FileOperationKind, allowSameItem: Bool = false
    ) throws(FileOperationError) -> (String, String, FileStatus) {
        let from = FileSystem.resolvingParent(of: try Self.localPath(source, kind))
        let to = FileSystem.resolvingParent(of: try Self.localPath(destination, kind))
        let status = try Self.status(from, kind)
        let name = FileOperationError.displayName(from)
        if allowSameItem && from == to { return (from, to, status) }
        if status.isDirectory && FileSystem.isPath(to, inside: from) { throw .intoItself(kind, name: name) }
        let folder = (to as NSString).deletingLastPathComponent
        guard FileStatus.existing(folder)?.isDirectory == true else {
            throw .notFound(kind, name: FileOperationError.displayName(folder))
        }
        if let existing = FileStatus.existing(to), !(allowSameItem && existing.isSameItem(as: status)) {
            throw .alreadyExists(kind, name: name, existing: FileOperationError.displayName(to), isFolder: existing.isDirectory)
        }
        return (from, to, status)
    }

    private func batch(
        _ sources: [URL], into folder: URL, kind: FileOperationKind, progress: Progress?,
        _ body: (URL, URL) throws(FileOperationError) -> FileOperationResult
    ) -> FileOperationBatch {
        var batch = FileOperationBatch()
        for source in sources {
            if progress?.isCancelled == true {
                batch.failures.append(.cancelled(kind, name: source.lastPathComponent))
                break
            }
            let destination = folder.appendingPathComponent(source.lastPathComponent, isDirectory: Self.isFolder(source))
            do {
                batch.results.append(try body(source, destination))
            } catch {
                batch.failures.append(error)
                if case .cancelled = error { break }
            }
        }
        return batch
    }
}
