/// Where the browser has been: back and forward, as in a web browser.
struct BrowserHistory {
    private(set) var back: [BrowserLocation] = []
    private(set) var forward: [BrowserLocation] = []

    var canGoBack: Bool { !back.isEmpty }
    var canGoForward: Bool { !forward.isEmpty }

    /// Leaving `current` for a new place: it goes on the back stack, forward is cleared.
    mutating func leave(_ current: BrowserLocation) {
        if back.last != current { back.append(current) }
        forward.removeAll()
        if back.count > 200 { back.removeFirst(back.count - 200) }
    }

    /// The place to go back to from `current`, if any.
    mutating func goBack(from current: BrowserLocation) -> BrowserLocation? {
        guard let target = back.popLast() else { return nil }
        forward.append(current)
        return target
    }

    mutating func goForward(from current: BrowserLocation) -> BrowserLocation? {
        guard let target = forward.popLast() else { return nil }
        back.append(current)
        return target
    }
}
