import CGLib
import CGtk
import GObjectSupport

// The calls most views make, typed: what a widget shows and how it takes space, and the few
// containers and controls an app builds its own windows from. Each class holds its GTK widget as
// `Widget` does; `gtkWidget` stays the bridge to anything not covered here.

extension Widget {
    /// Whether the widget is shown (`gtk_widget_set_visible`).
    public var isVisible: Bool {
        get { gtk_widget_get_visible(gtkWidget) != 0 }
        set { gtk_widget_set_visible(gtkWidget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes input; an insensitive widget is drawn greyed out.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(gtkWidget) != 0 }
        set { gtk_widget_set_sensitive(gtkWidget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes the width its parent has to spare.
    public var expandsHorizontally: Bool {
        get { gtk_widget_get_hexpand(gtkWidget) != 0 }
        set { gtk_widget_set_hexpand(gtkWidget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes the height its parent has to spare.
    public var expandsVertically: Bool {
        get { gtk_widget_get_vexpand(gtkWidget) != 0 }
        set { gtk_widget_set_vexpand(gtkWidget, newValue ? 1 : 0) }
    }

    /// The text shown when the pointer rests on the widget; nil for none.
    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(gtkWidget).map { String(cString: $0) } }
        set { gtk_widget_set_tooltip_text(gtkWidget, newValue) }
    }

    /// The width the widget was last given, in logical pixels (0 before it is shown).
    public var width: Int { Int(gtk_widget_get_width(gtkWidget)) }

    /// The height the widget was last given, in logical pixels (0 before it is shown).
    public var height: Int { Int(gtk_widget_get_height(gtkWidget)) }

    /// The smallest size the widget asks for.
    public func setMinimumSize(width: Int, height: Int) {
        gtk_widget_set_size_request(gtkWidget, Int32(width), Int32(height))
    }

    /// The name screen readers and accessibility tests read for the widget.
    public func setAccessibleName(_ name: String) {
        GtkSupport.setAccessibleName(gtkWidget, name)
    }

    /// Adds a style class (`"toolbar"`, `"osd"`, `"dim-label"`…).
    public func addStyleClass(_ name: String) {
        gtk_widget_add_css_class(gtkWidget, name)
    }

    /// Removes a style class.
    public func removeStyleClass(_ name: String) {
        gtk_widget_remove_css_class(gtkWidget, name)
    }

    /// Asks for the widget to be drawn again at the next frame.
    public func redraw() {
        gtk_widget_queue_draw(gtkWidget)
    }
}

/// Where a widget sits in the space its parent gives it, across one axis.
public enum Alignment: Sendable {
    /// Stretched over all of it.
    case fill
    /// At its leading (or top) edge.
    case start
    /// At its trailing (or bottom) edge.
    case end
    /// In the middle.
    case center

    var gtkAlign: GtkAlign {
        switch self {
        case .fill: GTK_ALIGN_FILL
        case .start: GTK_ALIGN_START
        case .end: GTK_ALIGN_END
        case .center: GTK_ALIGN_CENTER
        }
    }

    init(_ align: GtkAlign) {
        switch align {
        case GTK_ALIGN_START: self = .start
        case GTK_ALIGN_END: self = .end
        case GTK_ALIGN_CENTER: self = .center
        default: self = .fill
        }
    }
}

extension Widget {
    /// Where the widget sits across the width it is given.
    public var horizontalAlignment: Alignment {
        get { Alignment(gtk_widget_get_halign(gtkWidget)) }
        set { gtk_widget_set_halign(gtkWidget, newValue.gtkAlign) }
    }

    /// Where the widget sits across the height it is given.
    public var verticalAlignment: Alignment {
        get { Alignment(gtk_widget_get_valign(gtkWidget)) }
        set { gtk_widget_set_valign(gtkWidget, newValue.gtkAlign) }
    }
}

/// A row or column of widgets (a GtkBox).
@MainActor
public final class Box: Widget {
    /// Which way a box lays out its children.
    public enum Axis: Sendable {
        /// Children side by side, in reading order.
        case horizontal
        /// Children one above another.
        case vertical
    }

    /// A box laying out `children` along `axis`, `spacing` pixels apart.
    public init(_ axis: Axis, spacing: Int = 0, _ children: [Widget] = []) {
        super.init(gtkWidget: gtk_box_new(axis == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, Int32(spacing)))
        for child in children { append(child) }
    }

    /// Adds `child` after the others.
    public func append(_ child: Widget) {
        gtk_box_append(gcast(gtkWidget), child.gtkWidget)
    }

    /// Takes `child` out of the box.
    public func remove(_ child: Widget) {
        gtk_box_remove(gcast(gtkWidget), child.gtkWidget)
    }
}

/// A line or paragraph of text (a GtkLabel).
@MainActor
public final class Label: Widget {
    /// A label showing `text`.
    public init(_ text: String = "") {
        super.init(gtkWidget: gtk_label_new(text))
    }

    /// The text shown, as plain text.
    public var text: String {
        get { String(cString: gtk_label_get_text(OpaquePointer(gtkWidget))) }
        set { gtk_label_set_text(OpaquePointer(gtkWidget), newValue) }
    }

    /// Whether a long text wraps onto more lines instead of widening the label.
    public var wraps: Bool {
        get { gtk_label_get_wrap(OpaquePointer(gtkWidget)) != 0 }
        set { gtk_label_set_wrap(OpaquePointer(gtkWidget), newValue ? 1 : 0) }
    }

    /// Where the text sits across the label's width: 0 at the leading edge, 0.5 centred, 1 at the trailing one.
    public var horizontalPlacement: Double {
        get { Double(gtk_label_get_xalign(OpaquePointer(gtkWidget))) }
        set { gtk_label_set_xalign(OpaquePointer(gtkWidget), Float(newValue)) }
    }
}

/// A push button with a text or an icon (a GtkButton).
@MainActor
public final class Button: Widget {
    /// A button labelled `label`.
    public init(label: String) {
        super.init(gtkWidget: gtk_button_new_with_label(label))
    }

    /// A button showing the themed icon `iconName` (give it an accessible name and a tooltip).
    public init(iconName: String) {
        super.init(gtkWidget: gtk_button_new_from_icon_name(iconName))
    }

    /// The action the button activates (`"win.undo"`, `"app.quit"`); the button is greyed out
    /// while that action is disabled.
    public var actionName: String? {
        get { gtk_actionable_get_action_name(OpaquePointer(gtkWidget)).map { String(cString: $0) } }
        set { gtk_actionable_set_action_name(OpaquePointer(gtkWidget), newValue) }
    }

    /// Runs `body` each time the button is clicked.
    public func onClicked(_ body: @escaping @MainActor () -> Void) {
        connectSignal(UnsafeMutableRawPointer(gtkWidget), "clicked", body)
    }
}

/// A window's title bar (an AdwHeaderBar), with its window controls.
@MainActor
public final class HeaderBar: Widget {
    /// An empty header bar: the window's title in the middle, its controls at the ends.
    public init() {
        super.init(gtkWidget: adw_header_bar_new())
    }

    /// Puts `widget` in the middle, in place of the window's title.
    public func setTitle(_ widget: Widget) {
        adw_header_bar_set_title_widget(OpaquePointer(gtkWidget), widget.gtkWidget)
    }

    /// Adds `widget` at the leading end, after those already there.
    public func addAtStart(_ widget: Widget) {
        adw_header_bar_pack_start(OpaquePointer(gtkWidget), widget.gtkWidget)
    }

    /// Adds `widget` at the trailing end, before those already there.
    public func addAtEnd(_ widget: Widget) {
        adw_header_bar_pack_end(OpaquePointer(gtkWidget), widget.gtkWidget)
    }
}

/// A title with a subtitle under it, for a header bar (an AdwWindowTitle).
@MainActor
public final class WindowTitle: Widget {
    /// A title, with `subtitle` under it (none when empty).
    public init(_ title: String, subtitle: String = "") {
        super.init(gtkWidget: adw_window_title_new(title, subtitle))
    }

    /// The line under the title; empty for none.
    public var subtitle: String {
        get { String(cString: adw_window_title_get_subtitle(OpaquePointer(gtkWidget))) }
        set { adw_window_title_set_subtitle(OpaquePointer(gtkWidget), newValue) }
    }
}

/// A page that says why there is nothing else to show: an icon, a title and a description (an
/// AdwStatusPage). Screen readers read it as a named group.
@MainActor
public final class StatusPage: Widget {
    /// A page with a themed icon, a title and a description (plain text).
    public init(iconName: String, title: String, description: String) {
        super.init(gtkWidget: dossier_status_page_new())
        adw_status_page_set_icon_name(OpaquePointer(gtkWidget), iconName)
        adw_status_page_set_title(OpaquePointer(gtkWidget), title)
        adw_status_page_set_description(OpaquePointer(gtkWidget), description)
    }
}

/// A widget the app draws itself with cairo (a GtkDrawingArea).
@MainActor
public final class DrawingArea: Widget {
    /// The area's drag gesture, made with the first drag handler.
    private var drag: OpaquePointer?

    /// An area that draws nothing until `onDraw` says how.
    public init() {
        super.init(gtkWidget: gtk_drawing_area_new())
    }

    /// How the area draws: `body` gets the cairo context and the area's width and height, at
    /// each frame the area is drawn in (after `redraw()`, a resize, a change of scale).
    public func onDraw(_ body: @escaping @MainActor (_ cairo: OpaquePointer, _ width: Double, _ height: Double) -> Void) {
        setDrawFunction(of: gcast(gtkWidget)!) { cairo, width, height in
            guard let cairo else { return }
            body(cairo, Double(width), Double(height))
        }
    }

    /// Follows a drag of the primary button or a finger: `began` gets where it started, in the
    /// area's coordinates; `moved` and `ended` get the offset from there.
    public func onDrag(
        began: @escaping @MainActor (_ x: Double, _ y: Double) -> Void,
        moved: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Void,
        ended: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Void
    ) {
        let gesture = drag ?? {
            let made = gtk_gesture_drag_new()!
            gtk_widget_add_controller(gtkWidget, made)
            drag = made
            return made
        }()
        let instance = UnsafeMutableRawPointer(gesture)
        connectPairSignal(instance, "drag-begin", began)
        connectPairSignal(instance, "drag-update", moved)
        connectPairSignal(instance, "drag-end", ended)
    }
}

/// A menu (a GMenu): items that activate actions by name, grouped in sections that GTK draws
/// with separators between them. Popovers and menu buttons show it.
@MainActor
public final class Menu {
    /// The reference this wrapper holds.
    private let reference: ObjectReference

    /// The GMenuModel, for GTK's C functions; valid for the wrapper's lifetime.
    public var gMenuModel: UnsafeMutablePointer<GMenuModel> { reference.cast() }

    /// An empty menu.
    public init() {
        reference = ObjectReference(taking: UnsafeMutableRawPointer(g_menu_new()!))
    }

    /// A menu of sections, each a list of items as (label, detailed action name).
    public convenience init(sections: [[(label: String, action: String)]]) {
        self.init()
        for items in sections where !items.isEmpty {
            let section = Menu()
            for item in items { section.append(item.label, action: item.action) }
            append(section: section)
        }
    }

    /// Adds an item labelled `label` that activates `action`, a detailed action name
    /// (`"win.save"`, or `"browser.sort::name"` for a stateful action's value).
    public func append(_ label: String, action: String) {
        g_menu_append(OpaquePointer(reference.pointer), label, action)
    }

    /// Adds the items of `section` as a section of their own.
    public func append(section: Menu) {
        g_menu_append_section(OpaquePointer(reference.pointer), nil, section.gMenuModel)
    }
}

/// A button that opens a menu (a GtkMenuButton).
@MainActor
public final class MenuButton: Widget {
    /// The menu shown; kept with the button.
    private let menu: Menu

    /// A button showing the themed icon `iconName` that opens `menu`; `name` is what screen
    /// readers read and the tooltip shows.
    public init(iconName: String, name: String, menu: Menu) {
        self.menu = menu
        super.init(gtkWidget: gtk_menu_button_new())
        gtk_menu_button_set_icon_name(OpaquePointer(gtkWidget), iconName)
        gtk_menu_button_set_menu_model(OpaquePointer(gtkWidget), menu.gMenuModel)
        setAccessibleName(name)
        tooltip = name
    }
}

/// A named action of a window or the application (a GSimpleAction without a parameter), which
/// buttons, menus and shortcuts activate by name.
@MainActor
public final class Action {
    /// The reference this wrapper holds.
    private let reference: ObjectReference

    /// The GSimpleAction, for GIO's C functions; valid for the wrapper's lifetime.
    public var gAction: OpaquePointer { OpaquePointer(reference.pointer) }

    /// An action named `name` that runs `body` when activated.
    public init(_ name: String, _ body: @escaping @MainActor () -> Void) {
        reference = ObjectReference(taking: UnsafeMutableRawPointer(g_simple_action_new(name, nil)!))
        connectSignal(reference.pointer, "activate") { (_: UnsafeMutableRawPointer?) in body() }
    }

    /// Whether the action can be activated; the buttons and menu items that name it follow.
    public var isEnabled: Bool {
        get { g_action_get_enabled(gAction) != 0 }
        set { g_simple_action_set_enabled(gAction, newValue ? 1 : 0) }
    }
}

extension WindowWidget {
    /// A new window of `application` (an AdwApplicationWindow), not shown until `present()`.
    public convenience init(application: AppInstance) {
        self.init(gtkWindow: gcast(adw_application_window_new(application.gtkApplication))!)
    }

    /// The title the window manager and the window list show.
    public var title: String? {
        get { gtk_window_get_title(gtkWindow).map { String(cString: $0) } }
        set { gtk_window_set_title(gtkWindow, newValue) }
    }

    /// The size the window opens at, in logical pixels.
    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(gtkWindow, Int32(width), Int32(height))
    }

    /// Fills the window with `content`, under no title bar of GTK's (put a `HeaderBar` in the
    /// content for one).
    public func setContent(_ content: Widget) {
        let instance = UnsafeMutableRawPointer(gtkWidget).assumingMemoryBound(to: GTypeInstance.self)
        if g_type_check_instance_is_a(instance, adw_application_window_get_type()) != 0 {
            adw_application_window_set_content(gcast(gtkWidget), content.gtkWidget)
        } else if g_type_check_instance_is_a(instance, adw_window_get_type()) != 0 {
            adw_window_set_content(gcast(gtkWidget), content.gtkWidget)
        } else {
            gtk_window_set_child(gtkWindow, content.gtkWidget)
        }
    }

    /// Shows the window and brings it forward.
    public func present() {
        gtk_window_present(gtkWindow)
    }

    /// Asks the window to close, as its close button does: `onCloseRequest` may keep it open.
    public func close() {
        gtk_window_close(gtkWindow)
    }

    /// Closes the window at once, without asking.
    public func destroy() {
        gtk_window_destroy(gtkWindow)
    }

    /// Runs `body` when someone asks to close the window; true from `body` keeps it open.
    public func onCloseRequest(_ body: @escaping @MainActor () -> Bool) {
        connectSignal(UnsafeMutableRawPointer(gtkWidget), "close-request", returning: body)
    }

    /// Adds `action` to the window, where buttons and shortcuts find it as `"win.<name>"`.
    public func add(_ action: Action) {
        g_action_map_add_action(OpaquePointer(gtkWidget), action.gAction)
    }
}

extension AppInstance {
    /// A new application (an AdwApplication) with the reverse-DNS identifier `id`; with
    /// `unique`, a second launch is handed to the running process, as GTK apps do by default.
    public convenience init(id: String, unique: Bool = true) {
        let flags = GApplicationFlags(rawValue: unique ? 0 : DOSSIER_G_APPLICATION_NON_UNIQUE)
        self.init(reference: ObjectReference(taking: UnsafeMutableRawPointer(adw_application_new(id, flags)!)))
    }

    /// The GApplication, for GIO's C functions.
    private var gApplication: UnsafeMutablePointer<GApplication> { gcast(gtkApplication)! }

    /// Runs `body` when the application starts without files to open (and, when unique, at each
    /// later launch).
    public func onActivate(_ body: @escaping @MainActor () -> Void) {
        connectSignal(UnsafeMutableRawPointer(gtkApplication), "activate", body)
    }

    /// The keyboard shortcuts (`"<Control>z"`) that activate `action` (`"win.undo"`).
    public func setShortcuts(_ shortcuts: [String], for action: String) {
        var strings = shortcuts.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var array = strings.map { UnsafePointer<CChar>($0) } + [nil]
        gtk_application_set_accels_for_action(gtkApplication, action, &array)
    }

    /// Runs the main loop until the last window closes or `quit()`; returns the exit status.
    /// The command line is the app's own business: GApplication sees only the program's name.
    public func run() -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments.first ?? "app"), nil]
        defer { free(argv[0]) }
        return g_application_run(gApplication, 1, &argv)
    }

    /// Ends `run()`, whatever windows are open.
    public func quit() {
        g_application_quit(gApplication)
    }
}
