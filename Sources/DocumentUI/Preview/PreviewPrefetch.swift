import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Work on an item begun before its page exists: the previewer service started by D-Bus gets
/// its first `ShowFile` while GTK and the application are still starting on the main thread,
/// and that item's type, and the file work of its renderer (an image's reduced decode in the
/// decoder worker, which it starts, a media file's inspection there and a video's stream, a
/// PDF's first page in the decoder worker, an archive's listing there, the first part of a
/// text, a Markdown file parsed, a font's specimen drawn there), run meanwhile on another
/// core. The page and its renderer take the results when they get there, for that file only
/// and once.
///
/// One item at most: a newer one replaces it. What is not taken is dropped with it.
enum PreviewPrefetch {
    /// A renderer's file work, done for the window's first size.
    enum Content: Sendable {
        case image(edge: Int32, Result<DecodedImage, ImageDecodingError>)
        case pdf(width: Int32, Result<PDFRenderer.Opened, PreviewError>)
        case text(Result<TextRenderer.Read, PreviewError>)
        /// The page read, and WebKitGTK loaded.
        case html(Result<HTMLRenderer.Page, PreviewError>)
        /// What the decoder worker's discoverer found.
        case media(Result<MediaDetails, MediaError>)
        /// An archive's entries, listed by a decoder worker.
        case archive(Result<ArchiveListing, PreviewError>)
        /// A Markdown file parsed, with its pictures.
        case markdown(Result<MarkdownDocument, PreviewError>)
    }

    private struct Entry: Sendable {
        let url: URL
        var detection: Task<Result<DocumentType, PreviewError>, Never>?
        var content: Task<Content?, Never>?
        /// The file is a font (drawn ahead once `fontAppearance` is known).
        var isFont = false
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var entry: Entry?
    /// The scale of the display's first monitor, read on the main thread once GTK is up (the
    /// window's first size is counted in device pixels for images).
    nonisolated(unsafe) static var scale: Int32 = 1
    /// How a first font's specimen is drawn in the window about to be made: measured on the
    /// main thread once libadwaita's styles are loaded (`PreviewController.prepareForFontPrefetch`)
    /// when the first item is a font, nil before. Under `lock`.
    nonisolated(unsafe) private static var fontAppearance: FontSpecimen.Appearance?
    /// libadwaita's styles are loaded: a first font's window can be measured. Under `lock`.
    nonisolated(unsafe) private static var isWindowMeasurable = false

    /// Starts finding the type of the file at `url` and its renderer's first work.
    static func start(_ url: URL) {
        // A remote item is downloaded by its page first: nothing to begin here.
        guard !RemoteFiles.isRemote(url) else { return }
        // The tasks are made under the lock, so the entry is in place before their work can look
        // for it (a font's drawing ahead is for the entry's file only): a type found at once
        // used to reach it first, and the font was never drawn ahead.
        let replaced: URL? = lock.withLock {
            let detection = Task.detached(priority: .userInitiated) { PreviewPage.detectType(of: url) }
            let content = Task.detached(priority: .userInitiated) { () -> Content? in
                guard case .success(let type) = await detection.value else { return nil }
                return await work(for: url, type: type)
            }
            defer { entry = Entry(url: url, detection: detection, content: content) }
            return entry?.url
        }
        if let replaced, replaced != url { FontSpecimen.dropDrawingAhead(fileAt: replaced.path) }
    }

    /// The type detection started for `url`, if any (once).
    static func takeDetection(for url: URL) -> Task<Result<DocumentType, PreviewError>, Never>? {
        lock.withLock {
            guard entry?.url == url else { return nil }
            defer { entry?.detection = nil }
            return entry?.detection
        }
    }

    /// The renderer work started for `url`, if any (once; the entry is gone after). On the
    /// main actor, as its renderers are: when the work is done, the renderer goes on without
    /// leaving the main thread (a hop to the worker threads waits while they decode or draw).
    @MainActor
    static func takeContent(for url: URL) async -> Content? {
        let task: Task<Content?, Never>? = lock.withLock {
            guard entry?.url == url else { return nil }
            defer { entry = nil }
            return entry?.content
        }
        return await task?.value
    }

    /// Whether work begun for `url` waits for its page (the page has not taken it).
    static func isWaiting(_ url: URL) -> Bool {
        lock.withLock { entry?.url == url }
    }

    /// Drops what was begun for `url` and not taken (its renderer did not ask for it).
    @MainActor
    static func discard(for url: URL) {
        lock.withLock { if entry?.url == url { entry = nil } }
        FontSpecimen.dropDrawingAhead(fileAt: url.path)
        MediaRenderer.dropStreamOpenedAhead(for: url.path)
    }

