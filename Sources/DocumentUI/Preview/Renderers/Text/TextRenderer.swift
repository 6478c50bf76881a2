import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Text and source code in a GtkSourceView: highlighting for the file's language, line
/// numbers, selectable text. Only the first `limit` bytes are read, so a 200 MB log opens as
/// fast as a small one; a note says when the file is longer. The text is read in its encoding
/// (`TextEncoding.decode`), named under it in a menu that re-opens it in another.
@MainActor
package final class TextRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.text]
    nonisolated static let limit = 256 << 10

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    /// Held by the renderer too (see `deinit`).
    private let source: WidgetPointer
    private let note: WidgetPointer
    private let encodingMenu = EncodingMenu()
    /// The bytes read, kept to decode them again in another encoding.
    private var bytes = Data()
    /// Counts the texts put in the buffer: the rest of an older one must not follow a newer.
    private var generation = 0

    /// Makes a renderer that shows plain text and source code.
    package init() {
        let buffer = gtk_source_buffer_new(nil)
        source = gtk_source_view_new_with_buffer(buffer)
        g_object_ref_sink(raw(source))
        g_object_unref(raw(buffer!))
        gtk_text_view_set_editable(cast(source), 0)
        gtk_text_view_set_monospace(cast(source), 1)
        gtk_text_view_set_left_margin(cast(source), 8)
        gtk_text_view_set_top_margin(cast(source), 8)
        gtk_source_view_set_show_line_numbers(cast(source), 1)
        gtk_source_view_set_highlight_current_line(cast(source), 0)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scrolled), source)
        gtk_widget_set_vexpand(scrolled, 1)
        note = makeLabel("", classes: ["dim-label", "caption"])
        gtk_widget_set_visible(note, 0)
        gtk_widget_set_margin_top(note, 6)
        gtk_widget_set_margin_bottom(note, 6)
        // A status line under the text, as in a text editor: the encoding, quiet at the end.
        gtk_widget_set_halign(encodingMenu.button, GTK_ALIGN_END)
        gtk_widget_set_margin_end(encodingMenu.button, 6)
        gtk_widget_set_margin_top(encodingMenu.button, 2)
        gtk_widget_set_margin_bottom(encodingMenu.button, 2)
        rootView = makeBox(GTK_ORIENTATION_VERTICAL, [note, scrolled, encodingMenu.button])
        encodingMenu.install(on: rootView)
        encodingMenu.onChoose = { [weak self] encoding in self?.reopen(as: encoding) }
    }

    /// A source view that drew its line numbers stays alive by itself (`dossier_source_view_release`).
    isolated deinit {
        dossier_source_view_release(source)
    }

    /// The first part of the text, read and its language guessed.
    struct Prepared: Sendable {
        let read: Result<Read, PreviewError>
    }

    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        Prepared(read: read(preparation.url, type: preparation.type))
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    package func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        let url = item.url
        let read: Result<Read, PreviewError>
        if let prepared = await prepared?.value as? Prepared {
            read = prepared.read
        } else {
            read = await Task.detached { Self.read(url, type: type) }.value
        }
        let contents = try read.get()
        let (text, size, language) = contents.parts
        bytes = contents.bytes
        encodingMenu.show(contents.encoding)
        if contents.isBinary {
            // Bytes, not text: no encoding to choose, and the note says why the view is a dump.
            gtk_widget_set_visible(encodingMenu.button, 0)
            gtk_source_view_set_show_line_numbers(cast(source), 0)
            if size > Int64(Self.dumpLimit) {
                let shown = takeString(g_format_size(guint64(Self.dumpLimit))) ?? ""
                gtk_label_set_text(OpaquePointer(note), tr("This file holds binary data, not text: its first %s are shown as bytes.", shown))
            } else {
                gtk_label_set_text(OpaquePointer(note), tr("This file holds binary data, not text: it is shown as bytes."))
            }
            gtk_widget_set_visible(note, 1)
            show(text)
            setAccessibleName(source, tr("Bytes of %s", item.displayTitle))
            return
        }
        let buffer = gtk_text_view_get_buffer(cast(source))
        if let language {
            gtk_source_buffer_set_language(cast(buffer), OpaquePointer(language.pointer))
        }
        let schemes = gtk_source_style_scheme_manager_get_default()
        if let scheme = gtk_source_style_scheme_manager_get_scheme(schemes, "Adwaita") {
            gtk_source_buffer_set_style_scheme(cast(buffer), scheme)
        }
        show(text)
        if size > Int64(Self.limit) {
            let shown = takeString(g_format_size(guint64(Self.limit))) ?? ""
            let total = takeString(g_format_size(guint64(size))) ?? ""
            gtk_label_set_text(OpaquePointer(note), tr("Showing the first %s of %s", shown, total))
            gtk_widget_set_visible(note, 1)
        }
        setAccessibleName(source, tr("Text of %s", item.displayTitle))
    }

    /// Puts `text` in the view. A screenful first, so the first frame waits for no more than it
    /// shows; the rest of the text (up to `limit`) follows once that frame is drawn.
    private func show(_ text: String) {
        generation += 1
        let shown = generation
        let (first, rest) = Self.split(text, at: Self.firstScreen)
        gtk_text_buffer_set_text(gtk_text_view_get_buffer(cast(source)), first, -1)
        guard !rest.isEmpty else { return }
        MainLoopIdle.run { [weak self] in
            guard let self, self.generation == shown else { return }
            let buffer = gtk_text_view_get_buffer(cast(self.source))
            var end = GtkTextIter()
            gtk_text_buffer_get_end_iter(buffer, &end)
            gtk_text_buffer_insert(buffer, &end, rest, -1)
        }
    }

    /// Decodes the bytes read again in `encoding`, off the main thread, and shows that text.
    func reopen(as encoding: TextEncoding) {
        let bytes = bytes
        generation += 1
        let asked = generation
        Task { @MainActor [weak self] in
            let text = await Task.detached { encoding.decode(bytes) }.value
            guard let self, self.generation == asked else { return }  // another choice came since
            self.show(text)
        }
    }

    /// The text shown (for tests: what a screen reader reads of the view).
    var text: String {
        let buffer = gtk_text_view_get_buffer(cast(source))
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        return takeString(gtk_text_buffer_get_text(buffer, &start, &end, 0)) ?? ""
    }

    /// The button that names the text's encoding and opens its menu (for tests).
    var encodingMenuButton: WidgetPointer { encodingMenu.button }

    /// About a screen of text, in bytes: what the first frame shows of a long file.
    nonisolated static let firstScreen = 16 << 10

    /// `text` cut after a line break: the first part has at most `bytes` bytes, or as many
    /// lines as it takes for its line numbers to be as wide as the whole text's (the rest
    /// then leaves the line-number column as it is: 1,000 lines of a 3,000-line log, not its
    /// first 200 lines, whose numbers are a digit narrower and would move every line across
    /// when the rest came). Not cut when it is shorter, or has no line break there.
    nonisolated static func split(_ text: String, at bytes: Int) -> (String, String) {
        guard text.utf8.count > bytes else { return (text, "") }
        var text = text
        let cut = text.withUTF8 { utf8 -> Int in
            let newline = UInt8(ascii: "\n")
            // Lines as GtkTextBuffer counts them (one more than the line breaks), and the
            // fewest with as many digits (GtkSourceView's line numbers have at least two).
            let total = utf8.reduce(1) { $1 == newline ? $0 + 1 : $0 }
            let needed = total < 100 ? 0 : Int(pow(10, Double(String(total).count - 1)))
            var cut = 0, lines = 1
            for (offset, byte) in utf8.enumerated() where byte == newline {
                guard offset < bytes || lines < needed else { break }
                cut = offset + 1
                lines += 1
            }
            return cut
        }
        guard cut > 0, cut < text.utf8.count else { return (text, "") }
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: cut)
        return (String(text[..<index]), String(text[index...]))
    }

    /// The start of a text file (`limit` bytes) as read and as decoded, its size and its language.
    struct Read: Sendable {
        let text: String
        let encoding: TextEncoding
        let bytes: Data
        let size: Int64
        let language: ObjectReference?
        /// True when the file holds binary data (`text` is then a dump of its first bytes).
        var isBinary = false
        var parts: (String, Int64, ObjectReference?) { (text, size, language) }
    }

    /// The bytes a binary file shows at most, as a dump.
    nonisolated static let dumpLimit = 16 << 10

    /// True when `data`, read as `encoding`, is binary rather than text: a NUL byte in its first
    /// 8,000 bytes, as Git decides (UTF-16 and UTF-32 text has NULs, and is text).
    nonisolated static func isBinary(_ data: Data, encoding: TextEncoding) -> Bool {
        guard ![.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian].contains(encoding) else { return false }
        return data.prefix(8000).contains(0)
    }

    /// `data` as lines of an offset, 16 bytes in hexadecimal and the same as ASCII (`.` for what
    /// is not printable), as `hexdump -C` writes them.
    nonisolated static func dump(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count / 16 * 78 + 78)
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            let line = bytes[offset..<min(offset + 16, bytes.count)]
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[(offset >> shift) & 0xF]) }
            out.append(contentsOf: [32, 32])
            for index in 0..<16 {
                if index == 8 { out.append(32) }
                if index < line.count {
                    let byte = line[line.startIndex + index]
                    out.append(contentsOf: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)], 32])
                } else {
                    out.append(contentsOf: [32, 32, 32])
                }
            }
            out.append(contentsOf: [32, UInt8(ascii: "|")])
            for byte in line { out.append((0x20..<0x7F).contains(byte) ? byte : UInt8(ascii: ".")) }
            out.append(contentsOf: [UInt8(ascii: "|"), UInt8(ascii: "\n")])
            offset += 16
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads the start of the file at `url` (`limit` bytes at most) and guesses its language,
    /// off the main thread.
    nonisolated static func read(_ url: URL, type: DocumentType, limit: Int = limit) -> Result<Read, PreviewError> {
        guard let handle = FileHandle(forReadingAt: url.rawPath) else {
            return .failure(PreviewError(tr("The file could not be read: %s", String(cString: strerror(errno)))))
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map(Int64.init) ?? 0
        try? handle.seek(toOffset: 0)
        let data = (try? handle.read(upToCount: limit)) ?? Data()
        let decoded = TextEncoding.decode(data, isStartOfFile: size > Int64(limit))
        if isBinary(data, encoding: decoded.encoding) {
            return .success(Read(text: dump(data.prefix(dumpLimit)), encoding: decoded.encoding, bytes: data, size: size,
                                 language: nil, isBinary: true))
        }
        return .success(Read(text: decoded.text, encoding: decoded.encoding, bytes: data, size: size,
                             language: guessLanguage(url.rawPath.nameForMatching, type.identifier)))
    }

    /// The language manager the languages are guessed with. Guessing reads the header of
    /// every language definition (~150 files, the longest step of showing a text file when
    /// it is the first), so it happens off the main thread with a manager of its own, one
    /// guess at a time; its languages are then used on the main thread (a language is only
    /// read there once a buffer highlights with it).
    nonisolated private static let languageManager = Locked<ObjectReference?>(nil)

    nonisolated static func guessLanguage(_ name: String, _ contentType: String) -> ObjectReference? {
        languageManager.withLock { manager in
            let current = manager ?? ObjectReference(adopting: UnsafeMutableRawPointer(gtk_source_language_manager_new()!))
            manager = current
            return gtk_source_language_manager_guess_language(OpaquePointer(current.pointer), name, contentType)
                .map { ObjectReference(retaining: raw($0)) }
        }
    }

    package func copy() -> Bool {
        let buffer = gtk_text_view_get_buffer(cast(source))
        guard gtk_text_buffer_get_has_selection(buffer) != 0 else { return false }
        gtk_text_buffer_copy_clipboard(buffer, gtk_widget_get_clipboard(rootView))
        return true
    }
}
