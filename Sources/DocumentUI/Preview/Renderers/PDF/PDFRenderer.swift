import CGtk
import CPoppler
import DocumentCore
import Foundation
import GObjectSupport

/// PDF documents: every page in a scrolled column, the first shown as soon as it is drawn; a
/// sidebar of page pictures (shown for documents of several pages) that scrolls to a page;
/// zoom redraws at the new width; links go to the controller. Pages are drawn by poppler off
/// the main thread, only those near the view: each page has its place (its size) in the
/// column from the start, is drawn when it comes near the view and dropped when it is far
/// from it, so a document of thousands of pages takes the memory of a few (a page drawn 900
/// px wide is about 4.5 MB; drawing all of a 400-page document took 1.2 GB).
@MainActor
public final class PDFRenderer: PreviewRenderer {
    public static let supportedTypes: [DocumentType] = [.pdf]
    static let pageSpacing: Int32 = 12
    public let view: Widget
    private let column: Widget
    private let scrolled: Widget
    private let sidebar = PageSidebar()
    private let pagesButton: Widget
    /// Each page's place in the column, its drawing's size, with the drawing in it when drawn.
    private var slots: [Widget] = []
    private var pageSizes: [(width: Double, height: Double)] = []
    private var drawn: [Int: Widget] = [:]
    private var selections: [Int: PageSelection] = [:]
    private var queued: [Int] = []
    /// The page the drawing task is drawing now, if it draws a page.
    private var pageBeingDrawn: Int?
    /// The sidebar's pictures drawn so far (in page order).
    private var thumbnailCount = 0
    private var pageWidth: Int32 = 900
    private var document: PopplerDocumentReference?
    /// The number of pages, and whether page `index` is drawn now (for tests).
    var pageCount: Int { slots.count }
    func isDrawn(_ index: Int) -> Bool { drawn[index] != nil }
    var drawnPageCount: Int { drawn.count }
    /// Whether pages near the view wait to be drawn or one is being drawn; once false, every
    /// page near the view is drawn (for tests).
    var isDrawingPages: Bool { !queued.isEmpty || pageBeingDrawn != nil }

    /// The one task that draws: poppler draws a document on one thread at a time.
    private var drawing: Task<Void, Never>?
    private var item: PreviewItem?
    private var linkHandler: (@MainActor (URL) -> Void)?

    public func setLinkHandler(_ handler: @escaping @MainActor (URL) -> Void) { linkHandler = handler }

