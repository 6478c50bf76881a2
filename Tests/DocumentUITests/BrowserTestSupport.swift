import CGLib
import Foundation
import GObjectSupport
@testable import DocumentUI

/// Runs the GLib main context (and, through the bridge, the main dispatch queue and main-actor
/// tasks) until `condition` holds or `timeout` passes; returns the condition's last answer.
@MainActor
@discardableResult
func spin(timeout: TimeInterval = 60, until condition: () -> Bool) -> Bool {
    MainLoopBridge.install()
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        // Bounded: an animation (a spinner) always has something ready.
        var rounds = 0
        while rounds < 50, g_main_context_iteration(nil, 0) != 0 { rounds += 1 }
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// Runs the main context for a while (to see that nothing more happens).
@MainActor
func settle(_ seconds: TimeInterval) {
    _ = spin(timeout: seconds) { false }
}

/// Records every `items-changed` of a model as (position, removed, added).
@MainActor
final class ChangeRecorder {
    private(set) var changes: [[Int]] = []

    init(_ model: BrowserListModel) {
        connectItemsChanged(model.object.model) { [weak self] position, removed, added in
            self?.changes.append([position, removed, added])
        }
    }

    func reset() { changes = [] }
}
