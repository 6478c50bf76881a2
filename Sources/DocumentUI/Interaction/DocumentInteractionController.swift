import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Everything a person can do with a document from any widget that shows it: open it in its
/// default app or another one, preview it, print it, and its options and Open With menus — the
/// UIDocumentInteractionController of Linux. The browser, the previewer's Open With button
/// and `dossier open` (through `DocumentLauncher`) all go through this one path.
///
/// Made for one file (`init(url:)`); `init(urls:)` covers a selection of several for the
/// menus, Open and Open With (only the apps that open every one of them are offered).
///
/// Menus are `GtkPopoverMenu`s over a `GMenu` whose items name actions of a group inserted on
/// the presenting widget as `doc.` — keyboard and screen reader users get them for free.
/// While a menu, the preview or a dialog is shown the controller keeps itself alive.
@MainActor
public final class DocumentInteractionController {
    /// The documents, the first one being the one the single-document API describes.
    public let urls: [URL]
    /// The document (the first of several).
    public var url: URL { urls[0] }
    /// Told before and after the controller does things, and asked to do what only the host can; held weakly.
    public weak var delegate: (any DocumentInteractionDelegate)?
    /// Handed to the app that opens the documents, in its environment as `DOSSIER_ANNOTATION`
    /// (set through GAppLaunchContext's `setenv`; D-Bus activated apps do not see it).
    public var annotation: String?
    /// The app's own actions, offered in the options menu where they apply.
    public var customActions: [DocumentBrowserAction] = []
    /// Tags to offer in the Tags menu besides the documents' own (the host's tag list).
    public var knownTags: [String] = []
    /// Called after the chooser made another app the default for the documents' type.
    public var defaultApplicationDidChange: (() -> Void)?

    private(set) var nameOverride: String?
    private var typeOverride: DocumentType?
    private var iconOverride: [String]?
    /// Types by file name until the contents were read (`resolvedTypes`).
    var detectedTypes: [DocumentType]
    private var typesAreSniffed = false

    let registry = ApplicationRegistry()
    /// The group of `doc.` actions, and the widget it is inserted on.
    var actions: UnsafeMutablePointer<GSimpleActionGroup>?
    var actionsWidget: WeakObject?
    /// The open popover menus, and which.
    var menus: [(popover: WidgetPointer, kind: DocumentMenu)] = []
    var preview: PreviewController?
    var previewList: PreviewItemList?
    var previewBridge: PreviewBridge?
    /// The apps of the last menu, by ID, for `doc.open-with`.
    var knownApplications: [String: Application] = [:]
    /// How many `doc.tag-N` actions the last Tags menu made.
    var tagActionCount = 0
    /// What the last menu was built from.
    var menuData: MenuData?
    /// The app chooser and the properties window while shown.
    var chooser: ApplicationChooser?
    var properties: PropertiesWindow?
    /// Strong references to self while something is on screen (menus, preview, dialogs).
    var keptAlive: [String: DocumentInteractionController] = [:]

    /// A controller for one document.
    public convenience init(url: URL) {
        self.init(urls: [url])
    }

    /// A controller for several documents (a selection); `urls` must not be empty.
    public init(urls: [URL]) {
        precondition(!urls.isEmpty, "DocumentInteractionController needs at least one URL")
        self.urls = urls
        detectedTypes = urls.map { DocumentType(fileName: $0.lastPathComponent) }
    }

    isolated deinit {
        if let actions { g_object_unref(raw(actions)) }
    }

    // MARK: Name, type and icons

    /// The name shown for the document (its file name unless set). Setting it keeps the type.
    public var name: String {
        get {
            if let nameOverride { return nameOverride }
            return urls.count == 1 ? url.lastPathComponent : trn("%s item", "%s items", urls.count, String(urls.count))
        }
        set { nameOverride = newValue }
    }

    /// The document's type: as set, or else detected (from the name at first, from the
    /// contents once the controller has read them for a menu or `resolvedTypes()`).
    public var documentType: DocumentType {
        get { typeOverride ?? detectedTypes[0] }
        set { typeOverride = newValue }
    }

