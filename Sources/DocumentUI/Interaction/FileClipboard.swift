import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// Files on the clipboard the way GNOME Files exchanges them: `x-special/gnome-copied-files`
/// ("copy" or "cut", then one URI a line), `text/uri-list`, GTK 4's file list, and the paths
/// as plain text for pasting into a text field.
@MainActor
enum FileClipboard {
    /// Puts `urls` on the display's clipboard, to be copied (or moved, when `cut`) on paste.
    static func copy(_ urls: [URL], cut: Bool = false) {
        guard let display = gdk_display_get_default(), !urls.isEmpty, let union = contentProvider(for: urls, cut: cut) else { return }
        gdk_clipboard_set_content(gdk_display_get_clipboard(display), union)
        g_object_unref(raw(union))
    }

    /// The files as the clipboard and drag and drop carry them (the caller owns the provider).
    static func contentProvider(for urls: [URL], cut: Bool = false) -> UnsafeMutablePointer<GdkContentProvider>? {
        let uris = urls.map(\.absoluteString)
        var providers: [UnsafeMutablePointer<GdkContentProvider>?] = [
            bytesProvider("x-special/gnome-copied-files", ([cut ? "cut" : "copy"] + uris).joined(separator: "\n")),
            bytesProvider("text/uri-list", uris.map { $0 + "\r\n" }.joined()),
            fileListProvider(urls),
            bytesProvider("text/plain;charset=utf-8", urls.map(\.parseName).joined(separator: "\n")),
        ]
        return providers.withUnsafeMutableBufferPointer { buffer in
            gdk_content_provider_new_union(buffer.baseAddress, gsize(buffer.count))
        }
    }

    /// Puts text on the display's clipboard.
    static func copyText(_ text: String) {
        guard let display = gdk_display_get_default() else { return }
        gdk_clipboard_set_text(gdk_display_get_clipboard(display), text)
    }

    private static func bytesProvider(_ mimeType: String, _ text: String) -> UnsafeMutablePointer<GdkContentProvider>? {
        let data = Array(text.utf8)
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return gdk_content_provider_new_for_bytes(mimeType, bytes)
    }

    private static func fileListProvider(_ urls: [URL]) -> UnsafeMutablePointer<GdkContentProvider>? {
        var files: UnsafeMutablePointer<GSList>?
        for url in urls.reversed() {
            files = g_slist_prepend(files, UnsafeMutableRawPointer(g_file_new_for_uri(url.absoluteString)))
        }
        let list = gdk_file_list_new_from_list(files)
        g_slist_free_full(files) { g_object_unref($0) }
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        g_value_take_boxed(&value, UnsafeRawPointer(list))
        defer { g_value_unset(&value) }
        return gdk_content_provider_new_for_value(&value)
    }
}
