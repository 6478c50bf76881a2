import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// The column of a Markdown document's blocks, built a screenful first and the rest in idle
/// steps, and virtualized: only the groups of blocks near the visible part are in the column;
/// each other group is stood in for by an empty placeholder of its height.
///
/// Shaping every block of a large file (many code views and tables, thousands of labels)
/// before the first frame would leave the window blank; built so, the page shows its start
/// at once and the rest follows in small steps of work, in the document's order.
/// The rest is built while the page is hidden too (a neighbour's page, a closed previewer), at
/// a low priority, into groups kept out of the column; while it is shown, only after its first
/// frame.
///
/// GTK measures every child of a box at each layout, mapped or not: with every group in the
/// column, each showing of a large built file would measure tens of thousands of widgets
/// before its first frame. A group out of the column is not measured: a showing lays out
/// what is near the view, as the first screenful does. A placeholder has the group's height
/// when it was last laid out, or an estimate for a group never laid out (scaled by how the
/// estimates of the groups laid out so far compared); a group above the view whose height
/// turns out different moves the view by as much, and a view at the end stays at the end
/// (unless the view was moved in between: it stays where it was moved to).
@MainActor
final class MarkdownColumn {
    /// A vertical box of groups of `groupSize` blocks (vertical boxes, spaced as the column),
    /// or their placeholders.
    let view: WidgetPointer
    /// Blocks in the document, and how many of them are built so far.
    let blockCount: Int
    private(set) var builtCount = 0

    private let widgets: MarkdownWidgets
    private let blocks: [MarkdownDocument.Block]
    private var generation = 0
    private var isStopped = false
    /// Every group built, in the document's order; the last is appended to.
    private var parts: [Group] = []
    /// The vertical adjustment of the scrolled window around the column, and its handlers.
    private var adjustment: UnsafeMutablePointer<GtkAdjustment>?
    private var adjustmentHandlers: [SignalConnection] = []
    /// A placement waits for the next frame's start (`placeSoon`).
    private var isPlacementPending = false
    /// Shown again, the column builds nothing before that showing's first frame.
    private var isWaitingForFrame = false
    /// Groups put into the column at the last placement with the height their placeholder
    /// had, whether they were above the view then, where the view was, and whether at the end.
    private var corrections: [(group: Group, height: Int, isAbove: Bool)] = []
    private var placedValue = 0.0
    private var wasAtEnd = false
    /// Heights of the groups laid out so far, and their estimates.
    private var laidOutHeight = 0, laidOutEstimate = 0

    /// Blocks a group holds. Appended to the column itself, every step had GTK measure every
    /// block built so far again; a group keeps its size measured until a block is added to it.
    /// Small enough that the groups near the view are not much more than the view.
    static let groupSize = 16
    static let spacing: Int32 = 12

    /// Estimated height, in pixels, built before the page shows: about a screen.
    static let firstScreenHeight = 1000
    /// Blocks built before the page shows at most, whatever their estimated height.
    static let firstScreenBlocks = 40
    /// Work per idle step, at least one block: short enough for input and frames between.
    static let stepBudget: Duration = .milliseconds(4)

    /// A group of blocks and the placeholder that stands in for it out of the column.
    @MainActor
    private final class Group {
        let content: WidgetPointer
        let placeholder: WidgetPointer
        var isInColumn = false
        var blockCount = 0
        /// The sum of its blocks' estimated heights and spacing.
        var estimate = 0
        /// Its height when it was last laid out.
        var height: Int?
        /// The height its placeholder asks for.
        var placeholderHeight = 0
        var isCounted = false

        init() {
            content = makeBox(GTK_ORIENTATION_VERTICAL, spacing: MarkdownColumn.spacing, [])
            placeholder = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
            g_object_ref_sink(raw(content))  // in and out of the column for as long as it lives
            g_object_ref_sink(raw(placeholder))
        }

        isolated deinit {
            g_object_unref(raw(content))
            g_object_unref(raw(placeholder))
        }
    }

    init(widgets: MarkdownWidgets, blocks: [MarkdownDocument.Block]) {
        self.widgets = widgets
        self.blocks = blocks
        blockCount = blocks.count
        view = makeBox(GTK_ORIENTATION_VERTICAL, spacing: Self.spacing, [])
        g_object_ref_sink(raw(view))  // appended to for as long as the column lives
        connectSignal(raw(view), "map") { [weak self] in self?.shown() }
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
        place()
        if gtk_widget_get_mapped(view) != 0 { shown() } else { scheduleRest(generation) }
    }