    /// The icon names for the document, best first: as set, or else the type's.
    public var iconNames: [String] {
        get { iconOverride ?? documentType.iconNames }
        set { iconOverride = newValue }
    }

    /// The document's icon: a themed icon over `iconNames`.
    public func makeIcon() -> Icon {
        let icon = themedIcon(iconNames)
        defer { unref(icon) }
        return Icon(gIcon: icon)
    }

    /// Each document's type, read from its contents off the main thread (once), unless set.
    public func resolvedTypes() async -> [DocumentType] {
        if let typeOverride { return urls.map { _ in typeOverride } }
        if typesAreSniffed { return detectedTypes }
        let urls = urls
        let guessed = detectedTypes
        let sniffed = await Task.detached {
            zip(urls, guessed).map { url, guess in
                url.isFileURL ? (try? DocumentType(contentsOf: url.rawPath)) ?? guess : guess
            }
        }.value
        detectedTypes = sniffed
        typesAreSniffed = true
        return sniffed
    }

    // MARK: Opening

    /// Opens the documents in place in their default apps (each document's own URI, never a
    /// copy) and adds them to Recents. Problems reach the delegate's `didPerform`.
    @discardableResult
    public func open() -> Task<Void, Never> {
        launch(with: nil)
    }

    /// Opens the documents in `application`, in place, and adds them to Recents.
    @discardableResult
    public func open(with application: Application) -> Task<Void, Never> {
        launch(with: application)
    }

    private func launch(with application: Application?) -> Task<Void, Never> {
        let locations = urls.map(\.parseName)
        let launcher = DocumentLauncher(registry: registry)
        let annotation = annotation
        let action: DocumentAction = application == nil ? .open : .openWith
        let key = "launch-\(UUID().uuidString)"
        keptAlive[key] = self
        return Task { @MainActor in
            defer { self.keptAlive[key] = nil }
            let plan = await Task.detached { launcher.plan(locations, with: application) }.value
            var problems = plan.problems
            var opened: [ItemInfo] = []
            for launch in plan.launches {
                delegate?.documentInteractionController(self, willBeginSendingTo: launch.application)
                let failure = await Task.detached { () -> ApplicationError? in
                    do throws(ApplicationError) {
                        // A remote item for an app that takes only paths is downloaded first.
                        let locations: [String]
                        do throws(RemoteDownloadError) {
                            locations = try await launcher.locations(for: launch)
                        } catch {
                            throw .launchFailed(application: launch.application.name,
                                                files: launch.items.map(\.displayName).joined(separator: ", "),
                                                reason: error.description)
                        }
                        try launcher.perform(launch, locations: locations, annotation: annotation)
                        return nil
                    } catch {
                        return error
                    }
                }.value
                delegate?.documentInteractionController(self, didEndSendingTo: launch.application, error: failure)
                if let failure { problems.append(.application(failure)) } else { opened += launch.items }
            }
            let recorded = opened
            await Task.detached { try? launcher.recordOpened(recorded) }.value
            finish(action, problems.first.map { .failure(.launch($0)) } ?? .success([]))
        }
    }

    // MARK: Preview

    /// Shows the documents in the previewer, transient for the delegate's parent window (or
    /// the window of `source`), zooming from `source` or the delegate's source widget.
    public func presentPreview(from source: Widget? = nil) {
        presentPreview(from: source?.gtkWidget)
    }

    func presentPreview(from source: WidgetPointer?) {
        delegate?.documentInteractionControllerWillBeginPreview(self)
        let items = urls.map { PreviewItem(url: $0, title: urls.count == 1 ? nameOverride : nil) }
        let controller = preview ?? PreviewController()
        if preview == nil {
            let bridge = PreviewBridge(owner: self, source: source)
            previewBridge = bridge
            controller.delegate = bridge
            controller.interactionProvider = { [weak self] item in
                guard let self, self.urls.count == 1, item.url == self.url else { return nil }
                return self
            }
            preview = controller
        }
        previewBridge?.source = source
        let list = PreviewItemList(items)
        previewList = list
        controller.dataSource = list
        controller.reloadData()
        let parent = hostWindow(near: source)
        keptAlive["preview"] = self
        controller.present(transientFor: parent, application: parent.flatMap { gtk_window_get_application($0) })
        delegate?.documentInteractionControllerDidBeginPreview(self)
    }

