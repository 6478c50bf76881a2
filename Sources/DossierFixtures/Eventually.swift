import Foundation

/// Waits, polling, until `condition` holds or `timeout` passes: a safety net for things that
/// happen in another thread or process, never a timing to assert on. The default is generous
/// (a build under a sanitizer runs several times slower); it only delays a failure.
public func eventually(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
