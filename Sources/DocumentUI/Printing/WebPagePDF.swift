import CGLib
import CGtk
import CWebKit
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// HTML laid out on paper by WebKit: an offscreen web view (JavaScript off, nothing loaded
/// from the network, as the HTML renderer's) loads the page and prints it, with no dialog, to
/// a temporary PDF through GTK's file printer; those pages then print like any PDF's, through
/// the same dialog and preview as every other document. The paper is the locale's default
/// (A4 or Letter): WebKit lays the page out before the dialog, where another paper can be
/// chosen (a page is then scaled to fit it).
@MainActor
enum WebPagePDF {
    /// The pages of `html`, its relative images and styles resolved against `base`.
    static func pages(of html: String, base: URL) async throws(PreviewError) -> PDFPages {
        let loaded = await Task.detached { () -> String? in
            var error: UnsafeMutablePointer<CChar>?
            return dossier_webkit_load(&error) != 0 ? nil : (takeString(error) ?? "")
        }.value
        if let loaded {
            throw PreviewError(tr("Web pages cannot be shown: WebKitGTK could not be loaded (%s).", loaded))
        }
        let view = dossier_webview_new()!
        g_object_ref_sink(raw(view))
        defer { g_object_unref(raw(view)) }
        let store = URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("dossier/webkit-filters")
        try? FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let ok: Bool = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(Resumption(continuation)).toOpaque()
            dossier_webview_load_offline(view, html, base.absoluteString, store.path, nil, nil, { ok, data in
                Unmanaged<Resumption<Bool>>.fromOpaque(data!).takeRetainedValue().continuation.resume(returning: ok != 0)
            }, box)
        }
        guard ok else { throw PreviewError(tr("The page could not be shown without loading remote content.")) }

        // In Dossier's cache, the one place it writes on a file's behalf.
        let folder = URL(fileURLWithPath: String(cString: g_get_user_cache_dir()))
            .appendingPathComponent("dossier/print-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("page.pdf")
        let settings: OpaquePointer
        do {
            settings = try FilePrinter.settings(writingTo: pdf)
        } catch {
            throw PreviewError(error.description)
        }
        defer { g_object_unref(raw(settings)) }
        let setup = gtk_page_setup_new()!
        defer { g_object_unref(raw(setup)) }
        let failure: String? = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(Resumption(continuation)).toOpaque()
            dossier_webview_print(view, settings, setup, { (error: UnsafePointer<CChar>?, data: UnsafeMutableRawPointer?) in
                let message = error.map { String(cString: $0) }
                Unmanaged<Resumption<String?>>.fromOpaque(data!).takeRetainedValue().continuation.resume(returning: message)
            }, box)
        }
        if let failure { throw PreviewError(tr("Printing failed: %s", failure)) }
        // Opened (and so read) before its folder goes.
        return try await PDFPages(pdf)
    }
}

/// A continuation carried through a C callback.
private final class Resumption<Value> {
    let continuation: CheckedContinuation<Value, Never>
    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = continuation }
}
