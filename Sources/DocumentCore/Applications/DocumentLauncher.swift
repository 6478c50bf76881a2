import CGLib
import Foundation

/// Opens documents in place in their applications and records them in Recents: the one
/// path that `dossier open`, `DocumentInteractionController` and the browser share.
///
/// Every method reads files and desktop entries and may wait a moment for a started app
/// (see `ApplicationRegistry.open`): call them off the main thread.
public struct DocumentLauncher: Sendable {
    /// The environment variable that carries an annotation to the opened app (the
    /// `annotation` of UIDocumentInteractionController). It is set with GAppLaunchContext's
    /// `setenv`, so an app started by its `Exec` line finds it in its environment; a D-Bus
    /// activatable app does not get it.
    public static let annotationVariable = "DOSSIER_ANNOTATION"

    /// One application and the items it is handed together.
    package struct Launch: Sendable {
        /// The application that opens the items.
        package let application: Application
        /// The items handed to the application in one launch, in the order they were named.
        package let items: [ItemInfo]

        /// Pairs an application with the items it is handed together.
        package init(application: Application, items: [ItemInfo]) {
            self.application = application
            self.items = items
        }
    }

    /// What opening some locations comes to: the launches to make, and what cannot be opened.
    package struct Plan: Sendable {
        /// The launches to make, one per application.
        package var launches: [Launch] = []
        /// The locations that cannot be opened, and why.
        package var problems: [LaunchProblem] = []
    }

    /// What opening some locations did.
    package struct Outcome: Sendable {
        /// The launches that started.
        package var launched: [Launch] = []
        /// Items that could not be inspected, had no app, or whose app failed to start.
        package var problems: [LaunchProblem] = []
        /// Recording the opened items in Recents failed (the opening itself did not).
        package var recentsProblem: RecentsError?
    }

    /// The registry that chooses each item's application.
    package let registry: ApplicationRegistry
    /// Where opened items are recorded; nil records nothing.
    package let recents: RecentDocuments?

    /// Makes a launcher that chooses apps with `registry` and records opened items in `recents`.
    package init(registry: ApplicationRegistry = ApplicationRegistry(), recents: RecentDocuments? = RecentDocuments()) {
        self.registry = registry
        self.recents = recents
    }

    /// Groups `locations` (paths or URIs) by the app that opens them: each one's default app,
    /// or `application` for all of them. Items sharing an app are handed to it together, in
    /// the order they were named.
    package func plan(_ locations: [String], with application: Application? = nil) -> Plan {
        var plan = Plan()
        var items: [ItemInfo] = []
        for location in locations {
            do {
                items.append(try ItemInfo.inspect(location))
            } catch {
                plan.problems.append(.item(error))
            }
        }
        if let application {
            if !items.isEmpty { plan.launches = [Launch(application: application, items: items)] }
            return plan
        }
        for item in items {
            guard let app = registry.defaultApplication(for: item.type) else {
                plan.problems.append(.application(.noApplication(files: item.displayName, type: item.type.identifier)))
                continue
            }
            if let index = plan.launches.firstIndex(where: { $0.application.id == app.id }) {
                plan.launches[index] = Launch(application: app, items: plan.launches[index].items + [item])
            } else {
                plan.launches.append(Launch(application: app, items: [item]))
            }
        }
        return plan
    }

    /// Starts one launch with the items' own URIs (or `locations`, from `locations(for:)`),
    /// the annotation in `DOSSIER_ANNOTATION`.
    package func perform(_ launch: Launch, locations: [String]? = nil, annotation: String? = nil) throws(ApplicationError) {
        let environment = annotation.map { [Self.annotationVariable: $0] } ?? [:]
        try registry.open(locations ?? launch.items.map(\.uri), with: launch.application, environment: environment)
    }

    /// What the launch's app is handed for each item. A local item: its URI (GIO gives an app
    /// that takes paths the path). A remote one: its URI when the app's desktop entry takes
    /// URIs (`%u`, `%U`); else the path GVFS's FUSE folder gives it; else a copy downloaded
    /// into Dossier's cache, the file's edited copy (`RemoteEdits.prepare`): the app works on
    /// that copy, which is followed so that what it saves can be uploaded back.
    package func locations(for launch: Launch, downloads: RemoteDownloads = .shared,
                          edits: RemoteEdits = .shared) async throws(RemoteDownloadError) -> [String] {
        let takesURIs = g_app_info_supports_uris(launch.application.info.appInfo) != 0
        var locations: [String] = []
        for item in launch.items {
            guard let url = URL(string: item.uri), !url.isFileURL, !takesURIs, item.path == nil else {
                locations.append(item.uri)
                continue
            }
            let copy = try await downloads.fetch(url, priority: .userInitiated)
            do throws(RemoteUploadError) {
                locations.append(try edits.prepare(copy, for: launch.application.name).url.path)
            } catch {
                throw .cache(reason: error.description)
            }
        }
        return locations
    }

    /// Records opened items in Recents.
    package func recordOpened(_ items: [ItemInfo]) throws(RecentsError) {
        guard let recents, !items.isEmpty else { return }
        let urls = items.map(\.url)
        try recents.record(urls, as: .opened)
    }

    /// Plans, performs every launch, and records what opened in Recents.
    package func open(_ locations: [String], with application: Application? = nil, annotation: String? = nil) -> Outcome {
        let plan = plan(locations, with: application)
        var outcome = Outcome(problems: plan.problems)
        for launch in plan.launches {
            do throws(ApplicationError) {
                // Remote items for an app that takes only paths: downloaded first (a
                // command-line tool may wait for it).
                var locations: [String]?
                do throws(RemoteDownloadError) {
                    let launcher = self
                    if launch.items.contains(where: { $0.path == nil }) {
                        locations = try waitFor { () async throws(RemoteDownloadError) in try await launcher.locations(for: launch) }
                    }
                } catch {
                    throw ApplicationError.launchFailed(application: launch.application.name,
                                                        files: launch.items.map(\.displayName).joined(separator: ", "),
                                                        reason: error.description)
                }
                try perform(launch, locations: locations, annotation: annotation)
                outcome.launched.append(launch)
            } catch {
                outcome.problems.append(.application(error))
            }
        }
        do {
            try recordOpened(outcome.launched.flatMap(\.items))
        } catch {
            outcome.recentsProblem = error
        }
        return outcome
    }
}

/// Why an item was not opened.
public enum LaunchProblem: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The item could not be looked at (missing, no permission…).
    case item(ItemError)
    /// No app for it, an unknown app, or the app failed to start.
    case application(ApplicationError)

    public var description: String {
        switch self {
        case .item(let error): error.description
        case .application(let error): error.description
        }
    }

    public var errorDescription: String? { description }
}
