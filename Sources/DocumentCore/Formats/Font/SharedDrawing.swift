import Foundation

/// One drawing of a font file's specimen at one appearance (the drawing's key), shared by
/// everyone who asks for it while it is under way, and, when it was drawn ahead
/// (`FontSpecimen.drawAhead`), taken by the first who asks after it is done. The table holds
/// the drawings under way and the one kept ahead: one per file and key, so a second ask joins
/// the first and the worker draws it once.
final class SharedDrawing: Sendable {
    typealias Outcome = Result<FontSpecimen, FontSpecimenError>

    let path: FileSystemPath
    let appearance: FontSpecimen.Appearance

    private struct State {
        /// The askers waiting for it; with none (they went away) and not ahead, it is dropped
        /// before it is sent to the worker.
        var waiters = 0
        /// Drawn ahead and not taken yet: drawn with nobody waiting, and kept once done.
        var isAhead = false
        /// Not drawn, for want of askers: nobody may join it any more.
        var isDropped = false
        var isDone = false
    }

    private let state: Locked<State>
    private let outcome: Task<Outcome, Never>

    /// The drawings under way, and the one drawn ahead (done or not) until taken or let go.
    private static let table = Locked<[SharedDrawing]>([])

    /// Starts the drawing on the fonts' queue. Made with the table's lock held, so that its end
    /// (`finished`) finds it in the table.
    private init(path: FileSystemPath, appearance: FontSpecimen.Appearance, isAhead: Bool) {
        self.path = path
        self.appearance = appearance
        let state = Locked(State(waiters: isAhead ? 0 : 1, isAhead: isAhead))
        self.state = state
        outcome = Task.detached(priority: .userInitiated) {
            let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                FontSpecimen.requests.async {
                    let isWanted = state.withLock { state -> Bool in
                        state.isDropped = state.waiters <= 0 && !state.isAhead
                        return !state.isDropped
                    }
                    guard isWanted else { return continuation.resume(returning: .failure(.cancelled)) }
                    continuation.resume(returning: Result { () throws(FontSpecimenError) -> FontSpecimen in
                        try FontSpecimen.drawNow(fileAt: path, appearance: appearance, worker: PreviewWorkers.current)
                    })
                }
            }
            SharedDrawing.finished(state)
            return outcome
        }
    }

    /// The drawing of `path` at `appearance`: the one under way or drawn ahead, else a new one.
    /// A drawing ahead of the same file at another appearance will not be taken: it is let go.
    static func join(_ path: FileSystemPath, _ appearance: FontSpecimen.Appearance) -> SharedDrawing {
        table.withLock { drawings in
            for other in drawings where other.path == path && other.appearance != appearance {
                other.letGoAhead(in: &drawings)
            }
            for same in drawings where same.path == path && same.appearance == appearance {
                // One dropped (its askers went away) and not yet out of the table is not joined.
                let joined: Bool? = same.state.withLock { state in
                    guard !state.isDropped else { return nil }
                    state.waiters += 1
                    state.isAhead = false
                    return state.isDone
                }
                guard let isDone = joined else { continue }
                if isDone { drawings.removeAll { $0 === same } }
                return same
            }
            let drawing = SharedDrawing(path: path, appearance: appearance, isAhead: false)
            drawings.append(drawing)
            return drawing
        }
    }

    /// Starts drawing `path` at `appearance` for whoever asks next, unless it is under way; an
    /// earlier drawing ahead is let go.
    static func ahead(_ path: FileSystemPath, _ appearance: FontSpecimen.Appearance) {
        table.withLock { drawings in
            for other in drawings where !(other.path == path && other.appearance == appearance) {
                other.letGoAhead(in: &drawings)
            }
            let isUnderWay = drawings.contains { drawing in
                drawing.path == path && drawing.appearance == appearance && !drawing.state.withLock { $0.isDropped }
            }
            guard !isUnderWay else { return }
            drawings.append(SharedDrawing(path: path, appearance: appearance, isAhead: true))
        }
    }

    /// Lets go of the drawings ahead of `path` nobody took.
    static func dropAhead(_ path: FileSystemPath) {
        table.withLock { drawings in
            for other in drawings where other.path == path { other.letGoAhead(in: &drawings) }
        }
    }

    /// How many askers wait for drawings of `path` (for tests).
    static func waiters(for path: FileSystemPath) -> Int {
        table.withLock { drawings in
            drawings.filter { $0.path == path }.reduce(0) { sum, drawing in sum + drawing.state.withLock { $0.waiters } }
        }
    }

    /// The drawing's outcome; an asker that goes away stops waiting for it.
    func result() async throws(FontSpecimenError) -> FontSpecimen {
        let outcome = await withTaskCancellationHandler {
            await self.outcome.value
        } onCancel: {
            state.withLock { $0.waiters -= 1 }
        }
        return try outcome.get()
    }

    /// Not kept ahead any more: out of the table when done (else when it ends), and not drawn
    /// when nobody waits for it by the time it would be sent.
    private func letGoAhead(in drawings: inout [SharedDrawing]) {
        let isDone = state.withLock { state -> Bool in
            guard state.isAhead else { return false }
            state.isAhead = false
            return state.isDone
        }
        if isDone { drawings.removeAll { $0 === self } }
    }

    /// The drawing with `state` is over: out of the table unless it was drawn ahead and not taken.
    private static func finished(_ state: Locked<State>) {
        table.withLock { drawings in
            let isKept = state.withLock { state -> Bool in
                state.isDone = true
                return state.isAhead
            }
            if !isKept { drawings.removeAll { $0.state === state } }
        }
    }
}
