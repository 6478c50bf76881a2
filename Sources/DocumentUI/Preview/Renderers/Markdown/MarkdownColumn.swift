import CGtk
import Foundation
import GObjectSupport

/// The column of a Markdown document's blocks, built a screenful first and the rest in idle
/// steps. Shaping every block before the first frame (a 200 KB file: 190 code views, 190
/// tables, thousands of labels) left the window blank for seconds; built so, the page shows
/// its start at once and the rest follows below GTK's layout and paint, a few milliseconds of
/// work at a time, in the document's order.
@MainActor
final class MarkdownColumn {
    /// A vertical box of groups of `groupSize` blocks (vertical boxes, spaced as the column).
    let view: Widget
    /// Blocks in the document, and how many of them are in the column so far.
    let blockCount: Int
    private(set) var builtCount = 0

    private let widgets: MarkdownWidgets
    private let blocks: [MarkdownDocument.Block]
    private var generation = 0
    /// The group blocks are appended to (owned by `view`).
    private var group: Widget?

    /// Blocks a group holds. Appended to the column itself, every step had GTK measure every
    /// block built so far again (building the rest took twice as long as all at once); a
    /// group keeps its size measured until a block is added to it.
    static let groupSize = 32

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
        view = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [])
        g_object_ref_sink(raw(view))  // appended to for as long as the column lives
    }

    isolated deinit {
        g_object_unref(raw(view))
    }

    /// Builds the blocks of the first screen, and schedules the rest.
    func start() {
        var height = 0
        while builtCount < blocks.count, builtCount < Self.firstScreenBlocks, height < Self.firstScreenHeight {
            height += Self.estimatedHeight(blocks[builtCount]) + 12
            appendNext()
        }
        generation += 1
        scheduleRest(generation)
    }

    /// Stops building: the blocks not built yet never are.
    func cancel() {
        generation += 1
    }

    private func appendNext() {
        if builtCount % Self.groupSize == 0 || group == nil {
            let next = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [])
            gtk_box_append(cast(view), next)
            group = next
        }
        gtk_box_append(cast(group), widgets.widget(for: blocks[builtCount]))
        builtCount += 1
    }

    private func scheduleRest(_ scheduled: Int) {
        guard builtCount < blocks.count else { return }
        MainLoopIdle.run { [weak self] in
            guard let self, self.generation == scheduled else { return }
            let clock = ContinuousClock()
            let start = clock.now
            repeat { self.appendNext() } while self.builtCount < self.blocks.count && clock.now - start < Self.stepBudget
            self.scheduleRest(scheduled)
        }
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
