import CGLib
import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// Which items arrived by a live change (a file made on disk while its folder is shown), not
/// by the listing: `BrowserListModel.apply(_:)` records them, and the cell that first shows
/// one animates it in. An item shown long after it arrived (scrolled to later) just appears.
@MainActor
final class ArrivalLog {
    /// How long after its change an arrived item still animates in when a cell first shows it.
    static let window: TimeInterval = 1

    private struct Arrival {
        let recorded: Date
        /// When its animation started (monotonic µs), once a cell showed it.
        var started: Int?
    }

    private var arrivals: [String: Arrival] = [:]

    /// Records the items (by key) that just arrived.
    func record(_ keys: [String]) {
        guard !keys.isEmpty else { return }
        let now = Date()
        arrivals = arrivals.filter { now.timeIntervalSince($0.value.recorded) <= Self.window }
        for key in keys { arrivals[key] = Arrival(recorded: now) }
    }

    /// When the item `key`'s arrival animation started — now (`time`, monotonic µs) when no
    /// cell has shown it yet — or nil when it did not arrive by a live change just now. A cell
    /// bound again mid-animation (the item updated) carries on from the same start.
    func animationStart(for key: String, at time: Int) -> Int? {
        guard let arrival = arrivals[key] else { return nil }
        guard Date().timeIntervalSince(arrival.recorded) <= Self.window || arrival.started != nil else {
            arrivals[key] = nil
            return nil
        }
        if let started = arrival.started {
            if time - started > Int(ArrivalAnimation.duration * 1_000_000) { arrivals[key] = nil; return nil }
            return started
        }
        arrivals[key]?.started = time
        return time
    }
}

/// A cell's arrival: it fades in and grows from 80 % to its size over 200 ms on the widget's
/// frame clock (eased out); a list's cells only fade (each cell of a row growing on its own
/// would not read as one row). Nothing moves when the user turned animations off.
@MainActor
final class ArrivalAnimation {
    static let duration: TimeInterval = 0.2
    /// The scale steps (CSS classes, so no style sheet is parsed per frame): 0.80 … 0.98.
    private static let steps = 10

    private let widget: WidgetPointer
    private let scales: Bool
    private var tickID: guint = 0
    private var start: Int = 0
    private var step: Int?
    /// How far the animation is (0…1), nil when none runs (for tests and screenshots).
    private(set) var progress: Double?

    init(widget: WidgetPointer, scales: Bool = true) {
        self.widget = widget
        self.scales = scales
        Self.addStyle()
    }

    /// Animates the widget in from `start` (monotonic µs); false (and nothing happens) when
    /// animations are off.
    @discardableResult
    func run(from start: Int) -> Bool {
        guard dossier_animations_enabled(widget) != 0 else { return false }
        self.start = start
        show(at: g_get_monotonic_time())
        guard progress != nil, tickID == 0 else { return progress != nil }
        tickID = addTickCallback(to: widget, { [weak self] time in
            self?.frame(at: time) ?? false
        }, removed: { [weak self] in
            // Removed, ended, or the widget is gone: nothing to undo on it any more.
            self?.tickRemoved()
        })
        return true
    }

    /// Ends it at once, the widget as it is at rest (the cell shows another item).
    func stop() {
        // At rest already: the widget is not touched (it may be gone with its view).
        guard progress != nil || step != nil else { return }
        let id = tickID
        tickID = 0
        if id != 0 { gtk_widget_remove_tick_callback(widget, id) }
        show(at: .max)
    }

    private func tickRemoved() {
        guard tickID != 0 else { return }
        // The widget went away mid-animation.
        tickID = 0
        progress = nil
        step = nil
    }

    private func frame(at time: Int) -> Bool {
        show(at: time)
        if progress == nil { tickID = 0 }
        return progress != nil
    }

    private func show(at time: Int) {
        let t = time == .max ? 1 : max(0, min(1, Double(time - start) / 1_000_000 / Self.duration))
        let eased = 1 - pow(1 - t, 3)
        progress = t < 1 ? t : nil
        gtk_widget_set_opacity(widget, t < 1 ? eased : 1)
        let newStep: Int? = t < 1 && scales ? min(Int(eased * Double(Self.steps)), Self.steps - 1) : nil
        guard newStep != step else { return }
        if let step { gtk_widget_remove_css_class(widget, "dossier-arriving-\(step)") }
        if let newStep { gtk_widget_add_css_class(widget, "dossier-arriving-\(newStep)") }
        step = newStep
    }

    private static var styled = false

    private static func addStyle() {
        guard !styled else { return }
        styled = true
        let rules = (0..<steps).map { index in
            String(format: ".dossier-arriving-%d { transform: scale(%.2f); }", index, 0.8 + 0.2 * Double(index) / Double(steps))
        }
        dossier_add_css(rules.joined(separator: "\n"))
    }
}