    /// Stops building: the blocks not built yet never are.
    func cancel() {
        isStopped = true
        generation += 1
    }

    /// Keeps in the column only the groups within a screen of the part that `adjustment` (the
    /// scrolled window's vertical one) shows, from now on.
    func follow(_ adjustment: UnsafeMutablePointer<GtkAdjustment>) {
        g_object_ref(raw(adjustment))
        self.adjustment = adjustment
        for signal in ["value-changed", "changed"] {
            adjustmentHandlers.append(connectSignal(raw(adjustment), signal) { [weak self] in
                self?.placeSoon()
            })
        }
        place()
    }

    /// The groups of blocks, in order, in the column or not.
    var groups: [WidgetPointer] { parts.map(\.content) }

    /// True when `group` (one of `groups`) is in the column rather than its placeholder.
    func isInColumn(_ group: WidgetPointer) -> Bool {
        parts.first { $0.content == group }?.isInColumn ?? false
    }

    // MARK: Placing the groups

    /// Places the groups at the start of the next frame, before its layout. The adjustment
    /// changes during a layout too (the scrolled window's allocation), when the column must
    /// not change.
    private func placeSoon() {
        guard !isPlacementPending, !isStopped else { return }
        isPlacementPending = true
        onNextFrame(of: view) { [weak self] in self?.place() }
    }

    /// Puts the groups that overlap the visible part, half a screen above it or a screen below
    /// it into the column, and the rest out. Before the first layout, the visible part is taken
    /// to be the first screen. The column's offset in the scrolled window (a margin) is left
    /// out: the margins cover it. A group holding the focus (a selection) stays.
    private func place() {
        isPlacementPending = false
        guard !isStopped else { return }
        correctHeights()
        var value = 0.0, page = Double(Self.firstScreenHeight), upper = 0.0
        if let adjustment, gtk_adjustment_get_page_size(adjustment) > 0 {
            value = gtk_adjustment_get_value(adjustment)
            page = gtk_adjustment_get_page_size(adjustment)
            upper = gtk_adjustment_get_upper(adjustment)
        }
        placedValue = value
        wasAtEnd = upper > 0 && value > 0 && value + page >= upper - 1
        let top = value - page / 2, bottom = value + 2 * page
        let focus = gtk_widget_get_root(view).flatMap { gtk_root_get_focus($0) }
        var y = 0.0
        for group in parts {
            let height = Double(self.height(of: group))
            let isNear = y + height >= top && y <= bottom
            if isNear, !group.isInColumn {
                corrections.append((group, Int(height), y + height <= value))
                swap(group)
            } else if !isNear, group.isInColumn, !(focus.map { gtk_widget_is_ancestor($0, group.content) != 0 } ?? false) {
                if let laidOut = laidOutHeight(of: group) { group.height = laidOut }
                swap(group)
            }
            y += height + Double(Self.spacing)
        }
        if !corrections.isEmpty { placeSoon() }  // after the layout that measures them
    }

    /// After a layout of the groups last put into the column: the view moves by the difference
    /// between their heights and their placeholders' for those above it, and stays at the end;
    /// unless it was moved since they were placed (a scroll, Home, a drag of the scrollbar),
    /// when it stays where it was moved to: put back at the end, a view moved to the top
    /// stayed at the end, its groups placed for the end again and never corrected again.
    private func correctHeights() {
        guard !corrections.isEmpty, let adjustment else { return }
        var shift = 0
        var laidOut: [(group: Group, height: Int, isAbove: Bool)] = []
        for correction in corrections {
            guard correction.group.isInColumn, gtk_widget_get_mapped(correction.group.content) != 0, let height = laidOutHeight(of: correction.group) else { continue }
            correction.group.height = height
            laidOut.append(correction)
            if correction.isAbove { shift += height - correction.height }
        }
        corrections.removeAll { correction in laidOut.contains { $0.group === correction.group } || !correction.group.isInColumn }
        let page = gtk_adjustment_get_page_size(adjustment), upper = gtk_adjustment_get_upper(adjustment)
        let value = gtk_adjustment_get_value(adjustment)
        // The layout moves the view only to keep it within the column's new height: anything
        // else moved it, and no correction for the groups placed before applies any more.
        guard abs(value - max(0, min(placedValue, upper - page))) < 0.5 else {
            corrections.removeAll()
            return
        }
        if wasAtEnd, !laidOut.isEmpty {
            move(adjustment, to: upper - page)
        } else if shift != 0 {
            move(adjustment, to: value + Double(shift))
        }
    }

