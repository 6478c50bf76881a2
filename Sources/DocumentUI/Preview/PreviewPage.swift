import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// One item in the previewer: finds its type and renderer, loads it off the main thread,
/// shows a spinner only if loading takes more than 200 ms, and an error page (never a hang)
/// when loading fails or runs out of time. A remote item is first downloaded into Dossier's
/// cache, with its progress shown, and the renderer reads the whole local copy; a download
/// that fails ends on the error page with a Retry button.
@MainActor
final class PreviewPage {
    enum State: Equatable { case loading, ready, failed(String) }

    let item: PreviewItem
    /// A stack of the loading, content and error views, owned by the page.
    let view: WidgetPointer
    private(set) var renderer: (any PreviewRenderer)?
    private(set) var state: State = .loading
    private(set) var type: DocumentType?
    /// The file's version when the page was loaded, to tell whether it can be shown again.
    let version: FileVersion?
    var stateDidChange: ((State) -> Void)?
    /// Where links activated in the item go.
    var linkHandler: (@MainActor (URL, PreviewItem) -> Void)?

    private let spinner: WidgetPointer
    private let errorPage: WidgetPointer
    /// The error page's Retry button (shown for downloads that may work another time).
    let retryButton: WidgetPointer
    private var work: Task<Void, Never>?
    /// Each start (and retry) of the page: a late timer of an earlier one does nothing.
    private var attempt = 0

    /// True when the item is read from a server (downloaded first).
    let isRemote: Bool
    /// The progress page, once a download shows progress.
    private var download: PreviewDownloadView?
    /// The downloaded copy the renderer reads, held in the cache while the page lives.
    private(set) var localCopy: RemoteCopy?
    /// The Cancel button of the download was pressed (not the page let go of).
    private var downloadCancelled = false
    /// Work begun on the item before the page existed, which the page takes.
    private let prefetch: PreviewPrefetch?

    static let spinnerDelay: Duration = .milliseconds(200)
    static let timeout: Duration = .seconds(15)

