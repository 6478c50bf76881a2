import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Thumbnails for the browser's cells: asked of the shared `ThumbnailGenerator` (and the
/// freedesktop cache behind it) when a cell is bound, the latest bound first, cancelled when
/// the cell is unbound; the cache's PNGs and photos' EXIF thumbnails are decoded in the
/// thumbnailers' workers (`ThumbnailPictures`), asked from the generator's threads, never from
/// the main thread, already at the size they are shown at (`CellPictures`). Recent pictures
/// are kept, so scrolling back shows them at once.
@MainActor
final class ThumbnailLoader {
    /// One generator for every browser of the process: one pool of threads, one queue.
    nonisolated static let sharedGenerator = ThumbnailGenerator()

    /// The generator this loader asks (the shared one, but for tests).
    let generator: ThumbnailGenerator

    /// A request in flight for one cell.
    final class Request {
        fileprivate let handle: ThumbnailGenerator.Handle
        fileprivate init(_ handle: ThumbnailGenerator.Handle) { self.handle = handle }
        func cancel() { handle.cancel() }
    }

    private var pictures: [String: ObjectReference] = [:]
    private var pictureOrder: [String] = []
    /// Pictures kept: about two screens of cells of a wide window at the smallest zoom
    /// (a 96-pixel picture is 36 KB).
    private let capacity = 400
    private var nextPriority = 0

    init(generator: ThumbnailGenerator = ThumbnailLoader.sharedGenerator) {
        self.generator = generator
    }

    /// A picture already made for `item` at `pixels`, if kept.
    func cached(_ item: BrowserItem, pixels: Int) -> OpaquePointer? {
        pictures[Self.key(item, pixels: pixels)].map { OpaquePointer($0.pointer) }
    }

    /// Asks for `item`'s thumbnail at `pixels` (logical) × `scale`; `deliver` gets a picture on
    /// the main actor, a quick low-quality one first when there is one. Folders get none.
    /// Requests are served newest first, `urgent` ones (cells on screen) before all others; the
    /// quick pictures of a screenful before its full thumbnails (the urgent lead, 2⁴⁰, is larger
    /// than the generator's `quickPictureLead`, so a cell on screen still gets its full thumbnail
    /// before one off screen gets its quick picture).
    func load(_ item: BrowserItem, pixels: Int, scale: Int, urgent: Bool = true,
              deliver: @escaping @MainActor @Sendable (OpaquePointer) -> Void) -> Request? {
        guard !item.isDirectory, item.trashed == nil else { return nil }
        if nextPriority == 0 { StageTrace.mark("cell asked") }
        nextPriority += 1
        let edge = pixels * scale
        let key = Self.key(item, pixels: pixels)
        let request = ThumbnailGenerator.Request(url: item.url, size: pixels, scale: scale,
                                                 representations: [.lowQuality, .thumbnail],
                                                 priority: nextPriority + (urgent ? 1 << 40 : 0))
        let handle = generator.generate(request) { [weak self] result in
            // On a generator thread: the worker's round trip waits here.
            let picture: ObjectReference?
            var isFinal = false
            switch result {
            case .success(.lowQuality(let quick)): picture = CellPictures.picture(of: quick)
            case .success(.thumbnail(let thumbnail)):
                picture = ThumbnailPictures.cachedThumbnail(atPath: thumbnail.url.path, fitting: edge).flatMap(CellPictures.picture(of:))
                isFinal = true
            default: picture = nil
            }
            guard let picture else { return }
            let final = isFinal
            ThumbnailDeliveries.shared.post {
                StageTrace.mark(final ? "cell thumbnail shown" : "cell quick picture shown")
                if final { self?.keep(picture, for: key) }
                deliver(OpaquePointer(picture.pointer))
            }
        }
        return Request(handle)
    }

    private func keep(_ picture: ObjectReference, for key: String) {
        if pictures.updateValue(picture, forKey: key) == nil { pictureOrder.append(key) }
        if pictureOrder.count > capacity {
            pictures[pictureOrder.removeFirst()] = nil
        }
    }

    private static func key(_ item: BrowserItem, pixels: Int) -> String {
        "\(item.key)|\(item.modified?.timeIntervalSince1970 ?? 0)|\(item.size)|\(pixels)"
    }
}

/// Themed icons for types, made once per type.
@MainActor
enum TypeIcons {
    private static var icons: [String: ObjectReference] = [:]
    /// The grid's icons as pictures, by type, size and scale (see `CellPictures`).
    private static var pictures: [String: ObjectReference?] = [:]
    private static var watchesTheme = false

    /// The type's icon from the icon theme as a picture of `pixels` × `scale`, or nil when the
    /// theme's icon is not a file (the GIcon of `icon(for:)` then draws it).
    static func picture(for item: BrowserItem, pixels: Int, scale: Int) -> OpaquePointer? {
        let type = item.isDirectory ? DocumentType.folder : item.type
        let key = "\(type.identifier) \(pixels) \(scale)"
        if let known = pictures[key] { return known.map { OpaquePointer($0.pointer) } }
        var made: ObjectReference?
        if let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) {
            if !watchesTheme {
                watchesTheme = true
                connectSignal(raw(theme), "changed") { pictures = [:] }
            }
            if let paintable = gtk_icon_theme_lookup_by_gicon(theme, icon(for: item), Int32(pixels), Int32(scale),
                                                              GTK_TEXT_DIR_NONE, GtkIconLookupFlags(0)) {
                if let file = gtk_icon_paintable_get_file(paintable) {
                    if let path = g_file_get_path(file) {
                        made = CellPictures.picture(atPath: String(cString: path), fitting: pixels * scale)
                        g_free(path)
                    }
                    g_object_unref(raw(file))
                }
                g_object_unref(raw(paintable))
            }
        }
        pictures[key] = made
        return made.map { OpaquePointer($0.pointer) }
    }

    /// The type's icon (a GIcon trying each of its names), or the folder icon.
    static func icon(for item: BrowserItem, symbolic: Bool = false) -> OpaquePointer {
        let type = item.isDirectory ? DocumentType.folder : item.type
        let key = type.identifier + (symbolic ? "-symbolic" : "")
        if let known = icons[key] { return OpaquePointer(known.pointer) }
        let names = symbolic ? type.symbolicIconNames : type.iconNames
        let icon: OpaquePointer = withArrayOfCStrings(names) { pointers in
            g_themed_icon_new_from_names(pointers, Int32(names.count))
        }
        icons[key] = ObjectReference(taking: UnsafeMutableRawPointer(icon))
        return icon
    }
}

/// Calls `body` with a C array of C strings for `strings`.
func withArrayOfCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