    /// Moves the view without ending a scroll animation that has just started (Home, Page Up
    /// with animations on): `gtk_adjustment_set_value` ends it where it is, and the key press
    /// is lost; `configure` leaves it going from where it started.
    private func move(_ adjustment: UnsafeMutablePointer<GtkAdjustment>, to value: Double) {
        gtk_adjustment_configure(
            adjustment, value, gtk_adjustment_get_lower(adjustment), gtk_adjustment_get_upper(adjustment),
            gtk_adjustment_get_step_increment(adjustment), gtk_adjustment_get_page_increment(adjustment),
            gtk_adjustment_get_page_size(adjustment))
    }

    /// The height `group` has in the column now: its own, or its placeholder's (until it is
    /// laid out in the column).
    private func height(of group: Group) -> Int {
        if group.isInColumn, let laidOut = laidOutHeight(of: group) { return laidOut }
        return group.placeholderHeight
    }

    private func setPlaceholderHeight(of group: Group, to height: Int) {
        guard height != group.placeholderHeight else { return }
        group.placeholderHeight = height
        gtk_widget_set_size_request(group.placeholder, -1, Int32(height))
    }

    /// The height of `group` at its last layout, if it was laid out with its blocks as they are.
    private func laidOutHeight(of group: Group) -> Int? {
        guard group.isInColumn else { return nil }
        let height = Int(gtk_widget_get_height(group.content))
        guard height > 0 else { return nil }
        if !group.isCounted, group.blockCount == Self.groupSize {
            group.isCounted = true
            laidOutHeight += height
            laidOutEstimate += group.estimate
        }
        return height
    }

    /// The estimate of `group`'s height, scaled by how the estimates compared with the heights
    /// of the groups laid out so far.
    private func scaledEstimate(of group: Group) -> Int {
        guard laidOutEstimate > 0 else { return group.estimate }
        return group.estimate * laidOutHeight / laidOutEstimate
    }

    /// Puts `group` into the column in place of its placeholder, or its placeholder in its place.
    private func swap(_ group: Group) {
        let (outgoing, incoming) = group.isInColumn ? (group.content, group.placeholder) : (group.placeholder, group.content)
        if group.isInColumn { setPlaceholderHeight(of: group, to: group.height ?? scaledEstimate(of: group)) }
        gtk_box_insert_child_after(cast(view), incoming, outgoing)
        gtk_box_remove(cast(view), outgoing)
        group.isInColumn.toggle()
    }

    // MARK: Building

    private func appendNext() {
        if builtCount % Self.groupSize == 0 || parts.isEmpty {
            let group = Group()
            parts.append(group)
            gtk_box_append(cast(view), group.placeholder)
        }
        let group = parts[parts.count - 1]
        let block = blocks[builtCount]
        gtk_box_append(cast(group.content), widgets.widget(for: block))
        group.blockCount += 1
        group.estimate += Self.estimatedHeight(block) + (group.blockCount > 1 ? Int(Self.spacing) : 0)
        if !group.isInColumn { setPlaceholderHeight(of: group, to: scaledEstimate(of: group)) }
        builtCount += 1
    }

    /// Idle steps until every block is built: at a low priority while the column is not on
    /// screen, into groups out of the column (a placeholder grows with its group's estimate).
    /// After a step, the groups are placed again.
    private func scheduleRest(_ scheduled: Int) {
        guard builtCount < blocks.count, !isStopped else { return }
        let isShown = gtk_widget_get_mapped(view) != 0
        MainLoopIdle.run(priority: isShown ? G_PRIORITY_DEFAULT_IDLE : G_PRIORITY_LOW) { [weak self] in
            guard let self, self.generation == scheduled, !self.isWaitingForFrame else { return }
            let clock = ContinuousClock()
            let start = clock.now
            repeat { self.appendNext() } while self.builtCount < self.blocks.count && clock.now - start < Self.stepBudget
            self.place()
            self.scheduleRest(scheduled)
        }
    }

    /// Shown (again): building waits for the showing's first frame, so that neither a step nor
    /// the layout it causes comes before it. The first frame's tick comes before its layout:
    /// the steps wait for the next one.
    private func shown() {
        guard !isStopped else { return }
        isWaitingForFrame = true
        generation += 1
        let scheduled = generation
        placeSoon()
        onNextFrame(of: view) { [weak self] in
            guard let self else { return }
            onNextFrame(of: self.view) { [weak self] in
                guard let self, self.generation == scheduled else { return }
                self.isWaitingForFrame = false
                self.scheduleRest(scheduled)
            }
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
