import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Work on an item begun before its page exists: the previewer service started by D-Bus gets
/// its first `ShowFile` while GTK and the application still start on the main thread. The
/// item's type is found, then the renderer that will show it begins what it can
/// (`PreviewRenderer.prepare(_:)`) on another core; the page made for that file gives the
/// renderer's prepared value to `load(_:type:prepared:)`, once.
///
/// One item at most: a newer one replaces it, and what no page takes is let go
/// (`PreviewRenderer.discard(prepared:)`). A service makes one and gives it to its
/// `PreviewController`.
public final class PreviewPrefetch: Sendable {
    private struct Entry: Sendable {
        let id: UInt64
        let url: URL
        var detection: Task<Result<DocumentType, PreviewError>, Never>?
        var preparation: Task<Prepared?, Never>?
    }

    /// A renderer's prepared value, with the renderer that made it.
    struct Prepared: Sendable {
        let renderer: any PreviewRenderer.Type
        let value: any Sendable
    }

    /// A measurement of the window that prepared work waits for, by entry.
    private struct Measurement: Sendable {
        let id: UInt64
        let run: @MainActor @Sendable () -> Void
    }

    /// What the window about to be made is like, and what may happen yet.
    private struct State: Sendable {
        var entry: Entry?
        var lastID: UInt64 = 0
        /// The scale of the display's first monitor (the window's size is counted in device
        /// pixels for images).
        var scale: Int32 = 1
        /// libadwaita's styles are loaded: a window can be measured.
        var stylesLoaded = false
        /// Measurements waiting for the styles, by entry.
        var measurements: [Measurement] = []
        /// Library loads wait while this is set (`holdLibraryLoading`).
        var librariesHeld = false
        var waitingForLibraries: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())
    /// Where renderers are found, for the work begun and for the pages that take it.
    let registry: PreviewRendererRegistry

    /// A prefetch that finds renderers in `registry`; the pages it serves make theirs there too.
    public init(registry: PreviewRendererRegistry = .shared) {
        self.registry = registry
    }

    /// Starts finding the type of the file at `url` and its renderer's first work. Call from
    /// any thread; a remote item is downloaded by its page first, and nothing begins for it.
    public func start(_ url: URL) {
        guard !RemoteFiles.isRemote(url) else { return }
        let registry = registry
        // The tasks are made under the lock, so the entry is in place before their work can ask
        // whether it still waits.
        let replaced: Entry? = state.withLock { current in
            current.lastID += 1
            let id = current.lastID
            let detection = Task.detached(priority: .userInitiated) { PreviewPage.detectType(of: url) }
            let preparation = Task.detached(priority: .userInitiated) { [self] () -> Prepared? in
                guard case .success(let type) = await detection.value,
                      let renderer = registry.rendererType(for: type) else { return nil }
                let (width, height) = PreviewWindow.defaultSize
                let context = PreviewPreparation(url: url, type: type, windowWidth: width, windowHeight: height,
                                                 scale: state.withLock { $0.scale }, prefetch: self, id: id)
                return await renderer.prepare(context).map { Prepared(renderer: renderer, value: $0) }
            }
            defer { current.entry = Entry(id: id, url: url, detection: detection, preparation: preparation) }
            return current.entry
        }
        if let replaced { discard(replaced) }
    }

