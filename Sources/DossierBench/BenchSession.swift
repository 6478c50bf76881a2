import CGLib
import CX11
import Foundation

/// What every bench that reads the screen needs before it starts: a display and a session bus
/// (`make bench` starts both) and the peer it is measured against.
struct BenchSession {
    let display: OpaquePointer
    let bus: OpaquePointer

    /// The session for bench `name` against `peer` (its program, and what Debian calls it);
    /// nil, with the reason printed as the bench's line, when something is missing.
    init?(_ name: String, peer program: String, named peerName: String) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil, environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            print("\(name): skipped, needs a display and a session bus (make bench starts them)")
            return nil
        }
        guard FileManager.default.isExecutableFile(atPath: program) else {
            print("\(name): skipped, \(peerName) is not installed")
            return nil
        }
        guard let display = XOpenDisplay(nil), let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else {
            print("\(name): skipped, the display or the session bus cannot be reached")
            return nil
        }
        dossier_x11_tolerate_errors()
        self.display = display
        self.bus = bus
    }

    /// Closes the display (the bus is the process's shared one).
    func close() { XCloseDisplay(display) }
}
