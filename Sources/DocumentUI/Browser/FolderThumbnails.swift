import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Thumbnails for the rest of the folder shown, made in the background as Files makes them,
/// so a folder of photos is in the cache whole without being scrolled through. They start once
/// the cells on and near the screen have asked for theirs, and wait below every cell's request
/// (`BackgroundThumbnails`): a cell scrolled into view later still goes first. None starts
/// while the view scrolls, nor for `stillness` after.
///
/// Only a folder's own items, in the view's order, and only on this machine's disks (a
/// server's files would be downloaded for it). Stopped when the browser leaves the folder and
/// while its window is hidden or closed; started again from the top when the folder is listed
/// again (a new order, hidden items shown) or the thumbnails' size changes, and new or changed
/// files are added as they come.
@MainActor
final class FolderThumbnails {
    private let generator: ThumbnailGenerator
    private let requests: ThumbnailRequests
    /// The browser's content: its mapping says whether anyone can see the folder.
    private let widget: WidgetPointer
    /// The folder listed, and its files that may get thumbnails, in order (arrivals after).
    private var folder: URL?
    private var files: [URL] = []
    /// The pass under way, if it started.
    private(set) var pass: BackgroundThumbnails?
    /// A start waits for the cells to have asked.
    private var isWaitingForCells = false

    /// The grid's icon size, in logical pixels: the thumbnails' size.
    var pixels: Int {
        didSet {
            guard ThumbnailSize(fitting: pixels) != ThumbnailSize(fitting: oldValue), pass != nil else { return }
            restart()
        }
    }

    /// How long background thumbnails wait after the view last moved: a scroll's frames (a
    /// kinetic one's too) keep the machine; the pass goes on once the view is still.
    var stillness: Duration = .milliseconds(250)

    /// Background thumbnails of the folder shown in `widget`, held back while any of the
    /// `scrolled` windows scrolls.
    init(generator: ThumbnailGenerator, requests: ThumbnailRequests, widget: WidgetPointer, scrolled: [WidgetPointer],
         pixels: Int) {
        self.generator = generator
        self.requests = requests
        self.widget = widget
        self.pixels = pixels
        for window in scrolled {
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(window))!
            connectSignal(raw(adjustment), "value-changed") { [weak self] in
                guard let self, self.pass != nil else { return }
                self.generator.holdBackground(for: self.stillness)
            }
        }
        requests.didAskForAll = { [weak self] in self?.cellsHaveAsked() }
        connectSignal(raw(widget), "map") { [weak self] in self?.startWhenCellsHaveAsked() }
        connectSignal(raw(widget), "unmap") { [weak self] in self?.pause() }
    }

    isolated deinit { pass?.cancel() }

    /// `folder` was listed whole: its thumbnails are made in the order of `items` (those of
    /// them that can have one), after the cells' own requests.
    func folderListed(_ folder: URL, items: [BrowserItem]) {
        StageTrace.mark("folder listed \(items.count)")
        stop()
        let files = thumbnailable(items)
        // The cells ask only once the grid's first frame is drawn: the thumbnail workers load
        // their libraries meanwhile, so the first request does not wait for them.
        if !files.isEmpty { generator.prestartWorkers() }
        // A server's folder is never thumbnailed ahead (its files would all be downloaded).
        guard !RemoteFiles.isRemote(folder) else { return }
        self.folder = folder
        self.files = files
        startWhenCellsHaveAsked()
    }

    /// Items of the folder appeared or changed: their thumbnails are made after the others'.
    func itemsArrived(_ items: [BrowserItem]) {
        guard folder != nil else { return }
        let arrived = thumbnailable(items)
        guard !arrived.isEmpty else { return }
        files += arrived
        pass?.add(arrived)
    }

    /// Stops making thumbnails and forgets the folder (the browser leaves it).
    func stop() {
        pass?.cancel()
        pass = nil
        folder = nil
        files = []
        isWaitingForCells = false
    }

    /// Only files of these types (or a subtype) are thumbnailed; empty allows all (the
    /// browser's `contentTypes`: what it shows).
    var contentTypes: [DocumentType] = []

    /// The files among `items` that the browser shows: what a thumbnailer may take (the
    /// generator decides which it can).
    private func thumbnailable(_ items: [BrowserItem]) -> [URL] {
        items.filter { item in
            !item.isDirectory && item.trashed == nil
                && (contentTypes.isEmpty || contentTypes.contains { item.type.conforms(to: $0) })
        }.map(\.url)
    }

    /// Stops for now (the window is hidden or closed); mapped again, the pass starts again.
    private func pause() {
        pass?.cancel()
        pass = nil
        isWaitingForCells = false
    }

    private func restart() {
        pause()
        startWhenCellsHaveAsked()
    }

    /// Starts the pass once the cells bound for the folder have asked for their thumbnails:
    /// after the next frame (its layout binds the cells the new items need) and, if some cells
    /// then wait to ask, when the last of them has.
    private func startWhenCellsHaveAsked() {
        guard folder != nil, pass == nil, !isWaitingForCells, gtk_widget_get_mapped(widget) != 0 else { return }
        isWaitingForCells = true
        onNextFrame(of: widget) { [weak self] in
            // An idle source added in a frame's tick runs after that frame's layout and paint.
            MainLoopIdle.run { [weak self] in
                guard let self, self.requests.isIdle else { return }
                self.cellsHaveAsked()
            }
        }
    }

    private func cellsHaveAsked() {
        guard isWaitingForCells, let folder, pass == nil, gtk_widget_get_mapped(widget) != 0 else { return }
        isWaitingForCells = false
        let scale = max(Int(gtk_widget_get_scale_factor(widget)), 1)
        let pass = BackgroundThumbnails(generator: generator, folder: folder, size: pixels, scale: scale)
        self.pass = pass
        pass.add(files)
    }
}
