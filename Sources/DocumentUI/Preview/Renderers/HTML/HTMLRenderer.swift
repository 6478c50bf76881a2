import CGLib
import CGtk
import CWebKit
import DocumentCore
import Foundation
import GObjectSupport

/// HTML pages through WebKitGTK, with JavaScript off and nothing loaded from the network
/// (a content filter blocks every URL that is not local), in a memory-only session; images
/// next to the file still show. A page that refers to remote content gets a banner that
/// loads it, for this page only. The page goes nowhere by itself (a meta refresh or a frame
/// is refused: it stays as it is), and links are not followed in the previewer: they go to
/// the controller, which asks its delegate and opens them in the default browser.
///
/// WebKitGTK is loaded the first time a page is shown (off the main thread), not when Dossier
/// starts; without it the page says so.
@MainActor
public final class HTMLRenderer: PreviewRenderer {
    public static let supportedTypes: [DocumentType] = [.html]
    nonisolated static let limit = 8 << 20

    /// Holds the web view once WebKitGTK is loaded.
    public let view: Widget
    private var linkHandler: (@MainActor (URL) -> Void)?
    /// "Remote content was blocked", over the page.
    private let banner: Widget
    private var web: Widget?

    public func setLinkHandler(_ handler: @escaping @MainActor (URL) -> Void) { linkHandler = handler }

    public init() {
        banner = dossier_banner_new(tr("Remote content was blocked"), tr("Load Remote Content"))
        view = makeBox(GTK_ORIENTATION_VERTICAL, [banner])
        gtk_widget_set_vexpand(view, 1)
        var signal: UnsafePointer<CChar>?
        let button = dossier_banner_clicked_signal(banner, &signal)!
        connectSignal(button, String(cString: signal!)) { [weak self] in
            MainActor.assumeIsolated { self?.loadRemoteContent() }
        }
    }

    /// The user asked: the page again, with its remote content, for this page only.
    private func loadRemoteContent() {
        guard let web else { return }
        dossier_banner_set_revealed(banner, 0)
        dossier_webview_load_remote_content(web)
    }

    public func load(_ item: PreviewItem, type: DocumentType) async throws {
        let path = item.url.path
        let read = await Task.detached { () -> Result<(String, Bool), PreviewError> in
            guard let handle = FileHandle(forReadingAtPath: path) else {
                return .failure(PreviewError(tr("The file could not be read: %s", String(cString: strerror(errno)))))
            }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: HTMLRenderer.limit)) ?? Data()
            let html = TextEncoding.decode(data, isStartOfFile: data.count >= HTMLRenderer.limit).text
            return .success((html, !RemoteContent.references(in: html).isEmpty))
        }.value
        let (html, refersToRemoteContent) = try read.get()
        let web = try await Self.makeWebView()
        self.web = web
        gtk_box_append(cast(view), web)
        let store = URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("dossier/webkit-filters")
        try? FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        // Ready once WebKit has loaded (and so drawn) the page, not when it was handed over.
        let loaded: Bool = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(LoadContinuation(continuation)).toOpaque()
            // Link clicks reach the controller through this renderer (kept alive by its view).
            let me = Unmanaged.passUnretained(self).toOpaque()
            dossier_webview_load_offline(web, html, item.url.absoluteString, store.path, { uri, data in
                guard let uri, let url = URL(string: String(cString: uri)) else { return }
                let renderer = Unmanaged<HTMLRenderer>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated { renderer.linkHandler?(url) }
            }, me, { ok, data in
                Unmanaged<LoadContinuation>.fromOpaque(data!).takeRetainedValue().continuation.resume(returning: ok != 0)
            }, box)
        }
        guard loaded else { throw PreviewError(tr("The page could not be shown without loading remote content.")) }
        setAccessibleName(web, tr("Web page %s", item.displayTitle))
        if refersToRemoteContent { dossier_banner_set_revealed(banner, 1) }
    }

    /// A web view, once WebKitGTK is loaded (the first time, off the main thread: it takes a
    /// while).
    private static func makeWebView() async throws -> Widget {
        let loaded = await Task.detached { () -> Result<Void, PreviewError> in
            var error: UnsafeMutablePointer<CChar>?
            guard dossier_webkit_load(&error) != 0 else {
                let reason = takeString(error) ?? ""
                return .failure(PreviewError(tr("Web pages cannot be shown: WebKitGTK could not be loaded (%s).", reason)))
            }
            return .success(())
        }.value
        try loaded.get()
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
