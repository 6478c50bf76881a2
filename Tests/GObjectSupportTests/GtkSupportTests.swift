import CGLib
import CGtk
import Foundation
import GObjectSupport
import GtkSupport
import XCTest

/// Lets GLib run what is pending (disposal, idle work) a few times.
private func drainMainContext() {
    for _ in 0..<10 { g_main_context_iteration(nil, 0) }
}

/// GtkSupport's wrappers (the types of DocumentUI's public API) and its signal trampolines:
/// real GObjects, real GTK widgets under the test session's display.
final class GtkSupportTests: XCTestCase {
    private func requireDisplay() throws {
        guard MainActor.assumeIsolated({ GTKDisplay.isAvailable }) else {
            throw XCTSkip("no display: widget tests run under `make test`, which starts Xvfb")
        }
    }

    func testWidgetKeepsItsWidgetAliveUntilTheWrapperGoes() throws {
        try requireDisplay()
        try MainActor.assumeIsolated {
            let label = gtk_label_new("held")!
            g_object_ref_sink(UnsafeMutableRawPointer(label))
            let watcher = WeakObject(widget: label)
            var wrapper: Widget? = Widget(gtkWidget: label)
            g_object_unref(UnsafeMutableRawPointer(label))
            XCTAssertTrue(watcher.isAlive, "the wrapper's reference keeps the widget")
            XCTAssertEqual(try XCTUnwrap(wrapper).gtkWidget, label)
            wrapper = nil
            XCTAssertFalse(watcher.isAlive, "the widget went with the wrapper's reference")
        }
    }

    func testWrappingLeavesAFloatingWidgetToItsContainer() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let label = gtk_label_new("floating")!
            let watcher = WeakObject(widget: label)
            do {
                // What a public property that wraps on each read does before the widget has a parent.
                let wrapper = Widget(gtkWidget: label)
                XCTAssertEqual(wrapper.gtkWidget, label)
            }
            XCTAssertTrue(watcher.isAlive, "a dropped wrapper did not take the floating reference with it")
            XCTAssertNotEqual(g_object_is_floating(UnsafeMutableRawPointer(label)), 0, "the reference is still floating")

            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            g_object_ref_sink(UnsafeMutableRawPointer(box))
            gtk_box_append(cast(box), label)
            XCTAssertEqual(g_object_is_floating(UnsafeMutableRawPointer(label)), 0, "the container sank it")
            g_object_unref(UnsafeMutableRawPointer(box))
            drainMainContext()
            XCTAssertFalse(watcher.isAlive, "the container's release finalized it: no reference leaked")
        }
    }

    func testWindowWidgetBridgesItsWindow() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let raw = gtk_window_new()!
            let watcher = WeakObject(widget: raw)
            var window: WindowWidget? = WindowWidget(gtkWindow: window(raw))
            XCTAssertEqual(window?.gtkWidget, raw)
            XCTAssertEqual(window?.gtkWindow, GtkSupport.window(raw))
            XCTAssertTrue(window?.isSame(as: Widget(gtkWidget: raw)) == true, "two wrappers of one window are the same window")
            let other = gtk_label_new("other")!
            g_object_ref_sink(UnsafeMutableRawPointer(other))
            XCTAssertFalse(window?.isSame(as: Widget(gtkWidget: other)) == true)
            g_object_unref(UnsafeMutableRawPointer(other))
            gtk_window_destroy(GtkSupport.window(raw))
            drainMainContext()
            XCTAssertTrue(watcher.isAlive, "the wrapper holds the destroyed window until it goes")
            window = nil
            drainMainContext()
            XCTAssertFalse(watcher.isAlive, "no reference leaked")
        }
    }

    func testIconHoldsItsGIcon() {
        let gIcon = g_themed_icon_new("text-x-generic")!
        let watcher = WeakObject(UnsafeMutableRawPointer(gIcon))
        var icon: Icon? = Icon(gIcon: gIcon)
        unref(gIcon)
        XCTAssertTrue(watcher.isAlive, "the icon's reference keeps the GIcon")
        XCTAssertEqual(icon?.gIcon, gIcon)
        icon = nil
        XCTAssertFalse(watcher.isAlive)
    }

    func testItemsChangedReportsEachChange() {
        MainActor.assumeIsolated {
            let store = g_list_store_new(dossier_g_type_object())!
            defer { unref(store) }
            var changes: [[Int]] = []
            connectItemsChanged(raw(store)) { position, removed, added in changes.append([position, removed, added]) }
            for _ in 0..<2 {
                let item = g_object_new_with_properties(dossier_g_type_object(), 0, nil, nil)!
                g_list_store_append(store, item)
                g_object_unref(item)
            }
            g_list_store_remove(store, 0)
            XCTAssertEqual(changes, [[0, 0, 1], [1, 0, 1], [0, 1, 0]])
        }
    }

    func testClickSignalPassesPressesAndPosition() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let gesture = gtk_gesture_click_new()!
            g_object_ref_sink(raw(gesture))
            defer { unref(gesture) }
            var received: [(Int32, Double, Double)] = []
            connectClickSignal(raw(gesture), "pressed") { presses, x, y in received.append((presses, x, y)) }

            // GtkGestureClick::pressed (n_press, x, y), emitted as GTK does, through GValues.
            var values = [GValue](repeating: GValue(), count: 4)
            g_value_init(&values[0], gtk_gesture_click_get_type())
            g_value_set_object(&values[0], raw(gesture))
            g_value_init(&values[1], GType(6 << 2))  // G_TYPE_INT
            g_value_set_int(&values[1], 2)
            g_value_init(&values[2], GType(15 << 2))  // G_TYPE_DOUBLE
            g_value_set_double(&values[2], 12.5)
            g_value_init(&values[3], GType(15 << 2))
            g_value_set_double(&values[3], 40)
            g_signal_emitv(&values, g_signal_lookup("pressed", gtk_gesture_click_get_type()), 0, nil)
            for index in values.indices { g_value_unset(&values[index]) }

            XCTAssertEqual(received.count, 1)
            XCTAssertEqual(received.first?.0, 2)
            XCTAssertEqual(received.first?.1, 12.5)
            XCTAssertEqual(received.first?.2, 40)
        }
    }

    func testTickCallbackRunsUntilItStopsThenReportsItsRemoval() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let window = gtk_window_new()!
            defer { gtk_window_destroy(GtkSupport.window(window)) }
            gtk_window_set_default_size(GtkSupport.window(window), 80, 60)
            gtk_window_present(GtkSupport.window(window))
            var times: [Int] = []
            var removed = false
            addTickCallback(to: window, { time in
                times.append(time)
                return times.count < 3
            }, removed: { removed = true })
            // Frames come at the display's pace: wait for the condition, with a safety net.
            let deadline = Date().addingTimeInterval(60)
            while !removed, Date() < deadline {
                if g_main_context_iteration(nil, 0) == 0 { usleep(2_000) }
            }
            XCTAssertTrue(removed, "the callback was removed once it returned false")
            XCTAssertEqual(times.count, 3, "it ran until it returned false, and not after")
            XCTAssertEqual(times, times.sorted(), "each frame's time is the frame clock's, in order")
        }
    }
}
