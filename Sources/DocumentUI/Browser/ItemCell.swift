import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// A grid cell: the item's picture (its type's icon until the thumbnail comes) over its name
/// on at most two lines, ellipsized in the middle, and the folder for a search result. An item
/// that arrived by a live change fades in; a spinner over the picture while it is being opened.
///
/// The texts are GtkInscriptions, not labels: their size is set by the icon size, never
/// measured from the text, so binding a cell to another item costs no text layout until it
/// is drawn, and every cell of a row has the same height (a grid scrolled fast rebinds every
/// cell it keeps, a few hundred, each frame).
@MainActor
final class GridCell {
    let root: WidgetPointer
    /// The picture: the source of the previewer's zoom.
    let image: WidgetPointer
    /// The name: where the inline rename points.
    let label: WidgetPointer
    /// Holds the picture; the opening spinner goes over it.
    let iconOverlay: WidgetPointer
    private let caption: WidgetPointer
    private(set) var item: BrowserItem?
    private var request: ThumbnailLoader.Request?
    private var pixels = 0
    /// Whether the cell shows its item's thumbnail (false: the type's icon, a thumbnail to ask for).
    private(set) var hasThumbnail = false
    private(set) lazy var arrival = ArrivalAnimation(widget: root)

    /// A thumbnail's edge: a hairline all round and a slightly darker one below, so a white
    /// page stands out from the grid. Shadows without blur, each the picture drawn once more.
    /// Not libadwaita's `icon-dropshadow`: the cairo renderer blurs that in software for every
    /// thumbnail on every frame, so a scrolled grid of photos could not keep up with the display.
    private static let thumbnailClass = "dossier-thumbnail"
    private static var styled = false

    init() {
        if !Self.styled {
            Self.styled = true
            dossier_add_css("""
                .dossier-thumbnail { -gtk-icon-shadow: 0 1px alpha(black, 0.18), 0 -1px alpha(black, 0.07),
                                                       1px 0 alpha(black, 0.07), -1px 0 alpha(black, 0.07); }
                """)
        }
        image = gtk_image_new()!
        label = Self.makeText(lines: 2, overflow: GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_MIDDLE, classes: [])
        caption = Self.makeText(lines: 1, overflow: GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_START, classes: ["caption", "dim-label"])
        gtk_widget_set_visible(caption, 0)
        iconOverlay = gtk_overlay_new()!
        gtk_overlay_set_child(cast(iconOverlay), image)
        gtk_widget_set_halign(iconOverlay, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(iconOverlay, GTK_ALIGN_END)
        root = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 6, [iconOverlay, label, caption])
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_START)
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(root, 6)
        }
    }

    /// A centred text of `lines` lines (word-wrapped), as wide as the cell says.
    private static func makeText(lines: UInt32, overflow: GtkInscriptionOverflow, classes: [String]) -> WidgetPointer {
        let text = gtk_inscription_new(nil)!
        gtk_inscription_set_min_chars(opaque(text), 0)  // the width comes from the cell (size request)
        gtk_inscription_set_min_lines(opaque(text), lines)
        gtk_inscription_set_nat_lines(opaque(text), lines)
        gtk_inscription_set_wrap_mode(opaque(text), PANGO_WRAP_WORD_CHAR)
        gtk_inscription_set_text_overflow(opaque(text), overflow)
        gtk_inscription_set_xalign(opaque(text), 0.5)
        gtk_inscription_set_yalign(opaque(text), 0)
        for name in classes { gtk_widget_add_css_class(text, name) }
        return text
    }

    /// Shows `item` at an icon size of `pixels`, with its thumbnail if `loader` keeps one (else
    /// its type's icon: `requestThumbnail` asks for the thumbnail); animates it in when it
    /// arrived by a live change (`arrivals`). Returns true when it started an arrival animation.
    @discardableResult
    func bind(_ item: BrowserItem, pixels: Int, loader: ThumbnailLoader, arrivals: ArrivalLog? = nil) -> Bool {
        request?.cancel()
        request = nil
        let rebound = self.item?.key == item.key
        self.item = item
        var animates = false
        if !rebound {
            arrival.stop()
            if let start = arrivals?.animationStart(for: item.key, at: g_get_monotonic_time()) { animates = arrival.run(from: start) }
        }
        if pixels != self.pixels {
            self.pixels = pixels
            let width = Int32(max(pixels + 24, 112))
            gtk_image_set_pixel_size(cast(image), Int32(pixels))
            gtk_widget_set_size_request(image, Int32(pixels), Int32(pixels))
            gtk_widget_set_size_request(root, width, -1)
            gtk_widget_set_size_request(label, width, -1)
            gtk_widget_set_size_request(caption, width, -1)
        }
        let name = item.shownName
        gtk_inscription_set_text(opaque(label), name)
        setAccessibleName(label, name)
        setAccessibleNameOfListItem(holding: root, name)
        let location = item.trashed.map { displayPath(($0.originalPath as NSString).deletingLastPathComponent) } ?? item.location
        if let location {
            gtk_inscription_set_text(opaque(caption), location)
            setAccessibleName(caption, location)
        }
        if (gtk_widget_get_visible(caption) != 0) != (location != nil) {
            gtk_widget_set_visible(caption, location == nil ? 0 : 1)
        }
        if let picture = loader.cached(item, pixels: pixels) {
            showThumbnail(picture)
            return animates
        }
        // Themed icons draw their own shading; only thumbnails get an edge.
        hasThumbnail = false
        gtk_widget_remove_css_class(image, Self.thumbnailClass)
        if let icon = TypeIcons.picture(for: item, pixels: pixels, scale: max(Int(gtk_widget_get_scale_factor(root)), 1)) {
            gtk_image_set_from_paintable(cast(image), icon)
        } else {
            gtk_image_set_from_gicon(cast(image), TypeIcons.icon(for: item))
        }
        return animates
    }

    /// Asks `loader` for the thumbnail of the item shown, unless it is shown or asked for;
    /// `urgent` for a cell on screen (asked before those kept off screen).
    func requestThumbnail(from loader: ThumbnailLoader, urgent: Bool) {
        guard let item, !hasThumbnail, request == nil else { return }
        let key = item.key
        let scale = max(Int(gtk_widget_get_scale_factor(root)), 1)
        request = loader.load(item, pixels: pixels, scale: scale, urgent: urgent) { [weak self] picture in
            guard let self, self.item?.key == key else { return }
            self.showThumbnail(picture)
        }
    }

    private func showThumbnail(_ picture: OpaquePointer) {
        hasThumbnail = true
        gtk_widget_add_css_class(image, Self.thumbnailClass)
        gtk_image_set_from_paintable(cast(image), picture)
    }

    /// Stops loading: the cell is about to show another item or none.
    func unbind() {
        request?.cancel()
        request = nil
        item = nil
        arrival.stop()
    }
}