    init(item: PreviewItem, prefetch: PreviewPrefetch? = nil) {
        self.item = item
        self.prefetch = prefetch
        isRemote = RemoteFiles.isRemote(item.url)
        // Never a stat on a remote item's path: GVFS's FUSE folder waits for its server.
        version = isRemote ? nil : FileVersion(at: item.url)
        view = gtk_stack_new()
        // The page owns its widgets, not the window: the window lets go of a page the moment
        // another item replaces it, often while the page still loads, and the renderer then
        // finishes on widgets that must still exist (they go with the page).
        g_object_ref_sink(raw(view))
        // No fade inside a page: the content shows the moment it is ready.
        gtk_stack_set_transition_type(OpaquePointer(view), GTK_STACK_TRANSITION_TYPE_NONE)
        spinner = gtk_spinner_new()
        gtk_widget_set_size_request(spinner, 32, 32)
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        setAccessibleName(spinner, tr("Loading"))
        errorPage = dossier_status_page_new()
        adw_status_page_set_icon_name(OpaquePointer(errorPage), "dialog-warning-symbolic")
        retryButton = PreviewDownloadView.makeRetryButton()
        adw_status_page_set_child(OpaquePointer(errorPage), retryButton)
        gtk_widget_set_visible(retryButton, 0)
        // An empty page while `spinnerDelay` passes: no spinner flashes for quick items.
        gtk_stack_add_named(OpaquePointer(view), gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), "waiting")
        gtk_stack_add_named(OpaquePointer(view), spinner, "loading")
        gtk_stack_add_named(OpaquePointer(view), errorPage, "error")
        gtk_stack_set_visible_child_name(OpaquePointer(view), "waiting")
        connectSignal(raw(retryButton), "clicked") { [weak self] in self?.retry() }
    }

    isolated deinit {
        g_object_unref(raw(view))
    }

    /// Starts loading (once).
    func start() {
        guard work == nil else { return }
        attempt += 1
        let current = attempt
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: Self.spinnerDelay)
            guard let self, self.attempt == current, self.state == .loading, self.download?.shown == nil else { return }
            gtk_spinner_start(cast(self.spinner))
            gtk_stack_set_visible_child_name(OpaquePointer(self.view), "loading")
        }
        if isRemote {
            startDownload()
        } else {
            load(item)
        }
    }

    /// Finds the type of `shown` (the item, or its downloaded copy) and renders it, within
    /// the time allowed.
    private func load(_ shown: PreviewItem) {
        let url = shown.url
        // The type needs the file's first bytes: off the main thread, started at once, while
        // the main thread still builds and shows the window (or already begun, for the
        // service's first item).
        let detection = prefetch?.takeDetection(for: url) ?? Task.detached { Self.detectType(of: url) }
        work = Task { @MainActor [weak self] in
            let detected = await detection.value
            guard let self, !Task.isCancelled else { return }
            switch detected {
            case .failure(let error):
                self.fail(error.description)
            case .success(let type):
                await self.render(as: type, reading: shown)
            }
        }
        // The time allowed starts once the bytes are here: a download takes as long as it takes.
        let current = attempt
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: Self.timeout)
            guard let self, self.attempt == current, self.state == .loading else { return }
            self.work?.cancel()
            self.fail(tr("It took longer than %s seconds to load.", String(Self.timeout.components.seconds)))
        }
    }

    /// Downloads the remote item into the cache (at once when it is there already), showing
    /// the progress, then loads the copy under the item's own title.
    private func startDownload() {
        let url = item.url
        let title = item.displayTitle
        downloadCancelled = false
        let report: @Sendable (DownloadProgress) -> Void = { [weak self] progress in
            Task { @MainActor in self?.showDownload(progress) }
        }
        work = Task { @MainActor [weak self] in
            let result: Result<RemoteCopy, RemoteDownloadError>
            do throws(RemoteDownloadError) {
                result = .success(try await RemoteDownloads.shared.fetch(url, priority: .userInitiated, progress: report))
            } catch {
                result = .failure(error)
            }
            guard let self, self.state == .loading, !Task.isCancelled || self.downloadCancelled else { return }
            switch result {
            case .success(let copy):
                self.localCopy = copy
                self.load(PreviewItem(url: copy.url, title: title))
            case .failure(let error):
                self.fail(error.description, retryable: error.isRetryable)
            }
        }
    }

    private func showDownload(_ progress: DownloadProgress) {
        guard state == .loading, localCopy == nil else { return }
        let download = download ?? {
            let made = PreviewDownloadView(title: item.displayTitle) { [weak self] in self?.cancelDownload() }
            gtk_stack_add_named(OpaquePointer(view), made.view, "download")
            self.download = made
            return made
        }()
        download.show(progress)
        gtk_spinner_stop(cast(spinner))
        gtk_stack_set_visible_child_name(OpaquePointer(view), "download")
        stateDidChange?(state)
    }

    /// The download's Cancel button: the download stops, and the error page offers Retry.
    private func cancelDownload() {
        guard state == .loading, localCopy == nil else { return }
        downloadCancelled = true
        work?.cancel()
    }

    /// How far the item's download has come, while its progress is shown.
    var downloadProgress: DownloadProgress? {
        state == .loading && localCopy == nil ? download?.shown : nil
    }

    /// Starts again after a download failed (Retry): mounts the item's location again when
    /// its server took the mount with it, then downloads.
    func retry() {
        guard case .failed = state, isRemote, renderer == nil else { return }
        work?.cancel()
        work = nil
        localCopy = nil
        download?.reset()
        gtk_widget_set_visible(retryButton, 0)
        state = .loading
        gtk_stack_set_visible_child_name(OpaquePointer(view), "waiting")
        stateDidChange?(state)
        attempt += 1
        let current = attempt
        let url = item.url
        Task { @MainActor [weak self] in
            let problem = url.isFileURL ? nil : await PreviewRemount.mountEnclosing(url, parent: self?.view)
            guard let self, self.attempt == current, self.state == .loading else { return }
            if let problem { return self.fail(problem, retryable: true) }
            self.start()
        }
    }

    /// The type of the file at `url`, or why it is not shown.
    nonisolated static func detectType(of url: URL) -> Result<DocumentType, PreviewError> {
        do throws(ItemError) {
            let info = try ItemInfo.inspect(url)
            switch info.kind {
            case .regular, .directory, .symbolicLink: return .success(info.type)
            default:
                // A FIFO or a device could be read forever: never opened.
                return .failure(PreviewError(tr("It is a %s, not a file: only files and folders can be previewed.",
                                                info.type.localizedDescription)))
            }
        } catch {
            return .failure(PreviewError(error.description))
        }
    }

    /// Renders `shown` (the item, or the downloaded copy of a remote one) as `type`.
    private func render(as type: DocumentType, reading shown: PreviewItem) async {
        self.type = type
        let renderer = (prefetch?.registry ?? .shared).makeRenderer(for: type)
        self.renderer = renderer
        let item = item
        renderer.setLinkHandler { [weak self] url in self?.linkHandler?(url, item) }
        renderer.setFailureHandler { [weak self] error in
            guard let self, self.state == .loading || self.state == .ready else { return }
            self.fail(error.description)
        }
        gtk_stack_add_named(OpaquePointer(view), renderer.view.gtkWidget, "content")
        do {
            defer { prefetch?.discard(for: shown.url) }
            let prepared = prefetch?.takePrepared(for: shown.url, by: Swift.type(of: renderer))
            StageTrace.mark("page load \(type.identifier)")
            if prepared != nil { StageTrace.mark("page took prepared work") }
            try await renderer.load(shown, type: type, prepared: prepared)
            guard state == .loading, !Task.isCancelled else { return }
            state = .ready
            gtk_spinner_stop(cast(spinner))
            gtk_stack_set_visible_child_name(OpaquePointer(view), "content")
            StageTrace.mark("page ready")
            if StageTrace.isOn { onNextFrame(of: view) { StageTrace.mark("page next frame") } }
            stateDidChange?(state)
        } catch {
            guard state == .loading else { return }
            fail("\(error)")
        }
    }

    /// The longest message the error page shows: a longer one (GIO's, naming a 100 KB path) is
    /// cut in its middle, since GTK lays out a long label that has few places to break in
    /// quadratic time, and a path that long would hold the main thread past the item's timeout.
    static let messageLimit = 1000

    /// `message`, cut in its middle to `messageLimit` characters and an ellipsis.
    static func shortened(_ message: String) -> String {
        guard message.count > messageLimit else { return message }
        return String(message.prefix(messageLimit / 2)) + "…" + String(message.suffix(messageLimit / 2))
    }

    private func fail(_ full: String, retryable: Bool = false) {
        let message = Self.shortened(full)
        state = .failed(message)
        gtk_widget_set_visible(retryButton, retryable ? 1 : 0)
        gtk_spinner_stop(cast(spinner))
        adw_status_page_set_title(OpaquePointer(errorPage), tr("“%s” cannot be shown", item.displayTitle))
        adw_status_page_set_description(OpaquePointer(errorPage), message)
        setAccessibleName(errorPage, tr("Error: %s", message))
        gtk_stack_set_visible_child_name(OpaquePointer(view), "error")
        stateDidChange?(state)
    }

    /// Stops loading; a late result is dropped.
    func cancel() {
        work?.cancel()
        prefetch?.discard(for: item.url)
        if state == .loading { state = .failed(tr("Cancelled")) }
    }
}
