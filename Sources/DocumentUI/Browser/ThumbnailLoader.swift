import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Thumbnails for the browser's cells: asked of the shared `ThumbnailGenerator` (and the
/// freedesktop cache behind it) when a cell is bound, the latest bound first, cancelled when
/// the cell is unbound; PNGs are decoded into textures on the generator's threads, never on
/// the main thread, already at the size they are shown at (`CellTextures`). Recent textures
/// are kept, so scrolling back shows them at once.
@MainActor
final class ThumbnailLoader {
    /// One generator for every browser of the process: one pool of threads, one queue.
    nonisolated static let generator = ThumbnailGenerator()

    /// A request in flight for one cell.
    final class Request {
        fileprivate let handle: ThumbnailGenerator.Handle
        fileprivate init(_ handle: ThumbnailGenerator.Handle) { self.handle = handle }
        func cancel() { handle.cancel() }
    }

    private var textures: [String: ObjectReference] = [:]
    private var textureOrder: [String] = []
    /// Textures kept: about two screens of cells of a wide window at the smallest zoom
    /// (a 96-pixel texture is 36 KB).
    private let capacity = 400
    private var nextPriority = 0

    init() {}

    /// A texture already made for `item` at `pixels`, if kept.
    func cached(_ item: BrowserItem, pixels: Int) -> OpaquePointer? {
        textures[Self.key(item, pixels: pixels)].map { OpaquePointer($0.pointer) }
    }

    /// Asks for `item`'s thumbnail at `pixels` (logical) × `scale`; `deliver` gets a texture on
    /// the main actor, a quick low-quality one first when there is one. Folders get none.
    /// Requests are served newest first, `urgent` ones (cells on screen) before all others.
    func load(_ item: BrowserItem, pixels: Int, scale: Int, urgent: Bool = true,
              deliver: @escaping @MainActor @Sendable (OpaquePointer) -> Void) -> Request? {
        guard !item.isDirectory, item.trashed == nil else { return nil }
        nextPriority += 1
        let edge = pixels * scale
        let key = Self.key(item, pixels: pixels)
        let request = ThumbnailGenerator.Request(url: item.url, size: pixels, scale: scale,
                                                 representations: [.lowQuality, .thumbnail],
                                                 priority: nextPriority + (urgent ? 1 << 40 : 0))
        let handle = Self.generator.generate(request) { [weak self] result in
            // On a generator thread: decode here.
            let texture: ObjectReference?
            var isFinal = false
            switch result {
            case .success(.lowQuality(let data)): texture = CellTextures.texture(from: data, fitting: edge)
            case .success(.thumbnail(let thumbnail)):
                texture = CellTextures.texture(atPath: thumbnail.url.path, fitting: edge)
                isFinal = true
            default: texture = nil
            }
            guard let texture else { return }
            let final = isFinal
            ThumbnailDeliveries.shared.post {
                if final { self?.keep(texture, for: key) }
                deliver(OpaquePointer(texture.pointer))
            }
        }
        return Request(handle)
    }

    private func keep(_ texture: ObjectReference, for key: String) {
        if textures.updateValue(texture, forKey: key) == nil { textureOrder.append(key) }
        if textureOrder.count > capacity {
            textures[textureOrder.removeFirst()] = nil
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
    /// The grid's icons as textures, by type, size and scale (see `CellTextures`).
    private static var textures: [String: ObjectReference?] = [:]
    private static var watchesTheme = false

    /// The type's icon from the icon theme as a texture of `pixels` × `scale`, or nil when the
    /// theme's icon is not a file (the GIcon of `icon(for:)` then draws it).
    static func texture(for item: BrowserItem, pixels: Int, scale: Int) -> OpaquePointer? {
        let type = item.isDirectory ? DocumentType.folder : item.type
        let key = "\(type.identifier) \(pixels) \(scale)"
        if let known = textures[key] { return known.map { OpaquePointer($0.pointer) } }
        var made: ObjectReference?
        if let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) {
            if !watchesTheme {
                watchesTheme = true
                connectSignal(raw(theme), "changed") { MainActor.assumeIsolated { textures = [:] } }
            }
            if let paintable = gtk_icon_theme_lookup_by_gicon(theme, icon(for: item), Int32(pixels), Int32(scale),
                                                              GTK_TEXT_DIR_NONE, GtkIconLookupFlags(0)) {
                if let file = gtk_icon_paintable_get_file(paintable) {
                    if let path = g_file_get_path(file) {
                        made = CellTextures.texture(atPath: String(cString: path), fitting: pixels * scale)
                        g_free(path)
                    }
                    g_object_unref(raw(file))
                }
                g_object_unref(raw(paintable))
            }
        }
        textures[key] = made
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
