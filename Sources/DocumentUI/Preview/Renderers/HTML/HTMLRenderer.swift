import CGLib
import CGtk
import CWebKit
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// HTML pages through WebKitGTK, with JavaScript off and nothing loaded from the network
/// (a content filter blocks every URL that is not local), in a memory-only session; images
/// next to the file still show. A page that refers to remote content gets a banner that
/// loads it, for this page only. The page goes nowhere by itself (a meta refresh or a frame
/// is refused: it stays as it is), and links are not followed in the previewer: they go to
/// the controller, which asks its delegate and opens them in the default browser.
///
/// WebKitGTK is loaded the first time a page is shown (off the main thread, while the page is
/// read), not when Dossier starts; without it the page says so.
@MainActor
package final class HTMLRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.html]
    nonisolated static let limit = 8 << 20

    /// Holds the web view once WebKitGTK is loaded.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private var linkHandler: (@MainActor (URL) -> Void)?
    /// "Remote content was blocked", over the page.
    private let banner: WidgetPointer
    private var web: WidgetPointer?

    package func setLinkHandler(_ handler: @escaping @MainActor (URL) -> Void) { linkHandler = handler }

    /// Makes a renderer that shows an HTML page (WebKitGTK, without network access).
    package init() {
        banner = dossier_banner_new(tr("Remote content was blocked"), tr("Load Remote Content"))
        rootView = makeBox(GTK_ORIENTATION_VERTICAL, [banner])
        gtk_widget_set_vexpand(rootView, 1)
        var signal: UnsafePointer<CChar>?
        let button = dossier_banner_clicked_signal(banner, &signal)!
        connectSignal(button, String(cString: signal!)) { [weak self] in
            self?.loadRemoteContent()
        }
    }

    /// The user asked: the page again, with its remote content, for this page only.
    private func loadRemoteContent() {
        guard let web else { return }
        dossier_banner_set_revealed(banner, 0)
        dossier_webview_load_remote_content(web)
    }

    /// A page's text, and whether it refers to remote content.
    struct Page: Sendable {
        let html: String
        let refersToRemoteContent: Bool
    }

    /// The page read, and WebKitGTK loaded.
    struct Prepared: Sendable {
        let page: Result<Page, PreviewError>
    }

    /// WebKitGTK is opened with `dlopen`, once the process may load libraries.
    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        await preparation.librariesMayLoad()
        return Prepared(page: await readLoadingWebKit(preparation.url.rawPath))
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    package func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        let path = item.url.rawPath
        let read: Result<Page, PreviewError>
        if let prepared = await prepared?.value as? Prepared {
            read = prepared.page
        } else {
            read = await Task.detached { await Self.readLoadingWebKit(path) }.value
        }
        let page = try read.get()
        let web = Self.makeWebView()
        self.web = web
        gtk_box_append(cast(rootView), web)
        let store = URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("dossier/webkit-filters")
        try? FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        // Ready once WebKit has loaded (and so drawn) the page, not when it was handed over.
        let loaded: Bool = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(LoadContinuation(continuation)).toOpaque()
            // Link clicks reach the controller through this renderer (kept alive by its view).
            let me = Unmanaged.passUnretained(self).toOpaque()
            dossier_webview_load_offline(web, page.html, item.url.absoluteString, store.path, { uri, data in
                guard let uri, let url = URL(string: String(cString: uri)) else { return }
                let renderer = Unmanaged<HTMLRenderer>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated { renderer.linkHandler?(url) }
            }, me, { ok, data in
                Unmanaged<LoadContinuation>.fromOpaque(data!).takeRetainedValue().continuation.resume(returning: ok != 0)
            }, box)
        }
        guard loaded else { throw PreviewError(tr("The page could not be shown without loading remote content.")) }
        setAccessibleName(web, tr("Web page %s", item.displayTitle))
        if page.refersToRemoteContent { dossier_banner_set_revealed(banner, 1) }
    }

    /// Reads the page at `path` while WebKitGTK loads (the first time; it takes a while), both
    /// off the main thread. The previewer service does it for its first item as it starts.
    nonisolated static func readLoadingWebKit(_ path: FileSystemPath) async -> Result<Page, PreviewError> {
        async let webKit = loadWebKit()
        let page = read(path)
        let loaded = await webKit
        return page.flatMap { page in loaded.map { page } }
    }

    private nonisolated static func loadWebKit() -> Result<Void, PreviewError> {
        var error: UnsafeMutablePointer<CChar>?
        guard dossier_webkit_load(&error) != 0 else {
            let reason = takeString(error) ?? ""
            return .failure(PreviewError(tr("Web pages cannot be shown: WebKitGTK could not be loaded (%s).", reason)))
        }
        return .success(())
    }

    private nonisolated static func read(_ path: FileSystemPath) -> Result<Page, PreviewError> {
        guard let handle = FileHandle(forReadingAt: path) else {
            return .failure(PreviewError(tr("The file could not be read: %s", String(cString: strerror(errno)))))
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limit)) ?? Data()
        let html = TextEncoding.decode(data, isStartOfFile: data.count >= limit).text
        return .success(Page(html: html, refersToRemoteContent: !RemoteContent.references(in: html).isEmpty))
    }

    /// A web view (WebKitGTK is loaded).
    private static func makeWebView() -> WidgetPointer {
        let web = dossier_webview_new()!
        gtk_widget_set_vexpand(web, 1)
        gtk_widget_set_hexpand(web, 1)
        return web
    }
}

/// The continuation waiting for WebKit's load, carried through the C callback.
private final class LoadContinuation {
    let continuation: CheckedContinuation<Bool, Never>
    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }
}
