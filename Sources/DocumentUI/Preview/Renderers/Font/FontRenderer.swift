import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Fonts as a specimen: the family name, the alphabet, digits and punctuation, and a sample at
/// several sizes, all in the file's own font. The font is never loaded in this process: a decoder
/// worker draws the lines' coverage (`FontSpecimen`) at this view's width, scale and font
/// settings, and they are shown as pictures over the worker's pixels in the view's text colour,
/// named by their text for screen readers (the text cannot be selected). The captions stay
/// labels in the desktop's font. When the width or the scale changes, the worker draws the lines
/// again; when the style does (dark, high contrast), only their colour changes.
@MainActor
package final class FontRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.font]
    /// The column's margins at its sides, in logical pixels.
    static let sideMargin: Int32 = 32

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private let column: WidgetPointer
    private var path: FileSystemPath = ""
    /// A picture per line of the specimen, in its order, with the text it shows.
    private(set) var lines: [(text: String, picture: WidgetPointer)] = []
    private var pictures: [WidgetPointer] { lines.map(\.picture) }
    /// How the lines shown were drawn, and whether a drawing is under way.
    private var drawn: FontSpecimen.Appearance?
    private var redrawing = false
    /// The colour the lines are shown in: the view's text colour when they were last tinted.
    private var color = GdkRGBA()
    private var styleWatches: [SignalConnection] = []

    /// Makes a renderer that shows a font's specimen.
    package init() {
        column = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [])
        gtk_widget_set_margin_top(column, 24)
        gtk_widget_set_margin_bottom(column, 24)
        gtk_widget_set_margin_start(column, Self.sideMargin)
        gtk_widget_set_margin_end(column, Self.sideMargin)
        rootView = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(rootView), column)
    }

    isolated deinit {
        if let manager = adw_style_manager_get_default() { styleWatches.forEach { $0.disconnect(from: raw(manager)) } }
    }

    /// A specimen drawn ahead in the decoder worker, which `FontSpecimen.draw` joins.
    struct Prepared: Sendable {
        let path: FileSystemPath
    }

    /// Draws the specimen ahead for the window about to be made, once its measures are known;
    /// until they are, the worker readies its font libraries on the file.
    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        let path = preparation.url.rawPath
        if !preparation.canMeasureWindow { FontSpecimen.warm(fileAt: path) }
        guard let appearance = await preparation.measureWindow({ appearanceInNewWindow() }) else { return nil }
        FontSpecimen.drawAhead(fileAt: path, appearance: appearance)
        return Prepared(path: path)
    }

    package static func discard(prepared: any Sendable) {
        if let prepared = prepared as? Prepared { FontSpecimen.dropDrawingAhead(fileAt: prepared.path) }
    }

    /// How the specimen is drawn in a preview window about to be made: measured in one like
    /// it, made and never shown.
    static func appearanceInNewWindow() -> FontSpecimen.Appearance {
        let window = widget(adw_window_new())
        gtk_window_set_default_size(cast(window), PreviewWindow.defaultSize.width, PreviewWindow.defaultSize.height)
        let view = gtk_scrolled_window_new()!
        adw_window_set_content(cast(window), view)
        let appearance = appearance(of: view, width: columnWidth(windowContent: PreviewWindow.contentWidth(of: window)))
        gtk_window_destroy(cast(window))
        return appearance
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        path = item.url.rawPath
        // A specimen drawn ahead for this appearance (`prepare`) is taken, not drawn again.
        let appearance = Self.appearance(of: rootView, width: fittingWidth)
        let specimen: FontSpecimen
        do throws(FontSpecimenError) {
            specimen = try await FontSpecimen.draw(fileAt: path, appearance: appearance)
        } catch {
            throw PreviewError(error.description)
        }
        StageTrace.mark("font specimen drawn")
        drawn = appearance
        build(specimen, type: type)
        StageTrace.mark("font page built")
        setAccessibleName(rootView, tr("Font specimen of %s", item.displayTitle))

        // Drawn again for a new width or scale; tinted again for a new style.
        let adjustment = gtk_scrolled_window_get_hadjustment(cast(rootView))
        connectSignal(UnsafeMutableRawPointer(adjustment!), "notify::page-size") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.redrawIfChanged()
        }
        connectSignal(raw(rootView), "notify::scale-factor") { [weak self] (_: UnsafeMutableRawPointer?) in self?.redrawIfChanged() }
        if let manager = adw_style_manager_get_default() {
            styleWatches = ["notify::dark", "notify::high-contrast"].map { signal in
                connectSignal(raw(manager), signal) { [weak self] (_: UnsafeMutableRawPointer?) in
                    // The style's colours reach the widgets at their next frame.
                    guard let self else { return }
                    onNextFrame(of: self.rootView) { [weak self] in self?.tintIfChanged() }
                }
            }
        }
        onNextFrame(of: rootView) { [weak self] in self?.tintIfChanged() }
        redrawIfChanged()
    }

    private func build(_ specimen: FontSpecimen, type: DocumentType) {
        if !specimen.coversFamily {
            // A font without the letters of its own name: the name in the desktop's font.
            let name = makeLabel(specimen.family, classes: ["title-1"], selectable: true)
            gtk_label_set_xalign(opaque(name), 0)
            gtk_label_set_wrap(opaque(name), 1)
            gtk_box_append(cast(column), name)
        }
        var details = [specimen.style, type.localizedDescription].compactMap { $0 }
        if specimen.faceCount > 1 { details.append(trn("%d face", "%d faces", specimen.faceCount)) }
        let caption = makeLabel(details.joined(separator: " · "), classes: ["dim-label"])
        gtk_label_set_xalign(opaque(caption), 0)
        gtk_box_append(cast(column), caption)

        let rows = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [])
        var role: FontSpecimen.Role?
        for line in specimen.lines {
            if line.role == .sample, role != .sample {
                gtk_box_append(cast(rows), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
            }
            role = line.role
            // At its size, in a row of its own: a picture in a column is as wide as the column
            // (drawn larger), and one that may shrink gets no height in a row (GTK 4.8). A window
            // made narrower than the drawing scrolls sideways until it is drawn again.
            let picture = gtk_picture_new()!
            gtk_picture_set_can_shrink(cast(picture), 0)
            // Ink above or below the line's box is drawn around it, as a label draws it.
            gtk_widget_set_overflow(picture, GTK_OVERFLOW_VISIBLE)
            setAccessibleName(picture, line.text)
            gtk_box_append(cast(rows), makeBox(GTK_ORIENTATION_HORIZONTAL, [picture]))
            lines.append((line.text, picture))
        }
        show(specimen)
        gtk_box_append(cast(column), rows)
        let sizes = makeLabel(tr("Sizes: %s points", FontSpecimen.sampleSizes.map(String.init).joined(separator: ", ")),
                              classes: ["dim-label", "caption"])
        gtk_label_set_xalign(opaque(sizes), 0)
        gtk_box_append(cast(column), sizes)
    }

    /// Puts the specimen's lines in the pictures (the same file drawn again has the same lines),
    /// in the view's text colour.
    private func show(_ specimen: FontSpecimen) {
        guard specimen.lines.count == pictures.count else { return }
        dossier_widget_color(rootView, &color)
        for (picture, line) in zip(pictures, specimen.lines) {
            let paintable = paintable(showing: line.pixels, in: color)
            withExtendedLifetime(paintable) {
                gtk_picture_set_paintable(cast(picture), paintable.map { OpaquePointer($0.pointer) })
            }
        }
    }

    /// Shows the lines in the view's text colour when it is no longer the one they have (a new
    /// style): the same drawing, another colour.
    private func tintIfChanged() {
        var now = GdkRGBA()
        dossier_widget_color(rootView, &now)
        guard gdk_rgba_equal(&now, &color) == 0 else { return }
        color = now
        for picture in pictures {
            if let paintable = gtk_picture_get_paintable(cast(picture)) { setColor(of: paintable, to: now) }
        }
    }

    /// Draws the lines again when the view's width or scale are no longer those they were drawn
    /// for; one drawing at a time, the last one for the view as it is by then.
    private func redrawIfChanged() {
        guard !redrawing, let drawn else { return }
        let wanted = Self.appearance(of: rootView, width: shownWidth)
        guard wanted != drawn else { return }
        redrawing = true
        let path = path
        Task { @MainActor [weak self] in
            let specimen = try? await FontSpecimen.draw(fileAt: path, appearance: wanted)
            guard let self else { return }
            self.redrawing = false
            // A drawing that failed is not asked for again until something else changes.
            self.drawn = wanted
            if let specimen { self.show(specimen) }
            self.redrawIfChanged()
        }
    }

    /// How the lines are drawn for `widget` (the view, or one like it in the window the view
    /// will be in) now, `width` logical pixels wide: its scale and its Pango context's font
    /// settings, which GTK takes from its settings, not from the stylesheet.
    static func appearance(of widget: WidgetPointer, width: Int) -> FontSpecimen.Appearance {
        let context = gtk_widget_get_pango_context(widget)
        let dpi = pango_cairo_context_get_resolution(context)
        let scale = Int(min(max(gtk_widget_get_scale_factor(widget), 1), 4))
        var appearance = FontSpecimen.Appearance(
            width: min(width, FontSpecimen.Appearance.widest / scale), scale: scale, dpi: dpi > 0 ? dpi : 96)
        if let options = pango_cairo_context_get_font_options(context) {
            appearance.antialias = Int32(cairo_font_options_get_antialias(options).rawValue)
            appearance.hintStyle = Int32(cairo_font_options_get_hint_style(options).rawValue)
            appearance.hintMetrics = Int32(cairo_font_options_get_hint_metrics(options).rawValue)
        }
        appearance.roundsGlyphPositions = pango_context_get_round_glyph_positions(context) != 0
        return appearance
    }

    /// The column's width once the view is laid out, else the one it is about to get.
    private var shownWidth: Int {
        let shown = gtk_adjustment_get_page_size(gtk_scrolled_window_get_hadjustment(cast(rootView)))
        return shown > 0 ? max(Int(shown) - 2 * Int(Self.sideMargin), 1) : fittingWidth
    }

    /// The column's width in the window the view is in (`PreviewWindow.contentWidth`).
    private var fittingWidth: Int {
        let width = gtk_widget_get_root(rootView).map { PreviewWindow.contentWidth(of: widget($0)) } ?? PreviewWindow.defaultSize.width
        return Self.columnWidth(windowContent: width)
    }

    /// The column's width in a window whose content is `width` logical pixels wide.
    static func columnWidth(windowContent width: Int32) -> Int {
        max(Int(width) - 2 * Int(sideMargin), 1)
    }
}
