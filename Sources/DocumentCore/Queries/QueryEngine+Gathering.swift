import Foundation

/// A listing of the folder (or tree) in progress.
struct Gathering {
    enum Purpose {
        /// The first listing: delivered as batches, then a reload.
        case initial
        /// After options that change which items are listed: one reload at the end.
        case reload
        /// After inotify lost events: delivered as the changes from what was shown.
        case rescan
    }

    let purpose: Purpose
    /// Folders still to read, the next last.
    var folders: [QueryFolder]
    var reader: FolderReader?
    var items: [QueryItem] = []
    /// `items[..<delivered]` went out as batches.
    var delivered = 0
    /// How many entries the next step reads: small at first so the first batch comes at once,
    /// then doubling to amortise the hops through the queue.
    var stepSize = 1000
    var listedFolders: [PathKey: QueryFolder] = [:]
    var hiddenNames: [PathKey: Set<PathKey>] = [:]
    var scratch: [QueryItem] = []
}

extension QueryEngine {
    static let largestStep = 16384

    func beginGathering(_ purpose: Gathering.Purpose) {
        guard phase != .ended else { return }
        if remoteLocation != nil { return beginRemoteGathering(purpose) }
        phase = .gathering
        if purpose != .initial { watcher?.unwatchSubfolders() }
        gathering = Gathering(purpose: purpose, folders: [root])
        scheduleGatheringStep()
    }

    private func scheduleGatheringStep() {
        perform { $0.gatheringStep() }
    }

    /// Reads up to one step's worth of entries, delivers them as a batch, and comes back
    /// through the queue for the rest, so whatever else is queued runs in between.
    private func gatheringStep() {
        guard phase == .gathering, var gathering = self.gathering else { return }
        self.gathering = nil
        var budget = gathering.stepSize
        var finished = false
        while budget > 0 {
            if gathering.reader == nil {
                guard let folder = gathering.folders.popLast() else {
                    finished = true
                    break
                }
                open(folder, into: &gathering)
                guard phase != .ended else { return }
                continue
            }
            guard let reader = gathering.reader else { continue }
            gathering.scratch.removeAll(keepingCapacity: true)
            let more: Bool
            do {
                more = try reader.read(limit: budget, into: &gathering.scratch, namer: namer)
            } catch {
                if reader.folder === root {
                    fail(error)
                    return
                }
                if gathering.purpose == .initial { deliver(.warning(error)) }
                gathering.reader = nil
                continue
            }
            budget -= gathering.scratch.count
            for item in gathering.scratch {
                if isTraversable(item) { gathering.folders.append(reader.folder.child(item.name)) }
                if isVisible(item) { gathering.items.append(item) }
            }
            if !more { gathering.reader = nil }
        }
        if gathering.purpose == .initial && gathering.items.count > gathering.delivered {
            // Putting the sorted batch back leaves sorted runs for the final sort to merge.
            let batch = model.order.sorted(gathering.items[gathering.delivered...])
            gathering.items.replaceSubrange(gathering.delivered..., with: batch)
            deliver(.batch(batch))
            gathering.delivered = gathering.items.count
        }
        gathering.stepSize = min(gathering.stepSize * 2, Self.largestStep)
        if finished {
            finishGathering(&gathering)
        } else {
            self.gathering = gathering
            scheduleGatheringStep()
        }
    }

    /// Watches `folder` (before reading it, so nothing changes unseen) and opens it.
    private func open(_ folder: QueryFolder, into gathering: inout Gathering) {
        if folder !== root { watchSubfolder(folder) }
        do {
            let reader = try FolderReader(folder: folder)
            gathering.reader = reader
            gathering.listedFolders[PathKey(folder.relativePath)] = folder
            if !reader.hiddenNames.isEmpty { gathering.hiddenNames[PathKey(folder.relativePath)] = reader.hiddenNames }
        } catch {
            if folder === root {
                fail(error)
            } else if gathering.purpose == .initial {
                deliver(.warning(error))
            }
        }
    }

    func finishGathering(_ gathering: inout Gathering) {
        // Taken out so the gathering's arrays are freed before anything is delivered.
        var items = gathering.items
        gathering.items = []
        gathering.scratch = []
        do {
            // readdir may return a name twice when the folder changes while it is read.
            var seen = Set<PathKey>(minimumCapacity: items.count)
            items.removeAll { !seen.insert($0.key).inserted }
        }
        items = model.order.sorted(items)
        folders = gathering.listedFolders
        hiddenNames = gathering.hiddenNames
        phase = .live

        switch gathering.purpose {
        case .initial, .reload:
            model.items = items
            items = []
            // Changes seen while reading are folded in before anything is shown as complete.
            if !pending.needsRescan { _ = applyPending() }
            deliver(.reload(model.items, gathering.purpose == .initial ? .gathered : .optionsChanged))
        case .rescan:
            var updates: [PathKey: QueryItem?] = [:]
            for item in model.items { updates.updateValue(nil, forKey: item.key) }
            for item in items { updates.updateValue(item, forKey: item.key) }
            let changes = model.apply(updates: updates)
            if !changes.isEmpty { deliver(.changes(changes)) }
        }
        guard phase == .live else { return }
        if reloadAfterGathering {
            reloadAfterGathering = false
            beginGathering(.reload)
        } else if pending.needsRescan {
            pending = PendingChanges()
            beginGathering(.rescan)
        } else if !pending.isEmpty {
            scheduleFlush()
        }
        if phase == .live && !waitingForGathering.isEmpty {
            let waiting = waitingForGathering
            waitingForGathering = []
            for done in waiting { synchronize(done) }
        }
    }
}