    /// A first font's specimen drawn ahead for the window about to be made, when the window's
    /// measures are known; until they are, the worker readies its font libraries on the file,
    /// and the font waits for them (`measureFontWindow`).
    private static func drawFontAhead(_ url: URL) {
        enum Next { case draw(FontSpecimen.Appearance), warm(measuring: Bool), nothing }
        let next: Next = lock.withLock {
            guard entry?.url == url else { return .nothing }
            entry?.isFont = true
            if let fontAppearance { return .draw(fontAppearance) }
            return .warm(measuring: isWindowMeasurable)
        }
        switch next {
        case .draw(let appearance): FontSpecimen.drawAhead(fileAt: url.path, appearance: appearance)
        case .warm(let measuring):
            FontSpecimen.warm(fileAt: url.path)
            // The styles were loaded before the type was found: measured when the main loop
            // next turns, ahead of the calls that make the page (they come through the main
            // queue, at the default priority), unless the page took the type first.
            if measuring { MainLoopIdle.run(priority: G_PRIORITY_HIGH) { measureFontWindow() } }
        case .nothing: break
        }
    }

    /// The item prefetched is a font (its type is known).
    static var isFontWaiting: Bool { lock.withLock { entry?.isFont == true } }

    /// Forgets the window's measures and that the styles are loaded (for tests: as in a
    /// service just started).
    static func forgetFontWindow() {
        lock.withLock {
            fontAppearance = nil
            isWindowMeasurable = false
        }
    }

    /// The styles are loaded: measures the window for a first font found already (else when it
    /// is found, `drawFontAhead`).
    @MainActor
    static func windowIsMeasurable() {
        lock.withLock { isWindowMeasurable = true }
        measureFontWindow()
    }

    /// Measures the window a first font will be shown in, once, when such a font waits and its
    /// page is not made yet (the page takes its type's detection), and draws it ahead. Costs a
    /// window made and measured (never shown) on the main thread: only for a font.
    @MainActor
    static func measureFontWindow() {
        let isWaiting = lock.withLock { entry?.isFont == true && entry?.detection != nil && fontAppearance == nil }
        guard isWaiting else { return }
        // The window's edges as the preview window will have them: it is one like it.
        let window = widget(adw_window_new())
        gtk_window_set_default_size(cast(window), PreviewWindow.defaultSize.width, PreviewWindow.defaultSize.height)
        let view = gtk_scrolled_window_new()!
        adw_window_set_content(cast(window), view)
        let width = FontRenderer.columnWidth(windowContent: PreviewWindow.contentWidth(of: window))
        let appearance = FontRenderer.appearance(of: view, width: width)
        gtk_window_destroy(cast(window))
        let waiting: URL? = lock.withLock {
            fontAppearance = appearance
            return entry?.isFont == true ? entry?.url : nil
        }
        if let waiting { FontSpecimen.drawAhead(fileAt: waiting.path, appearance: appearance) }
    }

