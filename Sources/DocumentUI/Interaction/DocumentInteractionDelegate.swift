import CGtk
import DocumentCore
import Foundation
import GtkSupport

/// Which of the controller's menus.
public enum DocumentMenu: Sendable, Hashable {
    /// Open, Open With ▸, Preview, Rename… and the app's custom actions.
    case options
    /// The applications that open the documents, and "Other Application…".
    case openWith
}

/// What a `DocumentInteractionController` tells its owner, and asks it. Every method has a
/// default: implement only what the host cares about.
@MainActor
public protocol DocumentInteractionDelegate: AnyObject {
    /// The window the previewer, the chooser and the properties stay above.
    func parentWindow(for controller: DocumentInteractionController) -> WindowWidget?
    /// The widget showing the document (a thumbnail), for the preview's zoom transition.
    func sourceWidget(for controller: DocumentInteractionController) -> Widget?

    /// The previewer is about to show the documents.
    func documentInteractionControllerWillBeginPreview(_ controller: DocumentInteractionController)
    /// The previewer was presented.
    func documentInteractionControllerDidBeginPreview(_ controller: DocumentInteractionController)
    /// The previewer is about to close.
    func documentInteractionControllerWillEndPreview(_ controller: DocumentInteractionController)
    /// The previewer closed.
    func documentInteractionControllerDidEndPreview(_ controller: DocumentInteractionController)

    /// `menu` is about to be shown.
    func documentInteractionController(_ controller: DocumentInteractionController, willPresent menu: DocumentMenu)
    /// `menu` was closed, with or without a choice.
    func documentInteractionController(_ controller: DocumentInteractionController, didDismiss menu: DocumentMenu)

    /// The documents are about to be handed to `application`.
    func documentInteractionController(_ controller: DocumentInteractionController, willBeginSendingTo application: Application)
    /// `application` was started (or failed to start: `error`).
    func documentInteractionController(_ controller: DocumentInteractionController, didEndSendingTo application: Application,
                                       error: ApplicationError?)

    /// Whether the options menu offers `action`. By default the controller's own actions are
    /// offered (Print for a type Dossier prints), and Rename and custom actions without a
    /// handler are not.
    func documentInteractionController(_ controller: DocumentInteractionController, canPerform action: DocumentAction) -> Bool
    /// Performs `action`; return false to let the controller do its own (Copy, say).
    func documentInteractionController(_ controller: DocumentInteractionController, perform action: DocumentAction) -> Bool

    /// An action the controller performed finished: the file operations' results (for undo),
    /// or what went wrong. By default a failure is shown in a message dialog.
    func documentInteractionController(_ controller: DocumentInteractionController, didPerform action: DocumentAction,
                                       result: Result<[FileOperationResult], InteractionError>)
}

extension DocumentInteractionDelegate {
    public func parentWindow(for controller: DocumentInteractionController) -> WindowWidget? { nil }
    public func sourceWidget(for controller: DocumentInteractionController) -> Widget? { nil }
    /// Does nothing.
    public func documentInteractionControllerWillBeginPreview(_ controller: DocumentInteractionController) {}
    /// Does nothing.
    public func documentInteractionControllerDidBeginPreview(_ controller: DocumentInteractionController) {}
    /// Does nothing.
    public func documentInteractionControllerWillEndPreview(_ controller: DocumentInteractionController) {}
    /// Does nothing.
    public func documentInteractionControllerDidEndPreview(_ controller: DocumentInteractionController) {}
    /// Does nothing.
    public func documentInteractionController(_ controller: DocumentInteractionController, willPresent menu: DocumentMenu) {}
    /// Does nothing.
    public func documentInteractionController(_ controller: DocumentInteractionController, didDismiss menu: DocumentMenu) {}
    public func documentInteractionController(_ controller: DocumentInteractionController,
                                              willBeginSendingTo application: Application) {}
    public func documentInteractionController(_ controller: DocumentInteractionController, didEndSendingTo application: Application,
                                              error: ApplicationError?) {}
    public func documentInteractionController(_ controller: DocumentInteractionController, canPerform action: DocumentAction) -> Bool {
        controller.canPerformByDefault(action)
    }
    public func documentInteractionController(_ controller: DocumentInteractionController, perform action: DocumentAction) -> Bool {
        false
    }
    public func documentInteractionController(_ controller: DocumentInteractionController, didPerform action: DocumentAction,
                                              result: Result<[FileOperationResult], InteractionError>) {
        if case .failure(let error) = result { controller.presentError(error) }
    }
}

/// Why an action on documents did not complete.
public enum InteractionError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Opening the documents failed.
    case launch(LaunchProblem)
    /// A file operation (duplicate, move to Trash) failed.
    case fileOperation(FileOperationError)
    /// Reading or changing tags failed.
    case tags(TagError)
    /// Adding or removing favorites failed.
    case favorites(FavoritesError)
    /// Setting a default application or starting one failed.
    case application(ApplicationError)
    /// Printing failed.
    case print(PrintError)

    public var description: String {
        switch self {
        case .launch(let error): error.description
        case .fileOperation(let error): error.description
        case .tags(let error): error.description
        case .favorites(let error): error.description
        case .application(let error): error.description
        case .print(let error): error.description
        }
    }

    public var errorDescription: String? { description }
}