    /// Closes the previewer if it is shown.
    public func dismissPreview() {
        preview?.dismiss()
    }

    /// The previewer while presented (for tests and hosts that follow its current item).
    public var previewController: PreviewController? { preview }

    func previewDidEnd() {
        delegate?.documentInteractionControllerDidEndPreview(self)
        keptAlive["preview"] = nil
    }

    // MARK: Helpers for the facets

    /// The window dialogs stay above: the delegate's, else the one `widget` is in.
    func hostWindow(near widget: WidgetPointer? = nil) -> UnsafeMutablePointer<GtkWindow>? {
        if let window = delegate?.parentWindow(for: self) { return window.gtkWindow }
        let anchor = widget ?? actionsWidget?.widget ?? delegate?.sourceWidget(for: self)?.gtkWidget
        guard let anchor, let root = gtk_widget_get_root(anchor) else { return nil }
        let object = UnsafeMutableRawPointer(root)
        guard g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), gtk_window_get_type()) != 0 else {
            return nil
        }
        return object.assumingMemoryBound(to: GtkWindow.self)
    }

    /// Reports the end of an action to the delegate (which shows failures by default).
    func finish(_ action: DocumentAction, _ result: Result<[FileOperationResult], InteractionError>) {
        if let delegate {
            delegate.documentInteractionController(self, didPerform: action, result: result)
        } else if case .failure(let error) = result {
            presentError(error)
        }
    }

    /// Whether the controller offers `action` when its delegate does not say otherwise.
    public func canPerformByDefault(_ action: DocumentAction) -> Bool {
        if case .custom(let identifier) = action {
            return customActions.first { $0.identifier == identifier }?.handler != nil
        }
        if action == .print {
            return urls.count == 1 && url.isFileURL && DocumentPrinter.canPrint(documentType)
        }
        return action.isPerformedByController && (urls.count == 1 || action.supportsMultipleItems)
    }

    func canPerform(_ action: DocumentAction) -> Bool {
        guard urls.count == 1 || action.supportsMultipleItems else { return false }
        return delegate?.documentInteractionController(self, canPerform: action) ?? canPerformByDefault(action)
    }

    /// Shows what went wrong in a message dialog above the host window.
    public func presentError(_ error: InteractionError) {
        let dialog = dossier_alert_new(tr("Could Not Complete the Action"), error.description)!
        dossier_alert_add_response(dialog, "close", tr("Close"))
        dossier_alert_set_default_response(dialog, "close")
        setAccessibleName(dialog, tr("Could Not Complete the Action"))
        nameResponseButtons(of: dialog)
        dossier_alert_present(dialog, hostWindow().map { cast($0) })
    }
}

/// Forwards the previewer's delegate calls to the interaction controller's delegate.
@MainActor
final class PreviewBridge: PreviewDelegate {
    weak var owner: DocumentInteractionController?
    var source: WidgetPointer?

    init(owner: DocumentInteractionController, source: WidgetPointer?) {
        self.owner = owner
        self.source = source
    }

    func previewControllerWillDismiss(_ controller: PreviewController) {
        guard let owner else { return }
        owner.delegate?.documentInteractionControllerWillEndPreview(owner)
    }

    func previewControllerDidDismiss(_ controller: PreviewController) {
        owner?.previewDidEnd()
    }

    func previewController(_ controller: PreviewController, sourceWidgetFor item: PreviewItem) -> Widget? {
        if let source { return Widget(gtkWidget: source) }
        guard let owner else { return nil }
        return owner.delegate?.sourceWidget(for: owner)
    }
}
