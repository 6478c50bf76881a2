import CGtk
import Foundation
import GObjectSupport

/// The column of a Markdown document's blocks, built a screenful first and the rest in idle
/// steps. Shaping every block before the first frame (a 200 KB file: 190 code views, 190
/// tables, thousands of labels) left the window blank for seconds; built so, the page shows
/// its start at once and the rest follows below GTK's layout and paint, a few milliseconds of
/// work at a time, in the document's order, while the column is on screen.
///
/// Only the groups of blocks near the visible part are mapped (`follow(_:)`). GTK 4.8 maps,
/// snapshots and (with the cairo renderer) draws every mapped widget of a frame, on screen
/// or not: with the whole of a 200 KB file mapped, the first frame of a showing took 200–350
/// ms, and every frame while scrolling 25 ms.
@MainActor
final class MarkdownColumn {
    /// A vertical box of groups of `groupSize` blocks (vertical boxes, spaced as the column).
    let view: Widget
    /// Blocks in the document, and how many of them are in the column so far.
    let blockCount: Int
    private(set) var builtCount = 0
    /// True while the idle steps wait for the column to be shown again.
    private(set) var isPaused = false

    private let widgets: MarkdownWidgets
    private let blocks: [MarkdownDocument.Block]
    private var generation = 0
    private var isStopped = false
    /// The group blocks are appended to (owned by `view`).
    private var group: Widget?
    /// The vertical adjustment of the scrolled window around the column, and its handlers.
    private var adjustment: UnsafeMutablePointer<GtkAdjustment>?
    private var adjustmentHandlers: [SignalConnection] = []

    /// Blocks a group holds. Appended to the column itself, every step had GTK measure every
    /// block built so far again (building the rest took twice as long as all at once); a
    /// group keeps its size measured until a block is added to it.
    static let groupSize = 32
    static let spacing: Int32 = 12

    /// Estimated height, in pixels, built before the page shows: more than a tall screen.
    static let firstScreenHeight = 2000
    /// Blocks built before the page shows at most, whatever their estimated height.
    static let firstScreenBlocks = 60
    /// Work per idle step, at least one block: short enough for input and frames between.
    static let stepBudget: Duration = .milliseconds(4)

    init(widgets: MarkdownWidgets, blocks: [MarkdownDocument.Block]) {
        self.widgets = widgets
        self.blocks = blocks
        blockCount = blocks.count
        view = makeBox(GTK_ORIENTATION_VERTICAL, spacing: Self.spacing, [])
        g_object_ref_sink(raw(view))  // appended to for as long as the column lives
        connectSignal(raw(view), "map") { [weak self] in MainActor.assumeIsolated { self?.resume() } }
    }

    isolated deinit {
        if let adjustment {
            for handler in adjustmentHandlers { handler.disconnect(from: raw(adjustment)) }
            g_object_unref(raw(adjustment))
        }
        g_object_unref(raw(view))
    }

    /// Builds the blocks of the first screen, and schedules the rest.
    func start() {
        var height = 0
        while builtCount < blocks.count, builtCount < Self.firstScreenBlocks, height < Self.firstScreenHeight {
            height += Self.estimatedHeight(blocks[builtCount]) + Int(Self.spacing)
            appendNext()
        }
        generation += 1
        scheduleRest(generation)
    }

    /// Stops building: the blocks not built yet never are.
    func cancel() {
        isStopped = true
        generation += 1
    }

    /// Maps only the groups within a screen of the part of the column that `adjustment` (the
    /// scrolled window's vertical one) shows, from now on.
    func follow(_ adjustment: UnsafeMutablePointer<GtkAdjustment>) {
        g_object_ref(raw(adjustment))
        self.adjustment = adjustment
        for signal in ["value-changed", "changed"] {
            adjustmentHandlers.append(connectSignal(raw(adjustment), signal) { [weak self] in
                MainActor.assumeIsolated { self?.mapNearGroups() }
            })
        }
        mapNearGroups()
    }

    /// The groups of blocks, in order.
    var groups: [Widget] {
        var groups: [Widget] = []
        var child = gtk_widget_get_first_child(view)
        while let current = child {
            groups.append(current)
            child = gtk_widget_get_next_sibling(current)
        }
        return groups
    }

    /// Maps the groups that overlap the visible part or a screen above or below it, and
    /// unmaps the rest (`gtk_widget_set_child_visible`: the column keeps their size). The
    /// column's offset in the scrolled window (a margin) is left out: a screen covers it. A
    /// group not laid out yet is mapped if the groups before it end before the limit.
    private func mapNearGroups() {
        guard let adjustment else { return }
        let page = gtk_adjustment_get_page_size(adjustment)
        guard page > 0 else { return }  // not laid out yet: everything stays mapped
        let value = gtk_adjustment_get_value(adjustment)
        let top = value - page, bottom = value + 2 * page
        var y = 0.0
        for group in groups {
            let height = Double(gtk_widget_get_height(group))
            let near = height > 0 ? y + height >= top && y <= bottom : y <= bottom
            if (gtk_widget_get_child_visible(group) != 0) != near { gtk_widget_set_child_visible(group, near ? 1 : 0) }
            y += height + Double(Self.spacing)
        }
    }

    private func appendNext() {
        if builtCount % Self.groupSize == 0 || group == nil {
            let next = makeBox(GTK_ORIENTATION_VERTICAL, spacing: Self.spacing, [])
            gtk_box_append(cast(view), next)
            group = next
            mapNearGroups()
        }
        gtk_box_append(cast(group), widgets.widget(for: blocks[builtCount]))
        builtCount += 1
    }

    /// Idle steps until every block is built. They pause while the column is not on screen
    /// (the window closed, the source shown, a neighbour's page): built then, blocks would all
    /// be laid out and drawn in the first frame of the next showing. `map` resumes them.
    private func scheduleRest(_ scheduled: Int) {
        guard builtCount < blocks.count else { return }
        MainLoopIdle.run { [weak self] in
            guard let self, self.generation == scheduled else { return }
            guard gtk_widget_get_mapped(self.view) != 0 else {
                self.isPaused = true
                return
            }
            let clock = ContinuousClock()
            let start = clock.now
            repeat { self.appendNext() } while self.builtCount < self.blocks.count && clock.now - start < Self.stepBudget
            self.scheduleRest(scheduled)
        }
    }

    private func resume() {
        guard isPaused, !isStopped else { return }
        isPaused = false
        generation += 1
        scheduleRest(generation)
    }

    /// A rough height for `block` at the column's width, from its lines: enough to tell when
    /// the blocks built fill a screen, never laid out.
    static func estimatedHeight(_ block: MarkdownDocument.Block) -> Int {
        let charactersPerLine = 100, lineHeight = 20
        func lines(_ text: String) -> Int { max(1, text.utf8.count / charactersPerLine + 1) }
        switch block {
        case .heading(let level, _): return level <= 2 ? 50 : 36
        case .paragraph(let pieces):
            return pieces.reduce(0) { total, piece in
                switch piece {
                case .markup(let markup): total + lines(markup) * lineHeight
                case .image: total + 300
                }
            }
        case .code(_, let text):
            return (text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }) * 17 + 16
        case .quote(let blocks): return blocks.reduce(0) { $0 + estimatedHeight($1) + 8 }
        case .list(_, _, let items):
            return items.reduce(0) { total, item in total + item.blocks.reduce(0) { $0 + estimatedHeight($1) + 6 } + 4 }
        case .table(_, _, let rows): return (rows.count + 1) * 26 + 16
        case .rule: return 12
        }
    }
}
