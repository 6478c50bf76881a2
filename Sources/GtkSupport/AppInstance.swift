import CGLib
import CGtk
import GObjectSupport

/// The running app's GtkApplication (or AdwApplication): what windows belong to and what keeps
/// the process running while they are open.
///
/// `gtkApplication` and `init(gtkApplication:)` are the bridge for an app that made it in C.
/// Not `Application`: DocumentCore's `Application` is an installed app that opens documents.
@MainActor
public final class AppInstance {
    /// The reference this wrapper holds.
    private let reference: ObjectReference

    /// The GtkApplication, for GTK's C functions; valid for the wrapper's lifetime.
    public var gtkApplication: UnsafeMutablePointer<GtkApplication> { reference.cast() }

    /// Wraps a GtkApplication and adds a reference to it (the caller keeps its own).
    public init(gtkApplication: UnsafeMutablePointer<GtkApplication>) {
        reference = ObjectReference(retaining: UnsafeMutableRawPointer(gtkApplication))
    }

    /// Wraps the application `reference` holds.
    init(reference: ObjectReference) {
        self.reference = reference
    }
}
