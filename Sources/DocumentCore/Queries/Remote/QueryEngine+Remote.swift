import Foundation

/// A remote query's dealings with GIO, kept by its engine (on the engine's queue).
struct RemoteQueryState {
    /// Cancels the gathering under way (a new one, or the query's end, cancels it).
    var cancellable = ListingCancellable()
    /// The folder being listed.
    var lister: RemoteFolderLister?
    var monitor: RemoteFolderMonitor?
    var monitorCancellable: ListingCancellable?
    /// True when a GFileMonitor reports the folder's changes (no periodic listing then).
    var follows = false
    /// Counts gatherings, so that the answers of one cancelled arrive nowhere.
    var listing = 0
    /// Counts answers, for the watchdog that ends a listing the server stopped answering.
    var answers = 0
}

/// Remote locations (a URI GIO lists: sftp://, smb://, dav://…): the same gathering, batches,
/// reloads and change sets as a local folder, with the entries read by `RemoteFolderLister`
/// through GIO's asynchronous enumeration instead of `readdir`. Changes come from a
/// GFileMonitor where the backend has one, else from listing again every
/// `refreshInterval` (and on `refresh()`); either way, a new listing is compared with the
/// items shown and the differences are delivered as a change set.
extension QueryEngine {
    func startRemote() {
        beginRemoteGathering(.initial)
    }

    func stopRemote() {
        remote.cancellable.cancel()
        remote.lister = nil
        remote.monitorCancellable?.cancel()
        remote.monitor?.stop()
        remote.monitor = nil
    }

    func beginRemoteGathering(_ purpose: Gathering.Purpose) {
        remote.cancellable.cancel()
        remote.cancellable = ListingCancellable()
        remote.listing += 1
        phase = .gathering
        gathering = Gathering(purpose: purpose, folders: [root])
        listNextRemoteFolder()
    }

    /// Lists the next folder of the gathering, or ends the gathering when none is left.
    private func listNextRemoteFolder() {
        guard phase == .gathering, var gathering = self.gathering else { return }
        guard let folder = gathering.folders.popLast() else {
            self.gathering = nil
            remote.lister = nil
            finishGathering(&gathering)
            // The monitor is asked for once the first listing is shown: it costs the server a
            // round trip, and most backends have none to give.
            if phase == .live && options.observesChanges && remote.monitor == nil {
                startRemoteMonitor()
            } else if phase == .live {
                scheduleRemoteRefresh()
            }
            return
        }
        gathering.listedFolders[PathKey(folder.relativePath)] = folder
        self.gathering = gathering
        let listing = remote.listing
        // The query's own folder is listed under the URI it was given (GIO's spelling).
        let uri = folder === root ? (remoteLocation ?? folder.path) : folder.path
        let lister = RemoteFolderLister(folder: folder, uri: uri, cancellable: remote.cancellable) { [weak self] event in
            self?.perform { $0.receiveRemote(event, listing: listing) }
        }
        remote.lister = lister
        lister.start()
        watchForSilence(listing: listing, answers: remote.answers)
    }

    private func receiveRemote(_ event: RemoteFolderLister.Event, listing: Int) {
        guard phase == .gathering, listing == remote.listing, var gathering = self.gathering else { return }
        remote.answers += 1
        switch event {
        case .items(let items):
            for item in items {
                if isTraversable(item) { gathering.folders.append(item.parent.child(item.name)) }
                if isVisible(item) { gathering.items.append(item) }
            }
            if gathering.purpose == .initial && gathering.items.count > gathering.delivered {
                let batch = model.order.sorted(gathering.items[gathering.delivered...])
                gathering.items.replaceSubrange(gathering.delivered..., with: batch)
                deliver(.batch(batch))
                gathering.delivered = gathering.items.count
            }
            self.gathering = gathering
        case .finished:
            listNextRemoteFolder()
        case .failed(let error):
            if remote.lister?.folder === root {
                remote.cancellable.cancel()
                fail(error)
                return
            }
            // A subfolder of a recursive listing: as with local folders, a warning.
            if gathering.purpose == .initial { deliver(.warning(error)) }
            listNextRemoteFolder()
        }
    }

    /// Ends the gathering with `.unreachable` when the server sends nothing for `remoteTimeout`.
    private func watchForSilence(listing: Int, answers: Int) {
        executor.queue.asyncAfter(deadline: .now() + options.remoteTimeout.timeInterval) { [weak self] in
            self?.assumeIsolated { engine in
                guard engine.phase == .gathering, engine.remote.listing == listing else { return }
                guard engine.remote.answers == answers else {
                    return engine.watchForSilence(listing: listing, answers: engine.remote.answers)
                }
                engine.remote.cancellable.cancel()
                let seconds = Int(engine.options.remoteTimeout.timeInterval.rounded())
                engine.fail(.unreachable(name: engine.root.displayName, reason: tr("no answer for %s seconds", "\(seconds)")))
            }
        }
    }

    /// Lists again after `refreshInterval` when no monitor reports the changes.
    private func scheduleRemoteRefresh() {
        guard options.observesChanges, !remote.follows else { return }
        let listing = remote.listing
        executor.queue.asyncAfter(deadline: .now() + options.refreshInterval.timeInterval) { [weak self] in
            self?.assumeIsolated { engine in
                guard engine.phase == .live, engine.remote.listing == listing else { return }
                engine.beginGathering(.rescan)
            }
        }
    }

    private func startRemoteMonitor() {
        let cancellable = ListingCancellable()
        let monitor = RemoteFolderMonitor(uri: remoteLocation ?? root.path, cancellable: cancellable) { [weak self] event in
            self?.perform { $0.remoteFolderChanged(event) }
        }
        remote.monitor = monitor
        remote.monitorCancellable = cancellable
        monitor.start { [weak self] follows in
            self?.perform { engine in
                engine.remote.follows = follows
                if !follows && engine.phase == .live { engine.scheduleRemoteRefresh() }
            }
        }
    }

    /// A change the monitor reported: the folder is listed again once the coalescing
    /// interval has passed (a burst of changes is one listing).
    func remoteFolderChanged(_ event: RemoteFolderMonitor.Event) {
        guard phase == .gathering || phase == .live else { return }
        switch event {
        case .unmounted: fail(.notMounted(location: remoteLocation ?? root.path))
        case .changed:
            pending.needsRescan = true
            scheduleFlush()
        }
    }
}