    public init() {
        column = gtk_box_new(GTK_ORIENTATION_VERTICAL, Self.pageSpacing)
        gtk_widget_set_margin_top(column, 12)
        gtk_widget_set_margin_bottom(column, 12)
        gtk_widget_set_halign(column, GTK_ALIGN_CENTER)
        scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(scrolled), column)
        gtk_widget_set_hexpand(scrolled, 1)
        pagesButton = gtk_toggle_button_new()
        gtk_button_set_icon_name(cast(pagesButton), "sidebar-show-symbolic")
        gtk_widget_add_css_class(pagesButton, "flat")
        gtk_widget_set_halign(pagesButton, GTK_ALIGN_START)
        setAccessibleName(pagesButton, tr("Show page thumbnails"))
        let toolbar = makeBox(GTK_ORIENTATION_HORIZONTAL, [pagesButton])
        gtk_widget_set_margin_start(toolbar, 6)
        gtk_widget_set_margin_top(toolbar, 4)
        let body = makeBox(GTK_ORIENTATION_HORIZONTAL, [sidebar.view, scrolled])
        gtk_widget_set_vexpand(body, 1)
        view = makeBox(GTK_ORIENTATION_VERTICAL, [toolbar, body])
        connectSignal(raw(pagesButton), "toggled") { [weak self] () -> Void in
            guard let self else { return }
            self.sidebar.isShown = gtk_toggle_button_get_active(cast(self.pagesButton)) != 0
        }
        sidebar.onSelect = { [weak self] page in self?.scroll(to: page) }
    }

    /// Scrolls the document so page `index` starts at the top.
    func scroll(to index: Int) {
        guard slots.indices.contains(index) else { return }
        let picture = slots[index]
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(picture, column, &bounds) != 0 else { return }
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
        gtk_adjustment_set_value(adjustment, Double(bounds.origin.y) - 12 + Double(gtk_widget_get_margin_top(column)))
    }

    isolated deinit { drawing?.cancel() }

    public func load(_ item: PreviewItem, type: DocumentType) async throws {
        self.item = item
        pageWidth = fittingWidth
        let width = pageWidth
        let opened: Result<Opened, PreviewError>
        if case .pdf(width, let prefetched) = await PreviewPrefetch.takeContent(for: item.url) {
            opened = prefetched  // opened and its first page drawn while the service started
        } else {
            opened = await Self.open(item.url, firstPageWidth: width)
        }
        let (document, count, first, sizes) = try opened.get().parts
        self.document = document
        pageSizes = sizes
        setAccessibleName(scrolled, tr("PDF document %s, %s pages", item.displayTitle, String(count)))
        gtk_widget_set_visible(pagesButton, count > 1 ? 1 : 0)
        // Shown with the first page, not sliding in over the frames after it.
        sidebar.show(count > 1)
        gtk_toggle_button_set_active(cast(pagesButton), count > 1 ? 1 : 0)
        // The first page before anything is shown; the others near the view after.
        makeSlots()
        append(first, page: 0)
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
        connectSignal(UnsafeMutableRawPointer(adjustment!), "value-changed") { [weak self] () -> Void in self?.drawNearView() }
        connectSignal(UnsafeMutableRawPointer(adjustment!), "notify::page-size") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.drawNearView()
        }
        drawNearView()
    }

    /// A document opened, with its number of pages and its first page drawn.
    struct Opened: Sendable {
        let document: PopplerDocumentReference
        let count: Int
        let first: RenderedPage?
        /// Every page's size in points.
        let sizes: [(width: Double, height: Double)]
        var parts: (PopplerDocumentReference, Int, RenderedPage?, [(width: Double, height: Double)]) {
            (document, count, first, sizes)
        }
    }

    /// Opens the document at `url` and draws its first page `firstPageWidth` pixels wide, off
    /// the main thread.
    nonisolated static func open(_ url: URL, firstPageWidth: Int32) async -> Result<Opened, PreviewError> {
        let document: PopplerDocumentReference
        switch await openDocument(url) {
        case .failure(let error): return .failure(error)
        case .success(let opened): document = opened
        }
        let count = Int(dossier_pdf_page_count(document.pointer))
        guard count > 0 else { return .failure(PreviewError(tr("The document has no pages."))) }
        let first = await draw(document, page: 0, width: firstPageWidth)
        let sizes = await Task.detached { () -> [(width: Double, height: Double)] in
            (0..<count).map { index in
                guard let page = dossier_pdf_get_page(document.pointer, Int32(index)) else { return (595, 842) }
                defer { g_object_unref(raw(page)) }
                var width = 0.0, height = 0.0
                dossier_pdf_page_size(page, &width, &height)
                return width > 0 && height > 0 ? (width, height) : (595, 842)
            }
        }.value
        return .success(Opened(document: document, count: count, first: first, sizes: sizes))
    }

    /// Opens the document at `url` with poppler, off the main thread (the renderer and printing
    /// both open documents so).
    nonisolated static func openDocument(_ url: URL) async -> Result<PopplerDocumentReference, PreviewError> {
        let uri = url.absoluteString
        return await Task.detached { () -> Result<PopplerDocumentReference, PreviewError> in
            var missing: UnsafeMutablePointer<CChar>?
            guard dossier_pdf_load(&missing) != 0 else {
                defer { g_free(missing) }
                return .failure(PreviewError(tr("PDF documents cannot be shown: poppler could not be loaded (%s).", missing.map { String(cString: $0) } ?? "")))
            }
            var error: UnsafeMutablePointer<GError>?
            guard let document = dossier_pdf_open(uri, &error) else {
                let encrypted = dossier_pdf_error_is_encrypted(error) != 0
                let reason = error.map { String(cString: $0.pointee.message) } ?? ""
                if let error { g_error_free(error) }
                return .failure(PreviewError(encrypted ? tr("The document is protected by a password.")
                                                       : tr("The PDF could not be read: %s", reason)))
            }
            return .success(PopplerDocumentReference(document))
        }.value
    }

    /// A page width that fits the window, leaving room for the margins and the scroll bar.
    private var fittingWidth: Int32 {
        let root = gtk_widget_get_root(view).map { widget($0) }
        var width = root.map { gtk_widget_get_width($0) } ?? 0
        if width <= 0, let root {
            // Not laid out yet (the first showing): the width it is about to get.
            var height: Int32 = 0
            gtk_window_get_default_size(cast(root), &width, &height)
        }
        return Self.fittingWidth(windowWidth: width)
    }

    /// The page width for a window `windowWidth` wide.
    nonisolated static func fittingWidth(windowWidth width: Int32) -> Int32 {
        // Room for the page sidebar when the document has several pages.
        let available = width - PageSidebar.width
        return available > 200 ? min(max(available - 64, 200), 1600) : 800
    }

    /// The height of page `index` drawn `pageWidth` pixels wide (as `draw` rounds it).
    private func pageHeight(_ index: Int) -> Int32 {
        let size = pageSizes[index]
        return Int32((size.height * Double(pageWidth) / size.width).rounded())
    }

    /// A place in the column for each page, as large as its drawing will be. It carries the
    /// page's accessible name: a page is there (and can be found) before it is drawn.
    private func makeSlots() {
        slots = pageSizes.indices.map { index in
            let slot = dossier_group_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            setAccessibleName(slot, tr("Page %s", String(index + 1)))
            gtk_widget_set_size_request(slot, pageWidth, pageHeight(index))
            gtk_widget_set_halign(slot, GTK_ALIGN_CENTER)
            gtk_box_append(cast(column), slot)
            return slot
        }
    }

    /// The pages within `margin` screens of the view, by their places in the column.
    private func pagesInView(margin: Double) -> ClosedRange<Int>? {
        guard !slots.isEmpty else { return nil }
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
        var screen = gtk_adjustment_get_page_size(adjustment)
        if screen <= 0 { screen = 1000 }  // not laid out yet: about a window
        let top = gtk_adjustment_get_value(adjustment) - margin * screen
        let bottom = gtk_adjustment_get_value(adjustment) + (1 + margin) * screen
        var y = Double(gtk_widget_get_margin_top(column))
        var first: Int?
        var last = 0
        for index in slots.indices {
            let height = Double(pageHeight(index))
            if y + height >= top, first == nil { first = index }
            if y > bottom { break }
            last = index
            y += height + Double(Self.pageSpacing)
        }
        guard let first else { return nil }
        return first...max(first, last)
    }

    /// Draws the pages near the view that are not drawn and drops the drawings of pages far
    /// from it; when no page waits, the sidebar's pictures, one at a time. One task draws
    /// everything, in turn, so that poppler never draws the document on two threads; a page
    /// drawn at a width that a zoom has since changed is dropped.
    private func drawNearView() {
        guard let document, let near = pagesInView(margin: 1) else { return }
        let keep = pagesInView(margin: 4) ?? near
        for (page, view) in drawn where !keep.contains(page) {
            gtk_box_remove(cast(slots[page]), view)
            drawn[page] = nil
            selections[page] = nil
        }
        queued = near.filter { drawn[$0] == nil }
        guard drawing == nil else { return }
        // The renderer is not held while poppler draws: one dropped meanwhile (the previewer
        // moved on) ends the task, through its deinit or here.
        drawing = Task { @MainActor [weak self] in
            while !Task.isCancelled, let work = self?.nextDrawing() {
                switch work {
                case .page(let page, let width):
                    let bytes = await Self.draw(document, page: page, width: width)
                    guard let self, self.pageWidth == width, self.drawn[page] == nil,
                          self.pagesInView(margin: 4)?.contains(page) == true else { continue }
                    self.append(bytes, page: page)
                case .thumbnail(let page):
                    guard let small = await Self.draw(document, page: page, width: PageSidebar.thumbnailWidth) else { continue }
                    self?.sidebar.add(small, page: page)
                }
            }
        }
    }

    private enum Drawing {
        case page(Int, width: Int32)
        case thumbnail(Int)
    }

    /// What the drawing task does next: a page near the view, else the sidebar's next picture;
    /// nil (and the task ends) when nothing is left.
    private func nextDrawing() -> Drawing? {
        pageBeingDrawn = nil
        if !queued.isEmpty {
            let page = queued.removeFirst()
            pageBeingDrawn = page
            return .page(page, width: pageWidth)
        }
        if pageSizes.count > 1, thumbnailCount < pageSizes.count {
            thumbnailCount += 1
            return .thumbnail(thumbnailCount - 1)
        }
        drawing = nil
        return nil
    }

    /// One page drawn on white at `width` pixels, as BGRA bytes for a texture.
    nonisolated static func draw(_ document: PopplerDocumentReference, page index: Int, width: Int32) async -> RenderedPage? {
        await Task.detached {
            guard let page = dossier_pdf_get_page(document.pointer, Int32(index)) else { return nil }
            defer { g_object_unref(raw(page)) }
            var pageWidth = 0.0, pageHeight = 0.0
            dossier_pdf_page_size(page, &pageWidth, &pageHeight)
            guard pageWidth > 0, pageHeight > 0 else { return nil }
            let scale = Double(width) / pageWidth
            let height = Int32((pageHeight * scale).rounded())
            guard let drawing = CairoSurface(width: width, height: height) else { return nil }
            let surface = drawing.pointer
            let context = cairo_create(surface)
            cairo_set_source_rgb(context, 1, 1, 1)
            cairo_paint(context)
            cairo_scale(context, scale, scale)
            dossier_pdf_page_render(page, context)
            cairo_destroy(context)
            cairo_surface_flush(surface)
            var rects = [Double](repeating: 0, count: 4 * 64)
            var uris = [UnsafeMutablePointer<CChar>?](repeating: nil, count: 64)
            let count = Int(dossier_pdf_page_uri_links(page, scale, &rects, &uris, 64))
            let links = (0..<count).compactMap { index -> PageLink? in
                defer { g_free(uris[index]) }
                guard let text = uris[index].map({ String(cString: $0) }), let url = URL(string: text) else { return nil }
                return PageLink(x1: rects[index * 4], y1: rects[index * 4 + 1], x2: rects[index * 4 + 2], y2: rects[index * 4 + 3], url: url)
            }
            return RenderedPage(surface: drawing, links: links,
                                glyphs: width > PageSidebar.thumbnailWidth ? glyphs(of: page, scale: scale) : [])
        }.value
    }

    /// The page's characters and where they are, in pixels of a drawing at `scale` (poppler's
    /// text layout has one rectangle per character, top-left origin).
    nonisolated static func glyphs(of page: OpaquePointer, scale: Double) -> [PageGlyph] {
        var rectangles: UnsafeMutablePointer<DossierPDFRectangle>?
        var count: guint = 0
        guard dossier_pdf_page_text_layout(page, &rectangles, &count) != 0, let rectangles,
              let text = dossier_pdf_page_text(page) else { return [] }
        defer {
            g_free(rectangles)
            g_free(text)
        }
        let scalars = Array(String(cString: text).unicodeScalars)
        return (0..<min(Int(count), scalars.count)).map { index in
            let rectangle = rectangles[index]
            return PageGlyph(scalar: scalars[index], x1: rectangle.x1 * scale, y1: rectangle.y1 * scale,
                             x2: rectangle.x2 * scale, y2: rectangle.y2 * scale)
        }
    }

    public func copy() -> Bool {
        let text = selections.keys.sorted().compactMap { selections[$0]?.text }.filter { !$0.isEmpty }.joined(separator: "\n")
        guard !text.isEmpty else { return false }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(view), text)
        return true
    }

    private func append(_ rendered: RenderedPage?, page: Int) {
        guard let rendered else { return }
        let picture = makePicture(showing: rendered.surface)
        gtk_widget_add_css_class(picture, "card")
        if !rendered.links.isEmpty {
            onClick(picture) { [weak self] x, y in
                // The picture is drawn at its natural size, centred in the column.
                guard let link = rendered.links.first(where: { x >= $0.x1 && x <= $0.x2 && y >= $0.y1 && y <= $0.y2 }) else { return }
                self?.linkHandler?(link.url)
            }
        }
        // Dragging on one page selects its text and clears the others'.
        let selection = PageSelection(picture: picture, glyphs: rendered.glyphs)
        selection.didChange = { [weak self] in
            self?.selections.filter { $0.key != page }.values.forEach { $0.clear() }
        }
        selections[page] = selection
        guard slots.indices.contains(page) else { return }
        gtk_box_append(cast(slots[page]), selection.view)
        drawn[page] = selection.view
    }

    public func zoom(_ change: ZoomChange) {
        guard document != nil else { return }
        switch change {
        case .zoomIn: pageWidth = min(pageWidth * 5 / 4, 3000)
        case .zoomOut: pageWidth = max(pageWidth * 4 / 5, 200)
        case .fit: pageWidth = fittingWidth
        case .actualSize: pageWidth = 900
        }
        while let child = gtk_widget_get_first_child(column) { gtk_box_remove(cast(column), child) }
        drawn.removeAll()
        selections.removeAll()
        makeSlots()
        drawNearView()
    }
}

/// A page's pixels (and its links) on their way from the drawing thread to the main one.
struct RenderedPage: Sendable {
    let surface: CairoSurface
    let links: [PageLink]
    let glyphs: [PageGlyph]
}

/// A link on a page, in the page picture's pixels.
struct PageLink: Sendable {
    let x1: Double, y1: Double, x2: Double, y2: Double
    let url: URL
}

/// A poppler document used from one drawing thread at a time.
final class PopplerDocumentReference: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { g_object_unref(raw(pointer)) }
}
