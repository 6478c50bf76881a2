import Foundation

extension FileOperations {
    /// A name for an item called `name` that is free in `folder`: `name` itself when nothing
    /// there has it, else "name (copy).ext", "name (copy 2).ext", … as `duplicate` names copies.
    public static func freeName(for name: String, isFolder: Bool, in folder: URL) -> String {
        guard folder.isFileURL else { return freeRemoteName(for: name, isFolder: isFolder, in: folder, GIOCalls(progress: nil)) }
        let parent = folder.path
        guard FileStatus.existing(parent + "/" + name) != nil else { return name }
        for number in 1...10_000 {
            let candidate = FileName.copyName(of: name, isFolder: isFolder, number: number)
            if FileStatus.existing(parent + "/" + candidate) == nil { return candidate }
        }
        return FileName.copyName(of: name, isFolder: isFolder, number: 10_001)
    }

    /// The base of `name` and its extension, as rename selects it: "report" and ".pdf",
    /// "backup" and ".tar.gz"; a folder's name has no extension.
    public static func splitName(_ name: String, isFolder: Bool) -> (base: String, extension: String) {
        FileName.split(name, isFolder: isFolder)
    }

    /// Why `name` cannot name an item, or nil when it can.
    public static func problem(with name: String) -> NameProblem? {
        FileName.problem(with: name)
    }

    /// Copies (or, with `move`, moves) each item into `folder`, under a free name when its
    /// own is taken there ("name (copy).ext"): pasting or dropping never replaces anything.
    /// A move within the same folder is skipped. One that fails is reported and the others
    /// still go; cancelling through `progress` stops the batch.
    public func place(_ sources: [URL], into folder: URL, move: Bool, progress: Progress? = nil) -> FileOperationBatch {
        if !move {
            progress?.totalUnitCount += sources.reduce(0) { $0 + (FileSystem.localPath($1).map { CopySize.of($0).units } ?? 0) }
        }
        var batch = FileOperationBatch()
        let kind: FileOperationKind = move ? .move : .copy
        for source in sources {
            if progress?.isCancelled == true {
                batch.failures.append(.cancelled(kind, name: source.lastPathComponent))
                break
            }
            if move && Self.sameFolder(source.deletingLastPathComponent(), folder) { continue }
            let isFolder = Self.isFolder(source)
            let name = Self.freeName(for: source.lastPathComponent, isFolder: isFolder, in: folder)
            let destination = folder.appendingPathComponent(name, isDirectory: isFolder)
            do throws(FileOperationError) {
                if move {
                    batch.results.append(try self.move(source, to: destination, progress: progress))
                } else {
                    try copyItem(source, to: destination, kind: .copy, progress: progress, measured: true)
                    batch.results.append(.copied(source: source, copy: destination))
                }
            } catch {
                batch.failures.append(error)
                if case .cancelled = error { break }
            }
        }
        return batch
    }
}
