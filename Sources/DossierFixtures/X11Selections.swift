import CX11

/// The X selections this process may own, given up for the tests that follow.
///
/// A test that puts something on the clipboard leaves this process its owner; a later program
/// on the same display (Files, when its window shows) then asks this process for it, and the
/// process answers only when it next runs GLib's default context. A test that set a selection
/// gives it up when it ends.
public enum X11Selections {
    /// Makes `selection` (`"CLIPBOARD"`, `"PRIMARY"`) ownerless, from a connection of its own;
    /// the owner hears of it through `SelectionClear`. False when no display could be opened.
    @discardableResult
    public static func giveUp(_ selection: String) -> Bool {
        guard let display = XOpenDisplay(nil) else { return false }
        defer { XCloseDisplay(display) }
        XSetSelectionOwner(display, XInternAtom(display, selection, 0), 0, 0)  // None, CurrentTime
        XSync(display, 0)
        return true
    }
}
