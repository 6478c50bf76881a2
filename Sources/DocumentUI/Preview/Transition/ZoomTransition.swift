import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// A rectangle in a window's coordinates (logical pixels).
struct ZoomRect: Equatable, Sendable {
    var x, y, width, height: Double

    func interpolated(to other: ZoomRect, _ t: Double) -> ZoomRect {
        ZoomRect(x: x + (other.x - x) * t, y: y + (other.y - y) * t,
                 width: width + (other.width - width) * t, height: height + (other.height - height) * t)
    }
}

/// The previewer's zoom: on opening, a picture of the source widget (the item's thumbnail in
/// the browser) grows from where that widget is on screen to the previewer's content while
/// the content fades in; on closing, the content shrinks back into the source's bounds.
///
/// The previewer is a window of its own, so the source's place is found on screen and
/// translated into the previewer's window (X11). Where the place cannot be known (Wayland
/// tells no client where its windows are), the picture grows from the middle instead. Runs
/// for `duration` on the frame clock; nothing moves when the user turned animations off.
@MainActor
final class ZoomTransition {
    /// How long a zoom takes: short enough that opening an item never feels held back.
    static let duration: Double = 0.22

    /// What one run drew, for tests: its direction and the picture's rectangle each frame.
    struct Record: Sendable {
        var opening: Bool
        var frames: [ZoomRect] = []
        var finished = false
    }

    private let layer: WidgetPointer
    private let content: WidgetPointer
    private let window: WidgetPointer
    private var picture: WidgetPointer?
    private var tickID: guint = 0
    private var completion: (() -> Void)?
    private(set) var record: Record?

    /// `layer` is a GtkFixed laid over the window's content; `content` the part that zooms
    /// (the items' stack) inside `window`.
    init(layer: WidgetPointer, content: WidgetPointer, window: WidgetPointer) {
        self.layer = layer
        self.content = content
        self.window = window
    }

    var isRunning: Bool { tickID != 0 }

    /// Grows the previewer's content out of `source`. Call right after presenting the window:
    /// the first frame measures both, once the window is on screen.
    func open(from source: WidgetPointer) {
        finish()
        guard dossier_animations_enabled(window) != 0, let image = snapshot(of: source) else { return }
        var sourceScreen: ZoomRect?
        var bounds = ZoomRect(x: 0, y: 0, width: 0, height: 0)
        if dossier_widget_screen_bounds(source, &bounds.x, &bounds.y, &bounds.width, &bounds.height) != 0 {
            sourceScreen = bounds
        }
        let size = (width: max(bounds.width, 1), height: max(bounds.height, 1))
        gtk_widget_set_opacity(content, 0)
        run(opening: true, image: image, from: { [weak self] target in
            guard let self else { return target }
            if let sourceScreen, let origin = self.windowOrigin() {
                return ZoomRect(x: sourceScreen.x - origin.x, y: sourceScreen.y - origin.y,
                                width: sourceScreen.width, height: sourceScreen.height)
            }
            // Unknown place: from a thumbnail-sized picture in the middle.
            return ZoomRect(x: target.x + (target.width - size.width) / 2, y: target.y + (target.height - size.height) / 2,
                            width: size.width, height: size.height)
        }, completion: nil)
    }

    /// Shrinks the content back into `source` (or fades it when the source is gone), then calls
    /// `completion` (which hides the window). Without animations, calls it at once.
    func close(into source: WidgetPointer?, completion: @escaping () -> Void) {
        finish()
        guard dossier_animations_enabled(window) != 0, gtk_widget_get_mapped(window) != 0,
              let image = snapshot(of: content) else {
            completion()
            return
        }
        var sourceScreen: ZoomRect?
        var bounds = ZoomRect(x: 0, y: 0, width: 0, height: 0)
        if let source, dossier_widget_screen_bounds(source, &bounds.x, &bounds.y, &bounds.width, &bounds.height) != 0 {
            sourceScreen = bounds
        }
        gtk_widget_set_opacity(content, 0)
        run(opening: false, image: image, from: { [weak self] contentRect in
            guard let self, let sourceScreen, let origin = self.windowOrigin() else {
                // Into the middle, small: the source is gone or its place unknown.
                return ZoomRect(x: contentRect.x + contentRect.width * 0.4, y: contentRect.y + contentRect.height * 0.4,
                                width: contentRect.width * 0.2, height: contentRect.height * 0.2)
            }
            return ZoomRect(x: sourceScreen.x - origin.x, y: sourceScreen.y - origin.y,
                            width: sourceScreen.width, height: sourceScreen.height)
        }, completion: completion)
    }

