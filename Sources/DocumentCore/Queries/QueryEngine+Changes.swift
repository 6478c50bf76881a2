import Foundation

/// Paths to look at again, gathered from inotify and `noteChange` between two deliveries.
struct PendingChanges {
    var paths: Set<PathKey> = []
    /// Written to (or noted by the coordinator): updated even when `stat` shows no difference.
    var forced: Set<PathKey> = []
    /// Folders created or moved in: listed afresh by recursive queries.
    var fresh: Set<PathKey> = []
    /// Destination → source of paired inotify moves.
    var renames: [PathKey: PathKey] = [:]
    /// Moves whose second half has not come yet, by cookie. Unpaired ones end up as a
    /// removal and an insertion, since both paths are looked at again anyway.
    var awaitingPair: [UInt32: PathKey] = [:]
    /// Folders whose `.hidden` file changed.
    var hiddenFilesChanged: Set<PathKey> = []
    var needsRescan = false

    var isEmpty: Bool { paths.isEmpty && hiddenFilesChanged.isEmpty && !needsRescan }
}

extension QueryEngine {
    func readWatchEvents() {
        guard phase == .gathering || phase == .live, let watcher else { return }
        for event in watcher.readEvents() {
            switch event {
            case .changed(let path, let created, let isDirectory, let contentChanged):
                note(PathKey(path), forced: contentChanged, fresh: created && isDirectory)
            case .movedFrom(let path, let cookie):
                pending.awaitingPair[cookie] = PathKey(path)
                note(PathKey(path))
            case .movedTo(let path, let cookie, let isDirectory):
                if let source = pending.awaitingPair.removeValue(forKey: cookie) { pending.renames[PathKey(path)] = source }
                // Whatever was there before was replaced, content and all (editors save so).
                note(PathKey(path), forced: true, fresh: isDirectory)
            case .folderGone(let path), .watchRemoved(let path):
                // A subfolder's own end shows as an entry change in its parent.
                if path.isEmpty { fail(.folderGone(name: root.displayName)) }
            case .unmounted(let path):
                if path.isEmpty { fail(.unmounted(name: root.displayName)) }
            case .overflow:
                pending.needsRescan = true
            }
            guard phase != .ended else { return }
        }
        scheduleFlush()
    }

    /// A change the process made itself, announced by `DirectoryQuery.noteChange(at:)`:
    /// looked at and delivered now, without waiting for inotify or the coalescing interval.
    func noteChange(absolutePath: String) {
        guard phase == .gathering || phase == .live, let relative = relativePath(of: absolutePath) else { return }
        if relative.string.isEmpty {
            var status = stat()
            if stat(root.path, &status) != 0 || status.st_mode & S_IFMT != S_IFDIR {
                fail(.folderGone(name: root.displayName))
            }
            return
        }
        note(relative, forced: true)
        flushGeneration += 1  // supersedes a scheduled flush
        flushScheduled = false
        flush()
    }

    func note(_ path: PathKey, forced: Bool = false, fresh: Bool = false) {
        pending.paths.insert(path)
        if forced { pending.forced.insert(path) }
        if fresh { pending.fresh.insert(path) }
        if path.name == ".hidden" { pending.hiddenFilesChanged.insert(path.parent) }
    }

    func scheduleFlush() {
        guard !flushScheduled, !pending.isEmpty, phase != .ended else { return }
        flushScheduled = true
        let generation = flushGeneration
        executor.queue.asyncAfter(deadline: .now() + options.coalescingInterval.timeInterval) { [weak self] in
            self?.assumeIsolated { engine in
                guard engine.flushGeneration == generation else { return }
                engine.flushScheduled = false
                engine.flush()
            }
        }
    }

    /// Delivers what is pending. While gathering, the end of the gathering does it instead.
    func flush() {
        guard phase == .live else { return }
        if pending.needsRescan {
            pending = PendingChanges()
            beginGathering(.rescan)
            return
        }
        let changes = applyPending()
        if !changes.isEmpty { deliver(.changes(changes)) }
    }

    /// Looks at every pending path again and applies the result to the model.
    func applyPending() -> QueryChangeSet {
        var work = pending
        pending = PendingChanges()
        for folderPath in work.hiddenFilesChanged {
            guard let folder = folders[folderPath] else { continue }
            let now = FolderReader.hiddenNames(inFolderAt: folder.path)
            let before = hiddenNames[folderPath] ?? []
            hiddenNames[folderPath] = now.isEmpty ? nil : now
            for name in now.symmetricDifference(before) { work.paths.insert(PathKey(folder.childRelativePath(name.string))) }
        }
        var updates: [PathKey: QueryItem?] = [:]
        for path in work.paths {
            let found = lookUp(path)
            if options.recursive {
                reconcileSubtree(at: path, found: found, fresh: work.fresh.contains(path), updates: &updates)
            }
            updates.updateValue(found.flatMap { isVisible($0) ? $0 : nil }, forKey: path)
        }
        return model.apply(updates: updates, renames: work.renames, forced: work.forced)
    }

    /// The item at `path` now, visible or not; nil when it is gone or its folder is not listed.
    private func lookUp(_ path: PathKey) -> QueryItem? {
        guard let folder = folders[path.parent] else { return nil }
        let name = path.name
        let listed = hiddenNames[path.parent]?.contains(name) ?? false
        return ItemMaking.item(named: name.string, in: folder, listedHidden: listed, namer: namer)
    }

    /// Recursive queries: a folder that went (or was replaced) takes its contents with it; a
    /// folder that came is listed, with watches, before the change set is made.
    private func reconcileSubtree(at path: PathKey, found: QueryItem?, fresh: Bool, updates: inout [PathKey: QueryItem?]) {
        let wasListed = folders[path] != nil
        let traversable = found.map(isTraversable) ?? false
        if wasListed && (!traversable || fresh) {
            for descendant in model.paths(under: path) { updates.updateValue(nil, forKey: descendant) }
            folders = folders.filter { !path.contains($0.key) }
            hiddenNames = hiddenNames.filter { !path.contains($0.key) }
            watcher?.unwatch(subtree: path)
        }
        guard traversable && (fresh || !wasListed), let found, let parent = folders[path.parent] else { return }
        var stack = [parent.child(found.name)]
        while let folder = stack.popLast() {
            watchSubfolder(folder)
            var items: [QueryItem] = []
            do {
                let reader = try FolderReader(folder: folder)
                folders[PathKey(folder.relativePath)] = folder
                if !reader.hiddenNames.isEmpty { hiddenNames[PathKey(folder.relativePath)] = reader.hiddenNames }
                while try reader.read(limit: 4096, into: &items, namer: namer) {}
            } catch {
                deliver(.warning(error))
            }
            for item in items {
                if isTraversable(item) { stack.append(folder.child(item.name)) }
                updates.updateValue(isVisible(item) ? item : nil, forKey: item.key)
            }
        }
    }

    /// `absolutePath` relative to the query's folder: "" for the folder itself, nil when the
    /// query does not list it.
    private func relativePath(of absolutePath: String) -> PathKey? {
        if absolutePath.utf8.elementsEqual(root.path.utf8) { return "" }
        let prefix = root.path == "/" ? "/" : root.path + "/"
        guard absolutePath.hasPrefix(prefix) else { return nil }
        let relative = String(absolutePath.dropFirst(prefix.count))
        guard !relative.isEmpty, options.recursive || !relative.contains("/") else { return nil }
        return PathKey(relative)
    }
}
