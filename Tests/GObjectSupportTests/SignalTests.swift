import CGLib
import CGtk
import Dispatch
import Foundation
import GObjectSupport
import GtkSupport
import XCTest

/// GTK is initialized once per process: a second gtk_init_check after a failed one crashes.
///
/// Kept off the accessibility bus. The UI tests (DossierTests, in this same process) read the
/// real app's windows through AT-SPI, walking every application on the bus: this process would
/// be one of them once it made a widget, and it never answers (it is busy running tests), so
/// each walk would wait 15 s for it and miss short-lived things such as toasts. GTK reads
/// `GTK_A11Y` once, when the first widget gets its accessibility context: it is set for that
/// moment only, so the apps the tests start later keep theirs.
@MainActor
enum GTKDisplay {
    static let isAvailable: Bool = {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { return false }
        setenv("GTK_A11Y", "none", 1)
        defer { unsetenv("GTK_A11Y") }
        guard gtk_init_check() != 0 else { return false }
        let probe = gtk_label_new("")!
        g_object_ref_sink(UnsafeMutableRawPointer(probe))
        g_object_unref(UnsafeMutableRawPointer(probe))
        return true
    }()
}

/// Something a signal closure captures, to see when the closure is released.
private final class Canary {
    var calls = 0
}

final class SignalTests: XCTestCase {
    func testSignalFiresIntoClosure() {
        MainActor.assumeIsolated {
            let action = ObjectReference(taking: UnsafeMutableRawPointer(g_simple_action_new("test", nil)))
            var received: [UnsafeMutableRawPointer?] = []
            connectSignal(action.pointer, "activate") { parameter in received.append(parameter) }
            g_action_activate(OpaquePointer(action.pointer), nil)
            g_action_activate(OpaquePointer(action.pointer), nil)
            XCTAssertEqual(received.count, 2)
        }
    }

    func testDisconnectReleasesTheClosure() {
        MainActor.assumeIsolated {
            let action = ObjectReference(taking: UnsafeMutableRawPointer(g_simple_action_new("test", nil)))
            weak var weakCanary: Canary?
            let connection: SignalConnection
            do {
                let canary = Canary()
                weakCanary = canary
                connection = connectSignal(action.pointer, "activate") { _ in canary.calls += 1 }
            }
            XCTAssertNotNil(weakCanary, "the connected closure keeps what it captured")
            connection.disconnect(from: action.pointer)
            XCTAssertNil(weakCanary, "disconnecting released the closure")
            g_action_activate(OpaquePointer(action.pointer), nil)
        }
    }

    func testFinalizedObjectReleasesItsClosures() {
        MainActor.assumeIsolated {
            weak var weakCanary: Canary?
            var watcher: WeakObject?
            do {
                let action = ObjectReference(taking: UnsafeMutableRawPointer(g_simple_action_new("test", nil)))
                watcher = WeakObject(action.pointer)
                let canary = Canary()
                weakCanary = canary
                connectSignal(action.pointer, "activate") { _ in canary.calls += 1 }
            }
            XCTAssertEqual(watcher?.isAlive, false, "the object was finalized with its last reference")
            XCTAssertNil(weakCanary, "its closure was released by the destroy-notify")
        }
    }

    func testDestroyedWidgetReleasesItsClosures() throws {
        try MainActor.assumeIsolated {
            guard GTKDisplay.isAvailable else {
                throw XCTSkip("no display: widget tests run under `make test`, which starts Xvfb")
            }
            weak var weakCanary: Canary?
            var watcher: WeakObject?
            do {
                let window = gtk_window_new()!
                let button = gtk_button_new_with_label("Press")!
                gtk_window_set_child(dossier_gtk_window(window), button)
                watcher = WeakObject(UnsafeMutableRawPointer(button))
                let canary = Canary()
                weakCanary = canary
                connectSignal(UnsafeMutableRawPointer(button), "clicked") { canary.calls += 1 }
                dossier_g_signal_emit_by_name(UnsafeMutableRawPointer(button), "clicked")
                XCTAssertEqual(canary.calls, 1)
                // The window owns the button; destroying the window disposes of both.
                gtk_window_destroy(dossier_gtk_window(window))
            }
            for _ in 0..<10 { g_main_context_iteration(nil, 0) }
            XCTAssertEqual(watcher?.isAlive, false, "the destroyed button was finalized")
            XCTAssertNil(weakCanary, "the button's closure was released, not left dangling")
        }
    }

    func testWrapperSinksAFloatingReference() throws {
        try MainActor.assumeIsolated {
            guard GTKDisplay.isAvailable else {
                throw XCTSkip("no display: widget tests run under `make test`, which starts Xvfb")
            }
            var watcher: WeakObject?
            do {
                let label = ObjectReference(taking: UnsafeMutableRawPointer(gtk_label_new("floating")!))
                XCTAssertEqual(g_object_is_floating(label.pointer), 0)
                watcher = WeakObject(label.pointer)
            }
            XCTAssertEqual(watcher?.isAlive, false, "dropping the wrapper freed the widget: no leak")
        }
    }
}

