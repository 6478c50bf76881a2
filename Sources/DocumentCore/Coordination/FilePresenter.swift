import Foundation

/// An object that shows or edits an item (a file, or a folder and what is in it) and wants to
/// hear when it changes: the NSFilePresenter of Linux.
///
/// Register with `FileCoordinator.addFilePresenter(_:)`. Changes made through a
/// `FileCoordinator` in this process are delivered before the coordinated call returns;
/// changes made by anything else (`mv`, `cp`, `sed -i`, `rm`, an editor saving by rename)
/// arrive through inotify, a burst of them coalesced into one change. Every callback runs on
/// `presentedItemOperationQueue`. All callbacks have empty default implementations.
public protocol FilePresenter: AnyObject, Sendable {
    /// The item presented. The registry tracks moves itself and tells the presenter through
    /// `presentedItem(didMoveTo:)`; the presenter should then update what it returns here.
    var presentedItemURL: URL? { get }

    /// Where callbacks run. Coordinated calls wait for them, so it must not be blocked by the
    /// thread that makes the call (unless it is that same queue, which is detected).
    var presentedItemOperationQueue: DispatchQueue { get }

    /// The item's contents or attributes changed.
    func presentedItemDidChange()
    /// The item was moved or renamed to `url`.
    func presentedItem(didMoveTo url: URL)
    /// A coordinated delete is about to remove the item: let go of it. Throwing does not stop
    /// the delete; the error is ignored, as NSFileCoordinator does.
    func accommodatePresentedItemDeletion() throws
    /// The item is gone (deleted by another program, or moved where it cannot be followed).
    func presentedItemWasDeleted()
    /// Another writer is about to write the item: save unsaved changes first.
    func savePresentedItemChanges() throws

    /// For a presented folder: an item appeared in it.
    func presentedSubitemDidAppear(at url: URL)
    /// For a presented folder: an item in it changed.
    func presentedSubitemDidChange(at url: URL)
    /// For a presented folder: an item in it moved to `newURL` (possibly out of the folder),
    /// or an item moved into it from `oldURL`.
    func presentedSubitem(at oldURL: URL, didMoveTo newURL: URL)
    /// For a presented folder: a coordinated delete is about to remove an item in it.
    func accommodatePresentedSubitemDeletion(at url: URL) throws
    /// For a presented folder: an item in it is gone.
    func presentedSubitemWasDeleted(at url: URL)
}

extension FilePresenter {
    public func presentedItemDidChange() {}
    public func presentedItem(didMoveTo url: URL) {}
    public func accommodatePresentedItemDeletion() throws {}
    public func presentedItemWasDeleted() {}
    public func savePresentedItemChanges() throws {}
    public func presentedSubitemDidAppear(at url: URL) {}
    public func presentedSubitemDidChange(at url: URL) {}
    public func presentedSubitem(at oldURL: URL, didMoveTo newURL: URL) {}
    public func accommodatePresentedSubitemDeletion(at url: URL) throws {}
    public func presentedSubitemWasDeleted(at url: URL) {}
}

/// What happened to a path, as both the coordinator and the inotify watcher report it.
enum PresentedChange: Sendable, Equatable {
    case changed(URL)
    case appeared(URL)
    case moved(from: URL, to: URL)
    case deleted(URL)
}
