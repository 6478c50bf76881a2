import CGLib
import CGtk
import GObjectSupport

/// A GTK widget, held by a strong reference for the wrapper's lifetime.
///
/// This is the type public API takes and returns for a widget. `gtkWidget` and
/// `init(gtkWidget:)` are the bridge for an app that makes or keeps raw GTK widgets.
@MainActor
open class Widget {
    /// The reference this wrapper holds.
    private let reference: ObjectReference

    /// The GtkWidget, for GTK's C functions; valid for the wrapper's lifetime.
    public let gtkWidget: UnsafeMutablePointer<GtkWidget>

    /// Wraps a GtkWidget and adds a reference to it, so the widget lives at least as long as
    /// the wrapper. A floating reference (a widget just made) stays floating, for the container
    /// the widget is put in.
    public init(gtkWidget: UnsafeMutablePointer<GtkWidget>) {
        self.gtkWidget = gtkWidget
        // Not sunk: a wrapper made and dropped before the widget has a parent (a property that
        // wraps on each read) would otherwise take the floating reference away with it.
        reference = ObjectReference(retaining: UnsafeMutableRawPointer(gtkWidget))
    }

    /// Whether both wrap the same GtkWidget (two wrappers of one widget are different objects).
    public func isSame(as other: Widget?) -> Bool {
        other?.gtkWidget == gtkWidget
    }
}

/// A GTK window (a GtkWindow or a subclass, such as AdwWindow).
///
/// Not `Window`: X11's `Window` type comes with GTK's headers to every file that imports them.
@MainActor
public final class WindowWidget: Widget {
    /// The GtkWindow, for GTK's C functions; valid for the wrapper's lifetime.
    public var gtkWindow: UnsafeMutablePointer<GtkWindow> { gcast(gtkWidget)! }

    /// Wraps a GtkWindow and takes a reference to it, as `Widget.init(gtkWidget:)` does.
    public init(gtkWindow: UnsafeMutablePointer<GtkWindow>) {
        super.init(gtkWidget: gcast(gtkWindow)!)
    }
}
