import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Images: a large one shown to fit, a small one at its own size, centred (an icon is not
/// blown up to fill the window); at 1:1, or zoomed and scrolled, with pixels kept sharp above
/// 100 % (nearest-neighbour: pixel art stays pixel art). EXIF orientation applied; animated GIF
/// and WebP played; SVG rendered sharp for the size shown. The size is read from the header
/// before decoding: a raster image over the pixel limit is refused, and a large one is decoded
/// at a reduced size (never more than `displayEdge` on its long side).
@MainActor
public final class ImageRenderer: PreviewRenderer {
    public static let supportedTypes: [DocumentType] = [.image]
    /// Largest raster image decoded at all (a decompression bomb is refused).
    nonisolated package static let pixelLimit = 400_000_000
    /// The long side an image is decoded at, at most, once the user zooms in; at first it is
    /// decoded to fit the window (JPEG's DCT scaling makes that several times faster).
    nonisolated static let displayEdge: Int32 = 4096
    /// gdk-pixbuf's formats that may hold several frames.
    nonisolated static let animatedFormats: Set<String> = ["gif", "webp", "ani"]

    public let view: Widget
    let picture: Widget
    private var texture: OpaquePointer?
    /// What the picture draws: `texture`, sharp when enlarged.
    private var paintable: ObjectReference?
    private var scale: Double?  // nil: fit the window
    private var animation: Task<Void, Never>?
    private var path: String?
    /// The image's own size and the long side of what was decoded.
    private var fullSize: (width: Int32, height: Int32) = (0, 0)
    private var decodedEdge: Int32 = 0
    private var isVector = false
    private var upgrading = false

    public init() {
        picture = gtk_picture_new()
        gtk_picture_set_can_shrink(cast(picture), 1)
        gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_SCALE_DOWN)
        gtk_widget_set_hexpand(picture, 1)
        gtk_widget_set_vexpand(picture, 1)
        view = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(view), picture)
    }

    isolated deinit {
        animation?.cancel()
        if let texture { g_object_unref(raw(texture)) }
    }

    public func load(_ item: PreviewItem, type: DocumentType) async throws {
        let path = item.url.path
        self.path = path
        let edge = fittingEdge
        let decoded: Result<Decoded, PreviewError>
        if case .image(edge, let prefetched) = await PreviewPrefetch.takeContent(for: item.url) {
            decoded = prefetched  // decoded while the service started
        } else {
            decoded = await Task.detached { Self.decode(path, edge: edge) }.value
        }
        switch decoded {
        case .failure(let error): throw error
        case .success(let image):
            setAccessibleName(picture, tr("Image %s", item.displayTitle))
            if let frames = image.animation {
                play(frames)
            } else if let pixbuf = image.pixbuf {
                fullSize = image.fullSize
                decodedEdge = image.edge
                isVector = image.isVector
                show(dossier_texture_new_for_pixbuf(pixbuf.pointer))
            }
        }
    }

    /// A decoded image or animation, handed from the decoding thread to the main one.
    final class Decoded: @unchecked Sendable {
        let pixbuf: PixbufReference?
        let animation: PixbufReference?
        let fullSize: (width: Int32, height: Int32)
        let edge: Int32
        let isVector: Bool
        init(pixbuf: PixbufReference?, animation: PixbufReference?, fullSize: (Int32, Int32) = (0, 0), edge: Int32 = 0,
             isVector: Bool = false) {
            self.pixbuf = pixbuf
            self.animation = animation
            self.fullSize = fullSize
            self.edge = edge
            self.isVector = isVector
        }
    }

    /// The long side to decode at so the image fills the window at its scale (at least 512).
    private var fittingEdge: Int32 {
        guard let root = gtk_widget_get_root(view).map({ widget($0) }) else { return 1000 }
        var width = gtk_widget_get_width(root), height = gtk_widget_get_height(root)
        if width <= 0 || height <= 0 {
            // Not laid out yet (the first showing): the size it is about to get.
            gtk_window_get_default_size(cast(root), &width, &height)
        }
        return Self.fittingEdge(width: width, height: height, scale: gtk_widget_get_scale_factor(root))
    }

    /// The long side that fills a window of `width` × `height` at `scale` (at least 512).
    nonisolated static func fittingEdge(width: Int32, height: Int32, scale: Int32) -> Int32 {
        let longest = max(width, height) * max(scale, 1)
        return longest > 0 ? min(max(longest, 512), displayEdge) : 1000
    }

    nonisolated static func decode(_ path: String, edge wanted: Int32) -> Result<Decoded, PreviewError> {
        guard let header = ImageHeader(path: path) else {
            return .failure(PreviewError(tr("The image format is not recognised, or the file is damaged.")))
        }
        let formatName = header.format
        let isVector = header.isVector
        guard header.fits(pixelLimit: pixelLimit) else {
            return .failure(PreviewError(tr("The image is too large to show (%s × %s pixels).", String(header.width), String(header.height))))
        }
        let width = Int32(clamping: header.width), height = Int32(clamping: header.height)
        var error: UnsafeMutablePointer<GError>?
        // Animations (GIF, WebP) keep every frame. Only formats that can move are opened as
        // one: for the others gdk-pixbuf would decode the whole image at full size first (a
        // 12 MP JPEG: ~150 ms before the reduced decode below even starts).
        if animatedFormats.contains(formatName), let animation = gdk_pixbuf_animation_new_from_file(path, &error) {
            if gdk_pixbuf_animation_is_static_image(animation) == 0 {
                return .success(Decoded(pixbuf: nil, animation: PixbufReference(animation)))
            }
            g_object_unref(raw(animation))
        } else if let error {
            g_error_free(error)
        }
        error = nil
        // A vector image smaller than the window is drawn at its own size, as a raster one is
        // shown (zooming in draws it again, larger).
        let ownEdge = max(width, height)
        let edge = isVector && ownEdge > 0 ? min(wanted, ownEdge, displayEdge) : min(wanted, displayEdge)
        let large = ownEdge > edge
        // A vector image is drawn at the size wanted; a large raster one decoded down to it.
        let decoded = isVector || large
            ? gdk_pixbuf_new_from_file_at_scale(path, edge, edge, 1, &error)
            : gdk_pixbuf_new_from_file(path, &error)
        guard let decoded else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            if let error { g_error_free(error) }
            return .failure(PreviewError(tr("The image could not be decoded: %s", reason)))
        }
        let upright = gdk_pixbuf_apply_embedded_orientation(decoded)
        g_object_unref(raw(decoded))
        return .success(Decoded(pixbuf: upright.map(PixbufReference.init), animation: nil, fullSize: (width, height),
                                edge: isVector || large ? edge : max(width, height), isVector: isVector))
    }

    private func show(_ newTexture: OpaquePointer?) {
        guard let newTexture else { return }
        if let texture { g_object_unref(raw(texture)) }
        texture = newTexture
        let sharp = sharpPaintable(of: newTexture)
        paintable = sharp
        gtk_picture_set_paintable(cast(picture), OpaquePointer(sharp.pointer))
        applyScale()
    }

    private func play(_ frames: PixbufReference) {
        let iterator = PixbufReference(gdk_pixbuf_animation_get_iter(frames.pointer, nil))
        animation = Task { @MainActor [weak self] in
            while !Task.isCancelled, let self {
                // The iterator draws its next frame into the same pixbuf: the texture gets a copy.
                guard let copy = gdk_pixbuf_copy(gdk_pixbuf_animation_iter_get_pixbuf(iterator.pointer)) else { return }
                let frame = PixbufReference(copy)
                self.show(dossier_texture_new_for_pixbuf(frame.pointer))
                let delay = gdk_pixbuf_animation_iter_get_delay_time(iterator.pointer)
                guard delay >= 0 else { return }  // a single frame
                try? await Task.sleep(for: .milliseconds(max(Int(delay), 20)))
                gdk_pixbuf_animation_iter_advance(iterator.pointer, nil)
            }
        }
    }

    public func zoom(_ change: ZoomChange) {
        switch change {
        case .fit: scale = nil
        case .actualSize: scale = actualScale
        case .zoomIn: scale = min((scale ?? fittedScale) * 1.25, 16)
        case .zoomOut: scale = max((scale ?? fittedScale) / 1.25, 0.05)
        }
        applyScale()
        upgradeIfZoomedIn(actualSize: change == .actualSize)
    }

    /// Zoomed past the pixels decoded for the window: decode more of them (once), off the
    /// main thread, and keep the same apparent size.
    private func upgradeIfZoomedIn(actualSize: Bool) {
        // A vector image is drawn again as large as a raster one may be decoded.
        let largest = isVector ? Self.displayEdge : min(max(fullSize.width, fullSize.height), Self.displayEdge)
        guard let scale, scale > 1.01 || actualSize, !upgrading, let path, let texture, decodedEdge < largest else { return }
        upgrading = true
        let oldWidth = Double(gdk_texture_get_width(texture))
        Task { @MainActor [weak self] in
            let decoded = await Task.detached { Self.decode(path, edge: Self.displayEdge) }.value
            guard let self, case .success(let image) = decoded, let pixbuf = image.pixbuf else { return }
            let newWidth = Double(gdk_pixbuf_get_width(pixbuf.pointer))
            self.decodedEdge = image.edge
            self.show(dossier_texture_new_for_pixbuf(pixbuf.pointer))
            // 1:1 means the image's own size; other zooms keep their apparent size.
            self.scale = actualSize ? self.actualScale : (self.scale ?? 1) * oldWidth / max(newWidth, 1)
            self.applyScale()
        }
    }

    /// The scale the picture has when it fits the view.
    private var fittedScale: Double {
        guard let texture else { return 1 }
        let width = Double(gdk_texture_get_width(texture)), height = Double(gdk_texture_get_height(texture))
        let viewWidth = Double(max(gtk_widget_get_width(view), 1)), viewHeight = Double(max(gtk_widget_get_height(view), 1))
        return min(viewWidth / width, viewHeight / height, 1)
    }

    /// The scale at which the texture shows the image at its own size: its pixels for a
    /// raster image, its intrinsic size for a vector one (drawn at another size).
    private var actualScale: Double {
        guard isVector, let texture, fullSize.width > 0 else { return 1 }
        return Double(fullSize.width) / Double(max(gdk_texture_get_width(texture), 1))
    }

    private func applyScale() {
        guard let texture else { return }
        if let scale {
            // Exactly the zoomed size, centred in the view and scrolled when larger.
            gtk_picture_set_can_shrink(cast(picture), 0)
            gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_FILL)
            gtk_widget_set_halign(picture, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(picture, GTK_ALIGN_CENTER)
            gtk_widget_set_size_request(picture, Int32(Double(gdk_texture_get_width(texture)) * scale),
                                        Int32(Double(gdk_texture_get_height(texture)) * scale))
        } else {
            // Fitted: a larger image shrinks to the view, a smaller one keeps its size, centred.
            gtk_picture_set_can_shrink(cast(picture), 1)
            gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_SCALE_DOWN)
            gtk_widget_set_halign(picture, GTK_ALIGN_FILL)
            gtk_widget_set_valign(picture, GTK_ALIGN_FILL)
            gtk_widget_set_size_request(picture, -1, -1)
        }
    }

    public func copy() -> Bool {
        guard let texture else { return false }
        gdk_clipboard_set_texture(gtk_widget_get_clipboard(view), texture)
        return true
    }
}

/// A GObject reference that may cross to another thread (pixbufs are immutable once made).
final class PixbufReference: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { g_object_unref(raw(pointer)) }
}