    /// What the built-in renderer of `type` would do first, for the window's default size.
    /// Types that another renderer takes (tables, installed previewers) get text or
    /// nothing: the renderer that does not ask for it drops it.
    private static func work(for url: URL, type: DocumentType) async -> Content? {
        let (width, height) = PreviewWindow.defaultSize
        if type.conforms(to: .image) {
            // In the decoder worker, which this starts while GTK does.
            let edge = ImageRenderer.fittingEdge(width: width, height: height, scale: scale)
            return .image(edge: edge, await ImageDecoding.decode(url.path, type: type, size: .fitting(edge)))
        }
        if type.conforms(to: .audio) || type.conforms(to: .movie) {
            // The decoder worker inspects the file; meanwhile GStreamer is loaded here for the
            // page's playback, once the library may be opened. Then a video's stream opens on the
            // main thread at its next turn, unless the page has taken its item already (and opens
            // its stream itself).
            Task.detached(priority: .userInitiated) {
                await LibraryLoading.allowed()
                try? await MediaPlayback.loadInBackground()
                guard type.conforms(to: .movie) else { return }
                MainLoopIdle.run(priority: G_PRIORITY_HIGH) {
                    if isWaiting(url) { MediaRenderer.openAhead(url.path) }
                }
            }
            // The first time GStreamer is used at all, the inspection loads it here to make its registry.
            if !MediaInspection.hasRegistry { await LibraryLoading.allowed() }
            return .media(await MediaInspection.inspect(url.path))
        }
        // WebKitGTK is opened with dlopen: not while the main thread still makes its first
        // threads (see `LibraryLoading`). poppler is the decoder worker's.
        if type.conforms(to: .html) {
            await LibraryLoading.allowed()
        }
        if type.conforms(to: .pdf) {
            let pageWidth = PDFRenderer.fittingWidth(windowWidth: width)
            return .pdf(width: pageWidth, await PDFRenderer.open(url, firstPageWidth: pageWidth))
        }
        // Before text: a page is text too. WebKitGTK takes a few hundred ms to load on a cold
        // start, as long as GTK and the application.
        if type.conforms(to: .html) {
            return .html(await HTMLRenderer.prepare(url.path))
        }
        // Parsed once the window was up (a 200 KB file: tens of ms before its first block).
        if type.conforms(to: .markdown) {
            // Its pictures wait for the decoder worker: on one of Dispatch's threads.
            return .markdown(await blockingWork { MarkdownRenderer.parse(url) })
        }
        if type.conforms(to: .text) {
            return .text(TextRenderer.read(url, type: type))
        }
        // The listing was read only once the window was up (13-29 ms of a cold showing).
        // Documents that are zips inside (OpenDocument, OOXML) are the office renderer's.
        if type.conforms(to: .archive), !ArchiveRenderer.isOfficeDocument(type) {
            return .archive(await blockingWork { ArchiveRenderer.read(url.path, type: type) })
        }
        // The specimen is drawn ahead, without its colour (the style's, known only once the
        // window is): the page's renderer takes it (`FontSpecimen.draw` joins it).
        if type.conforms(to: .font) { drawFontAhead(url) }
        return nil
    }
}

extension PreviewController {
    /// Starts, off the main thread, the work of showing the file at `url`: its type and its
    /// renderer's first decoding or reading. For the previewer service, whose first item
    /// arrives while GTK and the application still start: call from any thread; the page
    /// made for that file takes the results.
    public nonisolated static func prefetch(_ url: URL) {
        PreviewPrefetch.start(url)
    }

    /// Reads what the prefetched work needs to know of the display (its scale). Call on the
    /// main thread once GTK is initialised, before `prefetch`.
    public static func prepareForPrefetch() {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display),
              let first = g_list_model_get_item(monitors, 0) else { return }
        PreviewPrefetch.scale = max(gdk_monitor_get_scale_factor(OpaquePointer(first)), 1)
        g_object_unref(first)
    }

    /// When the prefetched item is a font, measures what its specimen drawn ahead needs (the
    /// column's width in the window about to be made, the display's scale and font settings)
    /// and starts that drawing. Call on the main thread once libadwaita's styles are loaded (the
    /// window's edges are the stylesheet's); for a font it costs a window made and measured,
    /// never shown, and for anything else nothing. A font found later is measured when the main
    /// loop next turns, unless its page is made first.
    public static func prepareForFontPrefetch() {
        PreviewPrefetch.windowIsMeasurable()
    }
}

/// Holds the prefetch's library loads while the main thread makes its first threads.
///
/// glibc's `dlopen` holds the loader's lock while it maps, relocates and runs the constructors
/// of a library and its dependencies (WebKitGTK's ~100: 100-400 ms on a cold start), and
/// `pthread_create` takes the same lock to set up the new thread's TLS. The previewer service
/// owns its bus name, and so may start its first item's prefetch, before `adw_init`, which makes
/// a thread (AdwSettings' portal proxy): the main thread then slept until WebKit was loaded, and
/// the window came after the library instead of beside it (scheduler traces of cold HTML
/// showings: 124-288 ms, and 53 ms on a PDF's poppler).
enum LibraryLoading {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var isHeld = false
    nonisolated(unsafe) private static var waiting: [CheckedContinuation<Void, Never>] = []

    /// Library loads wait from now until `release()`. Call on the main thread before the
    /// prefetch can start.
    static func hold() {
        lock.withLock { isHeld = true }
    }

    /// Lets the held loads go (and every later one at once).
    static func release() {
        let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
            isHeld = false
            defer { waiting = [] }
            return waiting
        }
        resumed.forEach { $0.resume() }
    }

    /// Returns once library loads may start.
    static func allowed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = lock.withLock {
                if isHeld { waiting.append(continuation) }
                return !isHeld
            }
            if resumeNow { continuation.resume() }
        }
    }
}

extension PreviewController {
    /// Holds the prefetch's library loads (poppler, WebKitGTK, GStreamer for playback) until
    /// `allowLibraryLoading()`: call on the main thread before the first `prefetch` can come,
    /// when the main thread still has threads to make (`adw_init`), which would otherwise wait
    /// for the whole load.
    public static func holdLibraryLoading() { LibraryLoading.hold() }

    /// Lets the held library loads start: call once the main thread made its threads.
    public static func allowLibraryLoading() { LibraryLoading.release() }
}