    /// Reads what prepared work needs to know of the display (its scale). Call on the main
    /// thread once GTK is initialised, before `start`.
    @MainActor
    public func readDisplay() {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display),
              let first = g_list_model_get_item(monitors, 0) else { return }
        let scale = max(gdk_monitor_get_scale_factor(OpaquePointer(first)), 1)
        g_object_unref(first)
        state.withLock { $0.scale = scale }
    }

    /// Holds the library loads of prepared work (`PreviewPreparation.librariesMayLoad()`) until
    /// `allowLibraryLoading()`. Call on the main thread before the first `start` can come, when
    /// the main thread still has threads to make (`adw_init`): glibc's `dlopen` holds the
    /// loader's lock while it maps a library and runs its constructors, and `pthread_create`
    /// takes the same lock, so the main thread would wait for the whole load.
    public func holdLibraryLoading() {
        state.withLock { $0.librariesHeld = true }
    }

    /// Lets the held library loads go (and every later one at once): call once the main
    /// thread made its threads.
    public func allowLibraryLoading() {
        let resumed = state.withLock { state in
            state.librariesHeld = false
            defer { state.waitingForLibraries = [] }
            return state.waitingForLibraries
        }
        resumed.forEach { $0.resume() }
    }

    /// libadwaita's styles are loaded: measurements of the window that prepared work asked for
    /// (`PreviewPreparation.measureWindow`) run now, and later ones at the main loop's next turn.
    /// Call on the main thread.
    @MainActor
    public func stylesAreLoaded() {
        let pending = state.withLock { state in
            state.stylesLoaded = true
            defer { state.measurements = [] }
            return state.measurements
        }
        for measurement in pending { measurement.run() }
    }

    // MARK: What the page takes

    /// The type detection started for `url`, if any (once). Measurements of the window asked
    /// for that item end: its page measures its own.
    @MainActor
    func takeDetection(for url: URL) -> Task<Result<DocumentType, PreviewError>, Never>? {
        var ended: [Measurement] = []
        let detection: Task<Result<DocumentType, PreviewError>, Never>? = state.withLock { state in
            guard let entry = state.entry, entry.url == url else { return nil }
            state.entry?.detection = nil
            ended = state.measurements.filter { $0.id == entry.id }
            state.measurements.removeAll { $0.id == entry.id }
            return entry.detection
        }
        for measurement in ended { measurement.run() }
        return detection
    }

    /// The work `renderer` began for `url`, if any (once; the entry is gone after). A value
    /// another renderer prepared is let go, and the page's renderer gets none.
    @MainActor
    func takePrepared(for url: URL, by renderer: any PreviewRenderer.Type) -> PreparedPreview? {
        let task: Task<Prepared?, Never>? = state.withLock { state in
            guard state.entry?.url == url else { return nil }
            defer { state.entry = nil }
            return state.entry?.preparation
        }
        guard let task else { return nil }
        return PreparedPreview(Task { @MainActor () -> (any Sendable)? in
            guard let prepared = await task.value else { return nil }
            guard prepared.renderer == renderer else {
                prepared.renderer.discard(prepared: prepared.value)
                return nil
            }
            return prepared.value
        })
    }

    /// Lets go of what was begun for `url` and not taken.
    @MainActor
    func discard(for url: URL) {
        let dropped: Entry? = state.withLock { state in
            guard state.entry?.url == url else { return nil }
            defer { state.entry = nil }
            return state.entry
        }
        if let dropped { discard(dropped) }
    }

    /// Prepared work waits for the window's styles to measure it (for tests).
    var isMeasurementWaiting: Bool { state.withLock { !$0.measurements.isEmpty } }

    /// The value prepared for `url` when its work is done, without taking it (for tests).
    func peekPrepared(for url: URL) async -> (any Sendable)? {
        let task = state.withLock { $0.entry?.url == url ? $0.entry?.preparation : nil }
        return await task?.value?.value
    }

    /// Lets go of what `entry` prepared, once it is done, and ends its measurements.
    private func discard(_ entry: Entry) {
        let ended: [Measurement] = state.withLock { state in
            defer { state.measurements.removeAll { $0.id == entry.id } }
            return state.measurements.filter { $0.id == entry.id }
        }
        let preparation = entry.preparation
        Task { @MainActor in
            for measurement in ended { measurement.run() }
            if let prepared = await preparation?.value { prepared.renderer.discard(prepared: prepared.value) }
        }
    }

    // MARK: What the preparation asks

    /// The entry `id` is current and no page has taken its type.
    fileprivate func isUnclaimed(_ id: UInt64) -> Bool {
        state.withLock { $0.entry?.id == id && $0.entry?.detection != nil }
    }

    fileprivate var stylesLoaded: Bool { state.withLock { $0.stylesLoaded } }

    fileprivate func librariesMayLoad() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.librariesHeld { state.waitingForLibraries.append(continuation) }
                return !state.librariesHeld
            }
            if resumeNow { continuation.resume() }
        }
    }

    fileprivate func measureWindow<Value: Sendable>(for id: UInt64, _ measure: @escaping @MainActor () -> Value) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let run: @MainActor @Sendable () -> Void = { [self] in
                continuation.resume(returning: isUnclaimed(id) ? measure() : nil)
            }
            let loaded = state.withLock { state in
                if !state.stylesLoaded { state.measurements.append(Measurement(id: id, run: run)) }
                return state.stylesLoaded
            }
            // At the main loop's next turn, ahead of the calls that make the page (they come
            // through the main queue, at the default priority).
            if loaded { MainLoopIdle.run(priority: G_PRIORITY_HIGH, run) }
        }
    }
}

/// Work a renderer began for an item before its page existed (`PreviewRenderer.prepare(_:)`),
/// as its page gives it to `load(_:type:prepared:)`: the renderer reads what it needs of the
/// window first, then awaits the value.
public struct PreparedPreview: Sendable {
    private let task: Task<(any Sendable)?, Never>

    init(_ task: Task<(any Sendable)?, Never>) {
        self.task = task
    }

    /// The value `prepare(_:)` returned, once its work is done; nil when it prepared nothing.
    public var value: (any Sendable)? {
        get async { await task.value }
    }
}

/// What a renderer knows of an item before its page exists (`PreviewRenderer.prepare(_:)`), and
/// what it may wait for.
public struct PreviewPreparation: Sendable {
    /// The item's file (always local).
    public let url: URL
    /// The item's type.
    public let type: DocumentType
    /// The size of the window the item will be shown in, in logical pixels.
    public let windowWidth: Int32, windowHeight: Int32
    /// The scale of the display's first monitor.
    public let scale: Int32
    private let prefetch: PreviewPrefetch
    private let id: UInt64

    init(url: URL, type: DocumentType, windowWidth: Int32, windowHeight: Int32, scale: Int32, prefetch: PreviewPrefetch,
         id: UInt64) {
        self.url = url
        self.type = type
        self.windowWidth = windowWidth
        self.windowHeight = windowHeight
        self.scale = scale
        self.prefetch = prefetch
        self.id = id
    }

    /// True once the window's styles are loaded, and the window can be measured.
    public var canMeasureWindow: Bool { prefetch.stylesLoaded }

    /// Returns once this process may open libraries with `dlopen` (WebKitGTK, GStreamer): not
    /// while the main thread still makes its first threads.
    public func librariesMayLoad() async {
        await prefetch.librariesMayLoad()
    }

    /// Runs `measure` on the main thread once the window's styles are loaded, and returns its
    /// result; nil when the item's page was made first (it measures its own window).
    public func measureWindow<Value: Sendable>(_ measure: @escaping @MainActor () -> Value) async -> Value? {
        await prefetch.measureWindow(for: id, measure)
    }
}
