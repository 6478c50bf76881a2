import DocumentCore
import Foundation

/// What can be done to documents from their options menu. The controller performs most of
/// them itself; `rename` needs the host (through the delegate), and `custom` names one of the
/// app's `DocumentBrowserAction`s.
public enum DocumentAction: Hashable, Sendable {
    /// Opens the documents in their default applications.
    case open
    /// Offers the installed applications that open the documents, to open them with one.
    case openWith
    /// Shows the documents in the previewer.
    case preview
    /// Inline in the host's view: only the host can do it.
    case rename
    /// Makes a copy of each document beside it ("report (copy).pdf").
    case duplicate
    /// Moves the documents to the Trash (a remote one to its server's own trash, where it has one).
    case moveToTrash
    /// The files themselves, as GNOME Files copies them (`x-special/gnome-copied-files`).
    case copy
    /// Copies the documents' paths (URIs for remote ones) as text, one a line.
    case copyPath
    /// The tags submenu, which adds and removes tags on the documents.
    case tags
    /// Adds the documents to the favorites, or removes them when all of them are favorites already.
    case addToFavorites
    /// Shows the documents selected in the file manager, or opens their folder.
    case showInFolder
    /// Shows the document's properties window.
    case properties
    /// GTK's print dialog, for a document whose type Dossier prints (`DocumentPrinter`).
    case print
    /// A `DocumentBrowserAction`, by its identifier.
    case custom(String)

    /// The name of the action in the controller's `doc.` action group.
    var actionName: String {
        switch self {
        case .open: "open"
        case .openWith: "open-with"
        case .preview: "preview"
        case .rename: "rename"
        case .duplicate: "duplicate"
        case .moveToTrash: "trash"
        case .copy: "copy"
        case .copyPath: "copy-path"
        case .tags: "tags"
        case .addToFavorites: "favorite"
        case .showInFolder: "show-in-folder"
        case .properties: "properties"
        case .print: "print"
        case .custom: "custom"
        }
    }

    /// True for the actions the controller does without help from its host.
    var isPerformedByController: Bool {
        switch self {
        case .rename, .custom: false
        default: true
        }
    }

    /// True when the action makes sense for several documents at once.
    var supportsMultipleItems: Bool {
        switch self {
        case .rename, .properties, .print: false
        default: true
        }
    }
}

/// An app's own action on documents, shown in the options menu (and, for the browser, in its
/// header): the `UIDocumentBrowserAction` of Linux.
public struct DocumentBrowserAction: Sendable, Identifiable {
    /// Where the action is offered.
    public struct Availability: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// In the options menu of the selected documents.
        public static let menu = Availability(rawValue: 1)
        /// In the browser's header bar while documents are selected.
        public static let header = Availability(rawValue: 2)
    }

    /// A unique name, e.g. `com.example.Send`; it is also the argument of `DocumentAction.custom`.
    public let identifier: String
    /// The menu item's text, already translated.
    public let title: String
    /// A symbolic icon name for the header button.
    public let iconName: String?
    /// The types it applies to: a document conforming to one of them qualifies. Empty: any type.
    public let supportedTypes: [DocumentType]
    /// Whether it can run on several documents at once.
    public let supportsMultipleItems: Bool
    /// Where the action is offered: the options menu, the browser's header, or both.
    public let availability: Availability
    /// Runs the action on the documents; when nil, the delegate's `perform(.custom(identifier))` does.
    public let handler: (@MainActor @Sendable ([URL]) -> Void)?

    public var id: String { identifier }

    /// Makes an action; a nil `handler` leaves it to the delegate's `perform(.custom(identifier))`.
    public init(identifier: String, title: String, iconName: String? = nil, supportedTypes: [DocumentType] = [],
                supportsMultipleItems: Bool = false, availability: Availability = [.menu],
                handler: (@MainActor @Sendable ([URL]) -> Void)? = nil) {
        self.identifier = identifier
        self.title = title
        self.iconName = iconName
        self.supportedTypes = supportedTypes
        self.supportsMultipleItems = supportsMultipleItems
        self.availability = availability
        self.handler = handler
    }

    /// True when the action is offered for documents of `types` (one per document).
    public func applies(to types: [DocumentType]) -> Bool {
        guard !types.isEmpty, types.count == 1 || supportsMultipleItems else { return false }
        guard !supportedTypes.isEmpty else { return true }
        return types.allSatisfy { type in supportedTypes.contains { type.conforms(to: $0) } }
    }
}