    /// Ends a running zoom at its last frame.
    func finish() {
        guard tickID != 0 else { return }
        gtk_widget_remove_tick_callback(window, tickID)
        tickID = 0
        end()
    }

    // MARK: Frames

    private var opening = true
    private var startTime = 0
    private var fromRect = ZoomRect(x: 0, y: 0, width: 0, height: 0)
    private var toRect = ZoomRect(x: 0, y: 0, width: 0, height: 0)
    private var resolveSource: ((ZoomRect) -> ZoomRect)?
    private var imageSize = (width: 1.0, height: 1.0)

    private func run(opening: Bool, image: OpaquePointer, from resolve: @escaping (ZoomRect) -> ZoomRect,
                     completion: (() -> Void)?) {
        self.opening = opening
        self.completion = completion
        resolveSource = resolve
        startTime = 0
        record = Record(opening: opening)
        let picture = gtk_picture_new_for_paintable(image)!
        g_object_unref(raw(image))
        gtk_picture_set_can_shrink(cast(picture), 1)
        gtk_widget_set_can_target(picture, 0)
        imageSize = (Double(max(gdk_paintable_get_intrinsic_width(image), 1)),
                     Double(max(gdk_paintable_get_intrinsic_height(image), 1)))
        gtk_widget_set_size_request(picture, Int32(imageSize.width), Int32(imageSize.height))
        gtk_fixed_put(cast(layer), picture, 0, 0)
        gtk_widget_set_opacity(picture, 0)
        self.picture = picture
        // Held weakly: the window outlives a zoom.
        tickID = addTickCallback(to: window) { [weak self] time in
            self?.frame(at: time) ?? false
        }
    }

    /// One frame: true while the zoom goes on.
    private func frame(at time: Int) -> Bool {
        guard let picture else { return false }
        if startTime == 0 {
            // The first frame on screen: both ends can be measured now.
            var target = ZoomRect(x: 0, y: 0, width: 0, height: 0)
            guard dossier_widget_bounds(content, window, &target.x, &target.y, &target.width, &target.height) != 0,
                  target.width > 1 else { return true }
            let source = resolveSource?(target) ?? target
            (fromRect, toRect) = opening ? (source, target) : (target, source)
            startTime = time
        }
        let t = min(Double(time - startTime) / 1_000_000 / Self.duration, 1)
        let eased = 1 - pow(1 - t, 3)
        let rect = fromRect.interpolated(to: toRect, eased)
        dossier_fixed_place(cast(layer), picture, rect.x, rect.y, rect.width / imageSize.width, rect.height / imageSize.height)
        record?.frames.append(rect)
        if opening {
            gtk_widget_set_opacity(picture, 1 - eased * eased)
            gtk_widget_set_opacity(content, eased)
        } else {
            gtk_widget_set_opacity(picture, 1 - eased * eased * eased)
        }
        guard t < 1 else {
            tickID = 0
            end()
            return false
        }
        return true
    }

    private func end() {
        if let picture { gtk_fixed_remove(cast(layer), picture) }
        picture = nil
        resolveSource = nil
        record?.finished = true
        gtk_widget_set_opacity(content, 1)
        let completion = self.completion
        self.completion = nil
        completion?()
    }

    // MARK: Measuring

    /// A still picture of what `widget` shows now.
    private func snapshot(of widget: WidgetPointer) -> OpaquePointer? {
        guard gtk_widget_get_mapped(widget) != 0 else { return nil }
        let live = gtk_widget_paintable_new(widget)!
        defer { g_object_unref(raw(live)) }
        guard gdk_paintable_get_intrinsic_width(live) > 0 else { return nil }
        return gdk_paintable_get_current_image(live)
    }

    /// Where the previewer's window content starts on screen.
    private func windowOrigin() -> (x: Double, y: Double)? {
        var rect = ZoomRect(x: 0, y: 0, width: 0, height: 0)
        guard dossier_widget_screen_bounds(window, &rect.x, &rect.y, &rect.width, &rect.height) != 0 else { return nil }
        return (rect.x, rect.y)
    }
}
