import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport

@testable import DocumentUI

/// Waits until `query` has done all it was asked so far (a stop included, after which it sends
/// nothing: its `synchronize` then answers at once) and the main queue has run what it sent
/// before: after a stopped query, the barrier past which nothing of it can still arrive.
@MainActor
@discardableResult
func waitUntilDoneSending(_ query: DirectoryQuery, timeout: TimeInterval = 60) -> Bool {
    let mark = MainQueueMark()
    query.synchronize {
        DispatchQueue.main.async { MainActor.assumeIsolated { mark.reached = true } }
    }
    return spin(timeout: timeout) { mark.reached }
}

@MainActor
private final class MainQueueMark {
    var reached = false
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
