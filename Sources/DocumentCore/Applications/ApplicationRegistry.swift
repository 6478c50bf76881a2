import CGLib
import Foundation
import GObjectSupport

/// Which applications open which document types, and opening documents with them: the data
/// behind Open With, following the MIME Applications Associations spec through GIO's
/// `GAppInfo` (mimeapps.list in `$XDG_CONFIG_HOME`, `$XDG_CONFIG_DIRS` and
/// `$XDG_DATA_DIRS/applications`, desktop-specific lists first, Added, Removed and Default
/// sections, and the desktop entries' `MimeType=` keys).
///
/// GIO reads the XDG folders once per process; changes to installed apps are picked up by
/// GIO's own monitoring of those folders.
public struct ApplicationRegistry: Sendable {
    /// Makes a registry over GIO's view of the installed applications and their associations.
    public init() {}

    /// The application that opens documents of `type` by default, if any.
    public func defaultApplication(for type: DocumentType) -> Application? {
        guard !type.isAbstract, let info = g_app_info_get_default_for_type(type.identifier, 0) else { return nil }
        return Application(adopting: UnsafeMutableRawPointer(info))
    }

    /// Applications that declare `type` itself (or have it in Added Associations), most
    /// recently used first, as GIO orders them.
    public func recommendedApplications(for type: DocumentType) -> [Application] {
        guard !type.isAbstract else { return [] }
        return applications(g_app_info_get_recommended_for_type(type.identifier))
    }

    /// Applications that open a supertype of `type` but not `type` itself (text editors for
    /// a C file, say).
    public func fallbackApplications(for type: DocumentType) -> [Application] {
        guard !type.isAbstract else { return [] }
        return applications(g_app_info_get_fallback_for_type(type.identifier))
    }

    /// Every application for `type` in Open With order: the default first, then the
    /// recommended ones, then those for a supertype, each listed once.
    public func applications(for type: DocumentType) -> [Application] {
        var seen = Set<String>()
        return ([defaultApplication(for: type)].compactMap { $0 }
            + recommendedApplications(for: type)
            + fallbackApplications(for: type)).filter { seen.insert($0.id).inserted }
    }

    /// The applications that can open every one of `types`, in the Open With order of the
    /// first type (for a selection of files of different kinds).
    public func applications(forAll types: [DocumentType]) -> [Application] {
        var seen = Set<DocumentType>()
        return Self.common(types.filter { seen.insert($0).inserted }.map(applications(for:)))
    }

    /// The applications found in every one of `lists`, in the order of the first list (the
    /// Open With list for several files: only apps that can open all of them).
    public static func common(_ lists: [[Application]]) -> [Application] {
        guard var result = lists.first else { return [] }
        for list in lists.dropFirst() {
            let ids = Set(list.map(\.id))
            result.removeAll { !ids.contains($0.id) }
        }
        return result
    }

    /// Every installed application that should be shown in menus.
    public func allApplications() -> [Application] {
        applications(g_app_info_get_all()).filter { g_app_info_should_show($0.info.appInfo) != 0 }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }

    /// The application with the desktop file ID `id` (`org.gnome.Evince` or `org.gnome.Evince.desktop`).
    public func application(id: String) -> Application? {
        let desktopID = id.hasSuffix(".desktop") ? id : id + ".desktop"
        guard let info = g_desktop_app_info_new(desktopID) else { return nil }
        return Application(adopting: UnsafeMutableRawPointer(info))
    }

    /// The application described by the desktop entry at `path`, installed or not.
    public func application(desktopFile path: String) -> Application? {
        guard let info = g_desktop_app_info_new_from_filename(path) else { return nil }
        return Application(adopting: UnsafeMutableRawPointer(info))
    }

    /// Makes `application` the default for `type`, written to `$XDG_CONFIG_HOME/mimeapps.list`.
    public func setDefault(_ application: Application, for type: DocumentType) throws(ApplicationError) {
        do {
            _ = try withGError { g_app_info_set_as_default_for_type(application.info.appInfo, type.identifier, $0) }
        } catch {
            throw .couldNotSetDefault(application: application.name, type: type.identifier, reason: "\(error)")
        }
    }

    private func applications(_ list: UnsafeMutablePointer<GList>?) -> [Application] {
        takeObjectList(list).compactMap { reference in
            g_object_ref(reference.pointer)  // Application adopts one reference of its own.
            return Application(adopting: reference.pointer)
        }
    }
}

/// Why an application could not be used.
public enum ApplicationError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The application was found but did not start with these files.
    case launchFailed(application: String, files: String, reason: String)
    /// No installed application opens files of this type.
    case noApplication(files: String, type: String)
    /// No installed application has this desktop entry ID.
    case unknownApplication(id: String)
    /// Writing the application as the type's default to mimeapps.list failed.
    case couldNotSetDefault(application: String, type: String, reason: String)

    public var description: String {
        switch self {
        case .launchFailed(let application, let files, let reason):
            tr("'%s' could not be opened with %s: %s", files, application, reason)
        case .noApplication(let files, let type):
            tr("No application is installed for '%s' (%s)", files, type)
        case .unknownApplication(let id):
            tr("No application with the ID '%s' is installed", id)
        case .couldNotSetDefault(let application, let type, let reason):
            tr("%s could not be made the default for %s: %s", application, type, reason)
        }
    }

    public var errorDescription: String? { description }
}
