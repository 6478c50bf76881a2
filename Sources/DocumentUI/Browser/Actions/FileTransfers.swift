import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Copy, cut and paste of files, interoperable with GNOME Files: Ctrl+C and Ctrl+X put the
/// selection on the clipboard as `x-special/gnome-copied-files` (plus `text/uri-list` and
/// text); Ctrl+V reads it (or a plain URI list) from any app and copies or moves the files
/// into the shown folder under free names. Remote items (sftp://, smb://…) travel as their
/// URIs, as Files writes and reads them, and are copied through GIO.
extension DocumentBrowser {
    func copySelection(cut: Bool) {
        let urls = selectedURLs
        guard !urls.isEmpty, location != .trash else { return }
        FileClipboard.copy(urls, cut: cut)
        clipboardHoldsCut = cut
    }

    /// Pastes the files on the clipboard into the shown folder.
    func paste() {
        guard let folder = currentFolder, let display = gdk_display_get_default() else { return }
        let clipboard = gdk_display_get_clipboard(display)!
        ClipboardFiles.read(clipboard) { [weak self] (content: ClipboardContent?) in
            guard let self else { return }
            guard let content, !content.urls.isEmpty else {
                self.showToast(tr("There are no files on the clipboard to paste"))
                return
            }
            self.place(content.urls, into: folder, move: content.cut)
            // As in Files: cut files are moved once; the clipboard then no longer holds them.
            if content.cut { gdk_clipboard_set_content(clipboard, nil) }
        }
    }

    /// Copies (or moves) `urls` into `folder` with progress, undoable, selecting the result.
    func place(_ urls: [URL], into folder: URL, move: Bool) {
        let title = move ? trn("Moving %s item", "Moving %s items", urls.count, String(urls.count))
            : trn("Copying %s item", "Copying %s items", urls.count, String(urls.count))
        let shown = currentFolder.map { FileOperations.sameFolder($0, folder) } ?? false
        runFileOperation(title) { operations, progress in
            operations.place(urls, into: folder, move: move, progress: progress)
        } then: { [weak self] results in
            if shown { self?.selectWhenShown(results.compactMap(\.resultingURL)) }
        }
    }
}

/// Files found on the clipboard, and whether they were cut.
struct ClipboardContent: Sendable {
    var urls: [URL]
    var cut: Bool

    /// Parses `x-special/gnome-copied-files`: "copy" or "cut", then a URI a line.
    static func gnomeCopiedFiles(_ text: String) -> ClipboardContent? {
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let verb = lines.first, verb == "copy" || verb == "cut" else { return nil }
        lines.removeFirst()
        return ClipboardContent(urls: lines.compactMap { URL(string: $0) }, cut: verb == "cut")
    }

    /// Parses `text/uri-list` (RFC 2483: CRLF lines, "#" comments) as files to copy.
    static func uriList(_ text: String) -> ClipboardContent {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return ClipboardContent(urls: lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }.compactMap { URL(string: $0) }, cut: false)
    }
}

/// Reads files from a GdkClipboard, asynchronously (the owner may be this very process,
/// which answers from the main loop).
@MainActor
enum ClipboardFiles {
    static let preferredTypes = ["x-special/gnome-copied-files", "text/uri-list"]

    static func read(_ clipboard: OpaquePointer, _ done: @escaping @MainActor (ClipboardContent?) -> Void) {
        let formats = gdk_clipboard_get_formats(clipboard)
        guard let type = preferredTypes.first(where: { gdk_content_formats_contain_mime_type(formats, $0) != 0 }) else {
            done(nil)
            return
        }
        let request = ReadRequest { text in
            guard let text else { return done(nil) }
            done(type == "text/uri-list" ? .uriList(text) : .gnomeCopiedFiles(text))
        }
        withCStringArray([type]) { types in
                gdk_clipboard_read_async(clipboard, types, G_PRIORITY_DEFAULT, nil, { source, result, data in
                    MainActor.assumeIsolated {
                        let request = Unmanaged<ReadRequest>.fromOpaque(data!).takeRetainedValue()
                        let stream = gdk_clipboard_read_finish(OpaquePointer(source), result, nil, nil)
                        guard let stream else { return request.finish(nil) }
                        request.drain(stream)
                    }
                }, Unmanaged.passRetained(request).toOpaque())
        }
    }

    /// One read: the stream spliced into memory, then decoded as UTF-8.
    final class ReadRequest {
        let completion: @MainActor (String?) -> Void
        init(_ completion: @escaping @MainActor (String?) -> Void) { self.completion = completion }

        @MainActor func finish(_ text: String?) { completion(text) }

        @MainActor func drain(_ stream: UnsafeMutablePointer<GInputStream>) {
            let memory = g_memory_output_stream_new_resizable()!
            let flags = GOutputStreamSpliceFlags(rawValue: DOSSIER_G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE
                | DOSSIER_G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET)
            g_output_stream_splice_async(memory, stream, flags, G_PRIORITY_DEFAULT, nil, { source, result, data in
                MainActor.assumeIsolated {
                    let request = Unmanaged<ReadRequest>.fromOpaque(data!).takeRetainedValue()
                    let output = UnsafeMutablePointer<GOutputStream>(OpaquePointer(source))
                    defer { g_object_unref(source) }
                    guard g_output_stream_splice_finish(output, result, nil) >= 0,
                          let bytes = g_memory_output_stream_steal_as_bytes(UnsafeMutablePointer(OpaquePointer(output))) else { return request.finish(nil) }
                    defer { g_bytes_unref(bytes) }
                    var size: gsize = 0
                    let pointer = g_bytes_get_data(bytes, &size)
                    let text = pointer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(size)), as: UTF8.self) }
                    request.finish(text ?? "")
                }
            }, Unmanaged.passRetained(self).toOpaque())
            g_object_unref(stream)
        }
    }
}

/// Calls `body` with a NULL-terminated C array of the strings (`const char **`).
func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
    var copies: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { copies.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
    return copies.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
