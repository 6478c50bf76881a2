import Foundation

extension Trash {
    /// Puts a trashed item back where it was, recreating missing parent folders, and removes
    /// its record. Never replaces anything: if an item now exists at the original path, it
    /// throws `.restoreConflict` and leaves both where they are.
    /// - Returns: the restored item's location (its original path).
    @discardableResult
    public func restore(_ item: TrashedItem, progress: Progress? = nil) throws(TrashError) -> URL {
        let source = item.trash.itemPath(item.name)
        let destination = item.originalPath
        let name = item.originalName
        guard FileStatus.existing(source) != nil else { throw .notInTrash(name: item.name) }
        let folder = (destination as NSString).deletingLastPathComponent
        if FileStatus.existing(destination) != nil { throw .restoreConflict(name: name, folder: folder) }
        do {
            try FileSystem.createFolders(folder)
        } catch {
            throw .restoreFailed(name: name, reason: error.message)
        }
        progress?.totalUnitCount += 1
        do {
            try FileSystem.renameWithoutReplacing(source, destination)
        } catch {
            switch error.code {
            case EEXIST, ENOTEMPTY:
                throw .restoreConflict(name: name, folder: folder)
            case EXDEV:
                // Another implementation may have put a file from elsewhere in the home trash
                // by copying it: copy it back, then remove it from the trash.
                try moveAcrossFileSystems(source, to: destination, name: name, progress: progress)
            default:
                throw .restoreFailed(name: name, reason: error.message)
            }
        }
        progress?.completedUnitCount += 1
        unlink(item.trash.infoFilePath(item.name))
        DirectorySizes(trash: item.trash).remove([item.name])
        return item.originalURL
    }

    /// Restores the one item `name` designates (see `item(named:)`).
    @discardableResult
    public func restore(named name: String) throws(TrashError) -> (item: TrashedItem, restoredTo: URL) {
        let item = try item(named: name)
        return (item, try restore(item))
    }

    private func moveAcrossFileSystems(
        _ source: String, to destination: String, name: String, progress: Progress?
    ) throws(TrashError) {
        progress?.totalUnitCount += CopySize.of(source).units
        do {
            try TreeCopy(kind: .restore, progress: progress).copy(source, to: destination)
        } catch {
            throw .restoreFailed(name: name, reason: error.reason)
        }
        do {
            try TreeRemoval().remove(source)
        } catch {
            throw .restoreFailed(name: name, reason: error.error.message)
        }
    }

    /// Deletes a trashed item for good: the item first (folders without following any link
    /// out of the trash), then its record, so an interrupted delete leaves it listed.
    public func delete(_ item: TrashedItem, progress: Progress? = nil) throws(TrashError) {
        let path = item.trash.itemPath(item.name)
        if FileStatus.existing(path) != nil {
            progress?.totalUnitCount += TreeRemoval.count(path)
            try remove(path, name: item.name, progress: progress)
        }
        if unlink(item.trash.infoFilePath(item.name)) != 0, errno != ENOENT {
            throw .deleteFailed(name: item.name, reason: SystemError(errno).message)
        }
        DirectorySizes(trash: item.trash).remove([item.name])
    }

    /// Deletes everything in every trash folder for good, records last, and reports how
    /// many items it deleted. Carries on past items it cannot delete, then throws the first
    /// such failure.
    @discardableResult
    public func empty(progress: Progress? = nil) throws(TrashError) -> Int {
        var removed = 0
        var firstFailure: TrashError?
        let trashes = trashDirectories()
        var listings: [(TrashDirectory, [String])] = []
        for trash in trashes {
            let names = (try? FileSystem.contentsOfFolder(trash.filesPath)) ?? []
            listings.append((trash, names.sorted()))
            progress?.totalUnitCount += names.reduce(0) { $0 + TreeRemoval.count(trash.itemPath($1)) }
        }
        for (trash, names) in listings {
            for name in names {
                if progress?.isCancelled == true { throw .deleteFailed(name: name, reason: tr("the operation was cancelled")) }
                do {
                    try remove(trash.itemPath(name), name: name, progress: progress)
                    unlink(trash.infoFilePath(name))
                    removed += 1
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
            // Records without an item are removed too; a record whose item survived stays.
            for infoName in (try? FileSystem.contentsOfFolder(trash.infoPath)) ?? [] where infoName.hasSuffix(".trashinfo") {
                let name = String(infoName.dropLast(".trashinfo".count))
                if FileStatus.existing(trash.itemPath(name)) == nil {
                    unlink(trash.infoPath + "/" + infoName)
                }
            }
            DirectorySizes(trash: trash).removeAll()
        }
        if let firstFailure { throw firstFailure }
        return removed
    }

    private func remove(_ path: String, name: String, progress: Progress?) throws(TrashError) {
        var removal = TreeRemoval()
        removal.shouldContinue = { count in
            progress?.completedUnitCount += count
            return progress?.isCancelled != true
        }
        do {
            try removal.remove(path)
        } catch {
            let failed = FileOperationError.displayName(error.path)
            throw error.error.code == ECANCELED
                ? .deleteFailed(name: name, reason: tr("the operation was cancelled"))
                : .deleteFailed(name: failed, reason: error.error.message)
        }
    }
}
