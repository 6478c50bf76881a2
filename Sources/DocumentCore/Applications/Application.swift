import CGLib
import Foundation
import GObjectSupport

/// An installed application that can open documents: a desktop entry read through GIO's
/// `GAppInfo` (Desktop Entry spec: `Name`, `Exec`, `MimeType`, `DBusActivatable`, …).
public struct Application: Sendable, Hashable, CustomStringConvertible {
    /// The desktop file ID, e.g. `org.gnome.Evince.desktop`.
    public let id: String
    /// The name to show in menus, in the user's language.
    public let name: String
    /// The icon names (or a file path) of the app's icon, best first.
    public let iconNames: [String]
    /// The command line template (`Exec=`), for display and diagnostics.
    public let commandLine: String?
    /// MIME types the app declares (`MimeType=`).
    public let supportedTypes: [DocumentType]

    let info: AppInfoBox

    public var description: String { "\(name) (\(id))" }

    public static func == (lhs: Application, rhs: Application) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Wraps a `GAppInfo` the caller owns a reference to (consumed).
    init?(adopting appInfo: UnsafeMutableRawPointer) {
        let box = AppInfoBox(ObjectReference(adopting: appInfo))
        let pointer = box.appInfo
        guard let id = borrowString(g_app_info_get_id(pointer)) else { return nil }
        self.id = id
        name = borrowString(g_app_info_get_display_name(pointer)) ?? id
        commandLine = borrowString(g_app_info_get_commandline(pointer))
        supportedTypes = borrowStringArray(g_app_info_get_supported_types(pointer)).map(DocumentType.init(mimeType:))
        var icons: [String] = []
        if let icon = g_app_info_get_icon(pointer) {
            if let themed = dossier_g_themed_icon(UnsafeMutableRawPointer(icon)) {
                icons = borrowStringArray(g_themed_icon_get_names(themed))
            } else if let description = takeString(g_icon_to_string(icon)) {
                icons = [description]
            }
        }
        iconNames = icons + ["application-x-executable"]
        info = box
    }
}

/// Holds the `GAppInfo`. GAppInfo objects are immutable once loaded, so sharing one across
/// threads for reading and launching is safe.
final class AppInfoBox: @unchecked Sendable {
    let reference: ObjectReference
    init(_ reference: ObjectReference) { self.reference = reference }
    var appInfo: OpaquePointer { OpaquePointer(reference.pointer) }
}