/// The Name column's cell in the list: a small icon, the name, and the folder of a search
/// result, recent or tagged file, or where a trashed item was.
@MainActor
final class NameCell {
    let root: WidgetPointer
    let image: WidgetPointer
    /// The name: where the inline rename points.
    let label: WidgetPointer
    /// Holds the icon; the opening spinner goes over it.
    let iconOverlay: WidgetPointer
    private let caption: WidgetPointer

    init() {
        image = gtk_image_new()!
        gtk_image_set_pixel_size(cast(image), 24)
        label = makeCellLabel()
        gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_MIDDLE)
        caption = makeCellLabel(classes: ["caption", "dim-label"])
        gtk_label_set_ellipsize(opaque(caption), PANGO_ELLIPSIZE_START)
        let texts = makeBox(GTK_ORIENTATION_VERTICAL, [label, caption])
        gtk_widget_set_valign(texts, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(texts, 1)
        iconOverlay = gtk_overlay_new()!
        gtk_overlay_set_child(cast(iconOverlay), image)
        gtk_widget_set_valign(iconOverlay, GTK_ALIGN_CENTER)
        root = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [iconOverlay, texts])
    }

    func bind(_ item: BrowserItem) {
        gtk_image_set_from_gicon(cast(image), TypeIcons.icon(for: item))
        gtk_label_set_text(opaque(label), item.shownName)
        let location = item.trashed.map { displayPath(($0.originalPath as NSString).deletingLastPathComponent) } ?? item.location
        gtk_label_set_text(opaque(caption), location ?? "")
        gtk_widget_set_visible(caption, location == nil ? 0 : 1)
    }
}

/// The texts of the list's other columns.
enum ItemText {
    static func size(_ item: BrowserItem) -> String {
        item.isDirectory ? "—" : formattedSize(item.size)
    }

    static func kind(_ item: BrowserItem) -> String { KindName.of(item.isDirectory ? .folder : item.type) }

    @MainActor
    static func date(_ date: Date?) -> String {
        guard let date else { return "—" }
        return formatter.string(from: date)
    }

    @MainActor private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        formatter.doesRelativeDateFormatting = true
        return formatter
    }()
}
