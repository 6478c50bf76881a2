import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The `doc.` action group behind the menus, and the actions the controller performs itself.
extension DocumentInteractionController {
    /// Inserts the controller's `doc.` actions on `widget` (replacing any other `doc.` group
    /// there), so menus shown from it, and from its children, reach them.
    public func installActions(on widget: Widget) {
        installActions(on: widget.gtkWidget)
    }

    func installActions(on widget: WidgetPointer) {
        let group = actions ?? makeActions()
        guard actionsWidget?.widget != widget else { return }
        gtk_widget_insert_action_group(widget, "doc", cast(group))
        actionsWidget = WeakObject(widget: widget)
    }

    private func makeActions() -> UnsafeMutablePointer<GSimpleActionGroup> {
        let group = g_simple_action_group_new()!
        actions = group
        let plain: [DocumentAction] = [.open, .preview, .rename, .duplicate, .moveToTrash, .copy, .copyPath,
                                       .addToFavorites, .showInFolder, .properties, .print]
        for action in plain {
            addAction(action.actionName) { [weak self] _ in self?.perform(action) }
        }
        addAction("open-with", parameter: "s") { [weak self] id in
            guard let self, let id else { return }
            if let app = self.knownApplications[id] ?? self.registry.application(id: id) {
                self.open(with: app)
            } else {
                self.finish(.openWith, .failure(.application(.unknownApplication(id: id))))
            }
        }
        addAction("other-application") { [weak self] _ in self?.presentApplicationChooser() }
        addAction("new-tag") { [weak self] _ in self?.presentNewTagDialog() }
        addAction("custom", parameter: "s") { [weak self] id in
            guard let id else { return }
            self?.perform(.custom(id))
        }
        return group
    }

    /// Adds `doc.NAME`, with a parameter of the GVariant type `parameter` when given.
    func addAction(_ name: String, parameter: String? = nil, _ handler: @escaping (String?) -> Void) {
        guard let actions else { return }
        let type = parameter.map { g_variant_type_new($0) }
        let action = g_simple_action_new(name, type ?? nil)!
        if let type { g_variant_type_free(type) }
        connectSignal(raw(action), "activate") { argument in
            handler(argument.flatMap { borrowString(g_variant_get_string(OpaquePointer($0), nil)) })
        }
        g_action_map_add_action(cast(actions), action)
        g_object_unref(raw(action))
    }

    /// Enables or disables `doc.NAME`.
    func setAction(_ name: String, enabled: Bool) {
        guard let actions, let action = g_action_map_lookup_action(cast(actions), name) else { return }
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }

    /// Does `action` for the documents: the delegate first (it may do it itself), then the
    /// controller for the actions it knows. Actions on files run off the main thread and end
    /// in the delegate's `didPerform`.
    public func perform(_ action: DocumentAction) {
        if let delegate, delegate.documentInteractionController(self, perform: action) { return }
        switch action {
        case .open: open()
        case .openWith: presentApplicationChooser()
        case .preview: presentPreview(from: actionsWidget?.widget)
        case .duplicate:
            runFileOperations(action) { operations, urls in
                var batch = FileOperationBatch()
                for url in urls {
                    do throws(FileOperationError) { batch.results.append(try operations.duplicate(url)) } catch { batch.failures.append(error) }
                }
                return batch
            }
        case .moveToTrash:
            runFileOperations(action) { operations, urls in operations.moveToTrash(urls) }
        case .copy:
            FileClipboard.copy(urls)
            finish(action, .success([]))
        case .copyPath:
            FileClipboard.copyText(urls.map(\.parseName).joined(separator: "\n"))
            finish(action, .success([]))
        case .addToFavorites: toggleFavorite()
        case .showInFolder: FolderView.show(urls)
        case .properties: presentProperties()
        case .print: presentPrintDialog()
        case .tags, .rename: break
        case .custom(let identifier):
            customActions.first { $0.identifier == identifier }?.handler?(urls)
        }
    }

    /// Runs file operations off the main thread and reports the batch's results or first failure.
    private func runFileOperations(_ action: DocumentAction,
                                   _ work: @escaping @Sendable (FileOperations, [URL]) -> FileOperationBatch) {
        let urls = urls
        let key = "operation-\(UUID().uuidString)"
        keptAlive[key] = self
        Task { @MainActor in
            let batch = await Task.detached { work(FileOperations(), urls) }.value
            keptAlive[key] = nil
            if let failure = batch.failures.first {
                finish(action, .failure(.fileOperation(failure)))
            } else {
                finish(action, .success(batch.results))
            }
        }
    }

    /// Adds the documents to the Favorites (GTK's bookmarks), or removes them when all are there.
    private func toggleFavorite() {
        let locations = urls.map(\.absoluteString)
        let remove = menuData?.allFavorites ?? false
        Task { @MainActor in
            let failure = await Task.detached { () -> FavoritesError? in
                let favorites = Favorites()
                for location in locations {
                    do throws(FavoritesError) {
                        if remove { try favorites.remove(location) } else { try favorites.add(location) }
                    } catch {
                        if case .alreadyFavorite = error { continue }
                        return error
                    }
                }
                return nil
            }.value
            finish(.addToFavorites, failure.map { .failure(.favorites($0)) } ?? .success([]))
        }
    }
}
