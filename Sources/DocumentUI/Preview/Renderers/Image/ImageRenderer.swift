import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Images: a large one shown to fit, a small one at its own size, centred (an icon is not
/// blown up to fill the window); at 1:1, or zoomed and scrolled, with pixels kept sharp above
/// 100 % (nearest-neighbour: pixel art stays pixel art). EXIF orientation applied; animated GIF
/// and WebP played; SVG rendered sharp for the size shown. Decoded in a decoder worker
/// (`ImageDecoding`), which reads the size from the header first: a raster image over the
/// pixel limit is refused, and a large one is decoded at a reduced size (never more than
/// `displayEdge` on its long side). The pixels are shown where the worker left them.
@MainActor
package final class ImageRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.image]
    /// The pictures a decoder here reads; the others (XCF, DXF, 3D models filed under `image/`)
    /// go to the information page.
    package nonisolated static func canShow(_ type: DocumentType) -> Bool { ImageFormats.decodes(type) }
    /// The long side an image is decoded at, at most, once the user zooms in; at first it is
    /// decoded to fit the window (JPEG's DCT scaling makes that several times faster).
    nonisolated static let displayEdge: Int32 = ImageDecoding.largestEdge

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    let picture: WidgetPointer
    private(set) var texture: OpaquePointer?
    /// What the picture draws: `texture`, sharp when enlarged.
    private var paintable: ObjectReference?
    private var scale: Double?  // nil: fit the window
    private var animation: Task<Void, Never>?
    private var path: FileSystemPath?
    private var type: DocumentType?
    /// The image's own size and the long side of what was decoded.
    private var fullSize: (width: Int32, height: Int32) = (0, 0)
    private var decodedEdge: Int32 = 0
    private var isVector = false
    private var upgrading = false

    /// Makes a renderer that shows a picture or an animation.
    package init() {
        picture = gtk_picture_new()
        gtk_picture_set_can_shrink(cast(picture), 1)
        gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_SCALE_DOWN)
        gtk_widget_set_hexpand(picture, 1)
        gtk_widget_set_vexpand(picture, 1)
        rootView = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(rootView), picture)
    }

    isolated deinit {
        animation?.cancel()
        if let texture { g_object_unref(raw(texture)) }
    }

    /// An image decoded for the window's first size, in the decoder worker.
    struct Prepared: Sendable {
        let edge: Int32
        let decoded: Result<DecodedImage, ImageDecodingError>
    }

    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        let edge = fittingEdge(width: preparation.windowWidth, height: preparation.windowHeight, scale: preparation.scale)
        let decoded = await ImageDecoding.decode(preparation.url.rawPath, type: preparation.type, size: .fitting(edge))
        return Prepared(edge: edge, decoded: decoded)
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    package func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        let path = item.url.rawPath
        self.path = path
        self.type = type
        let edge = fittingEdge
        let decoded: Result<DecodedImage, ImageDecodingError>
        if let prepared = await prepared?.value as? Prepared, prepared.edge == edge {
            decoded = prepared.decoded
        } else {
            decoded = await ImageDecoding.decode(path, type: type, size: .fitting(edge))
        }
        switch decoded {
        case .failure(let error): throw PreviewError(error.description)
        case .success(.animation(let frames)):
            setAccessibleName(picture, tr("Image %s", item.displayTitle))
            play(frames)
        case .success(.still(let image)):
            setAccessibleName(picture, tr("Image %s", item.displayTitle))
            fullSize = (image.fullWidth, image.fullHeight)
            decodedEdge = image.edge
            isVector = image.isVector
            show(makeTexture(of: image.pixels))
        }
    }

    /// The long side to decode at so the image fills the window at its scale (at least 512).
    private var fittingEdge: Int32 {
        guard let root = gtk_widget_get_root(rootView).map({ widget($0) }) else { return 1000 }
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

    private func show(_ newTexture: OpaquePointer?) {
        guard let newTexture else { return }
        if let texture { g_object_unref(raw(texture)) }
        texture = newTexture
        let sharp = sharpPaintable(of: newTexture)
        paintable = sharp
        gtk_picture_set_paintable(cast(picture), OpaquePointer(sharp.pointer))
        applyScale()
    }

    /// Plays the frames, each for its delay (20 ms at least), as many times as the animation
    /// says; then its last frame stays.
    private func play(_ frames: ImageAnimation) {
        animation = Task { @MainActor [weak self] in
            var index = 0, loop = 1
            while !Task.isCancelled, let self {
                self.show(makeTexture(of: frames.frames[index]))
                if index + 1 == frames.frames.count {
                    guard frames.loops == 0 || loop < frames.loops, frames.frames.count > 1 else { return }
                    loop += 1
                }
                try? await Task.sleep(for: .milliseconds(max(frames.delays[index], 20)))
                index = (index + 1) % frames.frames.count
            }
        }
    }

    package func zoom(_ change: ZoomChange) {
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
        guard let scale, scale > 1.01 || actualSize, !upgrading, let path, let type, let texture, decodedEdge < largest else { return }
        upgrading = true
        let oldWidth = Double(gdk_texture_get_width(texture))
        let size: ImageDecoding.Size = isVector ? .enlarged(Self.displayEdge) : .fitting(Self.displayEdge)
        Task { @MainActor [weak self] in
            let decoded = await ImageDecoding.decode(path, type: type, size: size)
            guard let self, case .success(.still(let image)) = decoded else { return }
            let newWidth = Double(image.pixels.width)
            self.decodedEdge = image.edge
            self.show(makeTexture(of: image.pixels))
            // 1:1 means the image's own size; other zooms keep their apparent size.
            self.scale = actualSize ? self.actualScale : (self.scale ?? 1) * oldWidth / max(newWidth, 1)
            self.applyScale()
        }
    }

    /// The scale the picture has when it fits the view (relative to the texture's pixels).
    private var fittedScale: Double {
        guard let texture else { return 1 }
        let textureWidth = Double(gdk_texture_get_width(texture)), textureHeight = Double(gdk_texture_get_height(texture))
        // What fitting shows: an SVG's own size (see applyScale), the texture's for the rest.
        let ownSize = isVector && fullSize.width > 0 && fullSize.height > 0
        let width = ownSize ? Double(fullSize.width) : textureWidth, height = ownSize ? Double(fullSize.height) : textureHeight
        let viewWidth = Double(max(gtk_widget_get_width(rootView), 1)), viewHeight = Double(max(gtk_widget_get_height(rootView), 1))
        return min(viewWidth / width, viewHeight / height, 1) * width / max(textureWidth, 1)
    }

    /// The scale at which the texture shows the image at its own size: its pixels for a
    /// raster image, its intrinsic size for a vector one (drawn at another size).
    private var actualScale: Double {
        guard isVector, let texture, fullSize.width > 0 else { return 1 }
        return Double(fullSize.width) / Double(max(gdk_texture_get_width(texture), 1))
    }

    private func applyScale() {
        guard let texture, let paintable else { return }
        if let scale {
            // Exactly the zoomed size, centred in the view and scrolled when larger. The picture
            // may not shrink below its paintable's size: that is the zoomed size too, not the
            // texture's (an SVG drawn again at 4096 pixels and shown at 400).
            // Bounded: a tall, narrow texture zoomed to its own size must not overflow Int32.
            let width = Int32(min(Double(gdk_texture_get_width(texture)) * scale, 16_777_216))
            let height = Int32(min(Double(gdk_texture_get_height(texture)) * scale, 16_777_216))
            setIntrinsicSize(of: paintable, width: max(width, 1), height: max(height, 1))
            gtk_picture_set_can_shrink(cast(picture), 0)
            gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_FILL)
            gtk_widget_set_halign(picture, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(picture, GTK_ALIGN_CENTER)
            gtk_widget_set_size_request(picture, width, height)
        } else {
            // Fitted: a larger image shrinks to the view, a smaller one keeps its size, centred
            // (an SVG its own size, whatever size it was drawn at).
            let ownSize = isVector && fullSize.width > 0 && fullSize.height > 0
            setIntrinsicSize(of: paintable, width: ownSize ? fullSize.width : 0, height: ownSize ? fullSize.height : 0)
            gtk_picture_set_can_shrink(cast(picture), 1)
            gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_SCALE_DOWN)
            gtk_widget_set_halign(picture, GTK_ALIGN_FILL)
            gtk_widget_set_valign(picture, GTK_ALIGN_FILL)
            gtk_widget_set_size_request(picture, -1, -1)
        }
    }

    package func copy() -> Bool {
        guard let texture else { return false }
        gdk_clipboard_set_texture(gtk_widget_get_clipboard(rootView), texture)
        return true
    }
}
