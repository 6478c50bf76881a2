import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// PDF documents: every page in a scrolled column, the first shown as soon as it is drawn; a
/// sidebar of page pictures (shown for documents of several pages) that scrolls to a page;
/// zoom redraws at the new width; links go to the controller. Pages are drawn by poppler in a
/// decoder worker (`PDFDocument`), never in this process, and only those near the view: each
/// page has its place (its size) in the column from the start, is drawn when it comes near the
/// view and dropped when it is far from it, so a document of thousands of pages takes the
/// memory of a few (every page drawn holds megabytes of pixels, so drawing all of a long
/// document would take gigabytes).
@MainActor
package final class PDFRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.pdf]
    static let pageSpacing: Int32 = 12
    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private let column: WidgetPointer
    private let scrolled: WidgetPointer
    private let sidebar = PageSidebar()
    private let pagesButton: WidgetPointer
    /// Each page's place in the column, its drawing's size, with the drawing in it when drawn.
    private var slots: [WidgetPointer] = []
    private var pageSizes: [(width: Double, height: Double)] = []
    private var drawn: [Int: WidgetPointer] = [:]
    private var selections: [Int: PageSelection] = [:]
    private var queued: [Int] = []
    /// The page the drawing task is drawing now, if it draws a page.
    private var pageBeingDrawn: Int?
    /// The sidebar's pictures drawn so far (in page order).
    private var thumbnailCount = 0
    private var pageWidth: Int32 = 900
    private var document: PDFDocument?
    /// The number of pages, and whether page `index` is drawn now (for tests).
    var pageCount: Int { slots.count }
    func isDrawn(_ index: Int) -> Bool { drawn[index] != nil }
    var drawnPageCount: Int { drawn.count }
    /// Whether pages near the view wait to be drawn or one is being drawn; once false, every
    /// page near the view is drawn (for tests).
    var isDrawingPages: Bool { !queued.isEmpty || pageBeingDrawn != nil }

    /// The one task that draws: the worker draws one page at a time, and the nearest first.
    private var drawing: Task<Void, Never>?
    private var item: PreviewItem?
    private var linkHandler: (@MainActor (URL) -> Void)?
    private var failureHandler: (@MainActor (PreviewError) -> Void)?
    /// Set once the document can no longer be drawn (its worker stopped): nothing more is asked.
    private var hasFailed = false

    package func setLinkHandler(_ handler: @escaping @MainActor (URL) -> Void) { linkHandler = handler }
    package func setFailureHandler(_ handler: @escaping @MainActor (PreviewError) -> Void) { failureHandler = handler }

    /// Makes a renderer that shows a PDF's pages.
    package init() {
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
        rootView = makeBox(GTK_ORIENTATION_VERTICAL, [toolbar, body])
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

    /// A document opened in the decoder worker, with its first page drawn for the window's
    /// first width.
    struct Prepared: Sendable {
        let width: Int32
        let opened: Result<Opened, PreviewError>
    }

    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        let width = fittingWidth(windowWidth: preparation.windowWidth)
        return Prepared(width: width, opened: await open(preparation.url, firstPageWidth: width))
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    package func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        self.item = item
        pageWidth = fittingWidth
        let width = pageWidth
        let opened: Result<Opened, PreviewError>
        if let prepared = await prepared?.value as? Prepared, prepared.width == width {
            opened = prepared.opened
        } else {
            opened = await Self.open(item.url, firstPageWidth: width)
        }
        let (document, first) = try opened.get().parts
        self.document = document
        pageSizes = document.pageSizes
        let count = pageSizes.count
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

    /// A document opened (its pages' sizes), with its first page drawn.
    struct Opened: Sendable {
        let document: PDFDocument
        let first: RenderedPage?
        var parts: (PDFDocument, RenderedPage?) { (document, first) }
    }

    /// Opens the document at `url` in a decoder worker and draws its first page `firstPageWidth`
    /// pixels wide; waits on one of Dispatch's threads, never the main one.
    nonisolated static func open(_ url: URL, firstPageWidth: Int32) async -> Result<Opened, PreviewError> {
        let path = url.rawPath
        return await blockingWork { () -> Result<Opened, PreviewError> in
            do throws(PDFError) {
                let document = try PDFDocument.open(path)
                let first: RenderedPage?
                do throws(PDFError) {
                    first = try rendered(document.draw(page: 0, width: Int(firstPageWidth), text: true))
                } catch where !error.endsTheDocument {
                    first = nil  // a bad first page is left blank, as any other
                }
                return .success(Opened(document: document, first: first))
            } catch {
                return .failure(PreviewError(error.description))
            }
        }
    }

    /// A page width that fits the window, leaving room for the margins and the scroll bar.
    private var fittingWidth: Int32 {
        let root = gtk_widget_get_root(rootView).map { widget($0) }
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
    /// from it; when no page waits, the sidebar's pictures, one at a time. One task asks for
    /// everything, in turn, so that the pages nearest the view come first and a page scrolled
    /// away meanwhile is not drawn at all; a page drawn at a width that a zoom has since changed
    /// is dropped. A worker that stops ends the item (`accept`).
    private func drawNearView() {
        guard let document, !hasFailed, let near = pagesInView(margin: 1) else { return }
        let keep = pagesInView(margin: 4) ?? near
        for (page, rootView) in drawn where !keep.contains(page) {
            gtk_box_remove(cast(slots[page]), rootView)
            drawn[page] = nil
            selections[page] = nil
        }
        queued = near.filter { drawn[$0] == nil }
        guard drawing == nil else { return }
        // The renderer is not held while the worker draws: one dropped meanwhile (the previewer
        // moved on) ends the task, through its deinit or here, and lets the document go.
        drawing = Task { @MainActor [weak self] in
            while !Task.isCancelled, let work = self?.nextDrawing() {
                switch work {
                case .page(let page, let width):
                    let drawn = await Self.draw(document, page: page, width: width)
                    guard let self, self.accept(drawn) else { return }
                    guard self.pageWidth == width, self.drawn[page] == nil,
                          self.pagesInView(margin: 4)?.contains(page) == true else { continue }
                    self.append(try? drawn.get(), page: page)
                case .thumbnail(let page):
                    let small = await Self.draw(document, page: page, width: PageSidebar.thumbnailWidth)
                    guard let self, self.accept(small) else { return }
                    guard let picture = try? small.get() else { continue }
                    self.sidebar.add(picture, page: page)
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

    /// False, and the item ends on its error page, when the document can no longer be drawn
    /// (its worker stopped, or none starts); a bad page alone is left blank.
    private func accept(_ result: Result<RenderedPage?, PDFError>) -> Bool {
        guard case .failure(let error) = result, error.endsTheDocument else { return true }
        hasFailed = true
        queued = []
        pageBeingDrawn = nil
        drawing = nil
        failureHandler?(PreviewError(error.description))
        return false
    }

    /// One page drawn on white at `width` pixels by the worker (its characters with it, for a
    /// page of the column), waited for on one of Dispatch's threads.
    nonisolated static func draw(_ document: PDFDocument, page index: Int, width: Int32) async -> Result<RenderedPage?, PDFError> {
        await blockingWork {
            Result { () throws(PDFError) -> RenderedPage? in
                try rendered(document.draw(page: index, width: Int(width), text: width > PageSidebar.thumbnailWidth))
            }
        }
    }

    /// A worker's drawing as a surface to show, over the worker's memfd.
    nonisolated static func rendered(_ drawing: PDFPageDrawing) -> RenderedPage? {
        guard let surface = CairoSurface(showing: drawing) else { return nil }
        return RenderedPage(surface: surface, links: drawing.links, glyphs: drawing.glyphs)
    }

    package func copy() -> Bool {
        let text = selections.keys.sorted().compactMap { selections[$0]?.text }.filter { !$0.isEmpty }.joined(separator: "\n")
        guard !text.isEmpty else { return false }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(rootView), text)
        return true
    }

    private func append(_ rendered: RenderedPage?, page: Int) {
        guard let rendered else { return }
        let picture = makePicture(showing: rendered.surface)
        gtk_widget_add_css_class(picture, "card")
        if !rendered.links.isEmpty {
            onClick(picture) { [weak self] x, y in
                // The picture is drawn at its natural size, centred in the column.
                guard let link = rendered.links.first(where: { x >= $0.x1 && x <= $0.x2 && y >= $0.y1 && y <= $0.y2 }),
                      let url = link.url else { return }
                self?.linkHandler?(url)
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

    package func zoom(_ change: ZoomChange) {
        guard document != nil, !hasFailed else { return }
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

/// A page's pixels (and its links and characters) on their way from the worker to the main thread.
struct RenderedPage: Sendable {
    let surface: CairoSurface
    let links: [PDFLink]
    let glyphs: [PDFGlyph]
}
