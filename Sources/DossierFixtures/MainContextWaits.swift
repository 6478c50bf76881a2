import CGLib
import Foundation
import GObjectSupport

/// Runs GLib's default main context (and, through `MainLoopBridge`, the main dispatch queue and
/// main-actor tasks) until `condition` holds or `timeout` passes; returns the condition's last
/// answer. For tests whose outcome arrives through the main loop: GIO callbacks, GTK's frames,
/// a clipboard this process serves. 60 s by default: a safety net, never a measure.
@MainActor
@discardableResult
public func spin(timeout: TimeInterval = 60, until condition: () -> Bool) -> Bool {
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

/// Runs the main context for a while: only to pace synthetic input (a click or a key through
/// xdotool, taken by GTK before the next one). Never a wait for an outcome, which `spin` does,
/// nor the time to let something not happen, which needs a barrier.
@MainActor
public func settle(_ seconds: TimeInterval) {
    _ = spin(timeout: seconds) { false }
}
