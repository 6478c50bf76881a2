import Foundation

/// The working half of a `DirectoryQuery`. All its state lives on one serial background queue
/// (the actor's executor): gathering runs there in steps, so inotify events, `noteChange`
/// calls and option changes are handled between two batches; blocking `readdir` and `stat`
/// calls never run on a caller's thread. Events leave through `sink`, in order.
actor QueryEngine {
    enum Phase {
        case idle, gathering, live, ended
    }

    nonisolated let root: QueryFolder
    /// Set for a location that is not a local path: the query then only reports so.
    nonisolated let remoteLocation: String?
    nonisolated let executor: QueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    var phase = Phase.idle
    var options: QueryOptions
    var model: QueryModel
    var sink: (@Sendable (QueryEvent) -> Void)?
    /// Runs a `synchronize` completion after the events already sent through `sink`.
    var barrierSink: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    /// `synchronize` completions waiting for a gathering to end.
    var waitingForGathering: [@Sendable () -> Void] = []
    /// The gathering under way; nil while a step runs (so it is mutated in place) and when live.
    var gathering: Gathering?
    var watcher: FolderWatcher?
    var source: DispatchSourceRead?
    /// Every folder listed, by relative path ("" is the query's folder).
    var folders: [PathKey: QueryFolder] = [:]
    /// Names from each listed folder's `.hidden` file, for folders that have one.
    var hiddenNames: [PathKey: Set<PathKey>] = [:]
    var pending = PendingChanges()
    var flushScheduled = false
    var flushGeneration = 0
    var reloadAfterGathering = false
    var warnedAboutWatchLimit = false
    let namer = TypeNamer()
    /// A remote query's listing and following through GIO (unused for local folders).
    var remote = RemoteQueryState()

    init(root: QueryFolder, options: QueryOptions, remoteLocation: String? = nil) {
        self.root = root
        self.remoteLocation = remoteLocation
        self.options = options
        model = QueryModel(order: QueryOrder(options))
        executor = QueueExecutor(label: "dossier.query")
    }

    /// Runs `body` on the engine's queue, after everything asked of it before.
    nonisolated func perform(_ body: @escaping @Sendable (isolated QueryEngine) -> Void) {
        executor.queue.async { self.assumeIsolated { body($0) } }
    }

    func start(sink: @escaping @Sendable (QueryEvent) -> Void,
               barrier: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        guard phase == .idle else { return }
        self.sink = sink
        barrierSink = barrier
        QueryRegistry.add(self)
        if remoteLocation != nil {
            startRemote()
            return
        }
        if options.observesChanges {
            startWatching()
            guard phase != .ended else { return }
        }
        beginGathering(.initial)
    }

    func stop() {
        guard phase != .ended else { return }
        phase = .ended
        sink = nil
        barrierSink = nil
        let waiting = waitingForGathering
        waitingForGathering = []
        for done in waiting { done() }
        gathering = nil
        stopRemote()
        source?.cancel()  // its cancel handler closes the inotify descriptor
        source = nil
        watcher = nil
        QueryRegistry.remove(self)
    }

    func setOptions(_ newOptions: QueryOptions) {
        let previous = options
        options = newOptions
        options.observesChanges = previous.observesChanges  // fixed once started
        let listsSameItems = options.listsSameItems(as: previous)
        switch phase {
        case .ended: return
        case .idle: model.order = QueryOrder(options)
        case .gathering:
            // The final sort uses the new order; other changes need a fresh gathering after this one.
            model.order = QueryOrder(options)
            if !listsSameItems { reloadAfterGathering = true }
        case .live:
            if listsSameItems {
                model.reorder(QueryOrder(options))
                deliver(.reload(model.items, .optionsChanged))
            } else {
                model.order = QueryOrder(options)
                beginGathering(.reload)
            }
        }
    }

    /// Lists the folder again now and delivers the differences as a change set: for
    /// locations whose changes are not reported (most remote ones), on the person's request.
    /// During a gathering, another follows it.
    func refresh() {
        switch phase {
        case .live: beginGathering(.rescan)
        case .gathering: pending.needsRescan = true
        case .idle, .ended: break
        }
    }

    func deliver(_ event: QueryEvent) {
        sink?(event)
    }

    /// The barrier behind `DirectoryQuery.synchronize`: what inotify has queued is read and
    /// delivered now, and `done` follows those events (after a gathering under way, or one
    /// the changes started).
    func synchronize(_ done: @escaping @Sendable () -> Void) {
        switch phase {
        case .idle, .ended:
            done()
        case .gathering:
            waitingForGathering.append(done)
        case .live:
            readWatchEvents()
            guard phase == .live else { return phase == .ended ? done() : waitingForGathering.append(done) }
            flushGeneration += 1  // supersedes a scheduled flush
            flushScheduled = false
            flush()
            if phase == .gathering {
                waitingForGathering.append(done)
            } else if let barrierSink {
                barrierSink(done)
            } else {
                done()
            }
        }
    }

    func fail(_ error: DirectoryQueryError) {
        guard phase != .ended else { return }
        deliver(.failed(error))
        stop()
    }

    func isVisible(_ item: QueryItem) -> Bool {
        (options.showsHidden || !item.isHidden) && (options.predicate?.matches(item) ?? true)
    }

    /// True for folders a recursive query enters: not hidden ones (unless shown), not links.
    /// Whether a recursive query goes into `item`. Not into a folder whose name is not UTF-8:
    /// its path string would name another folder, the one its U+FFFD text spells.
    func isTraversable(_ item: QueryItem) -> Bool {
        options.recursive && item.isDirectory && !item.isSymlink && item.hasUTF8Name && (options.showsHidden || !item.isHidden)
    }

    private func startWatching() {
        guard let watcher = FolderWatcher() else {
            let reason = String(cString: strerror(errno))
            deliver(.warning(.changesNotFollowed(name: root.displayName, reason: reason)))
            return
        }
        let code = watcher.watch(path: root.path, relativePath: "")
        guard code == 0 else {
            close(watcher.descriptor)
            switch code {
            case ENOENT, ENOTDIR, EACCES, EPERM: fail(DirectoryQueryError(errno: code, name: root.displayName))
            default:
                let reason = String(cString: strerror(code))
                deliver(.warning(.changesNotFollowed(name: root.displayName, reason: reason)))
            }
            return
        }
        self.watcher = watcher
        let descriptor = watcher.descriptor
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: executor.queue)
        source.setEventHandler { [weak self] in
            self?.assumeIsolated { $0.readWatchEvents() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        self.source = source
    }

    /// Watches a subfolder of a recursive query; past inotify's watch limit, says so once.
    func watchSubfolder(_ folder: QueryFolder) {
        guard let watcher, !watcher.isWatching(PathKey(folder.relativePath)) else { return }
        let code = watcher.watch(path: folder.path, relativePath: PathKey(folder.relativePath))
        if code == ENOSPC && !warnedAboutWatchLimit {
            warnedAboutWatchLimit = true
            let reason = tr("too many folders to watch (see /proc/sys/fs/inotify/max_user_watches)")
            deliver(.warning(.changesNotFollowed(name: root.displayName, reason: reason)))
        }
    }
}

/// Every started query, for `DirectoryQuery.noteChange(at:)`.
enum QueryRegistry {
    private static let engines = Locked<[ObjectIdentifier: QueryEngine]>([:])

    static func add(_ engine: QueryEngine) {
        engines.withLock { $0[ObjectIdentifier(engine)] = engine }
    }

    static func remove(_ engine: QueryEngine) {
        _ = engines.withLock { $0.removeValue(forKey: ObjectIdentifier(engine)) }
    }

    static var all: [QueryEngine] { engines.withLock { Array($0.values) } }
}

extension Duration {
    var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
