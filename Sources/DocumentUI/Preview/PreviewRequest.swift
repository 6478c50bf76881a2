import CGLib
import DocumentCore
import Foundation
import GObjectSupport

/// A call another program made to show files in the previewer — Nautilus's `ShowFile` or
/// `Close` of `org.gnome.NautilusPreviewer2` — read from the method's name and its GVariant
/// arguments, checked against the types the interface declares.
package enum PreviewRequest: Equatable, Sendable {
    /// `ShowFile(s uri, s windowHandle, b closeIfAlreadyShown)` from Nautilus 43 to 49, and
    /// with `s activationToken` after them from Nautilus 50 (nil for the three-argument form;
    /// possibly empty). `url` is nil when the URI names neither a local file nor one of a
    /// GVFS location (sftp, smb, dav…, downloaded before it is shown): nothing is shown.
    case showFile(url: URL?, windowHandle: String, closeIfAlreadyShown: Bool, activationToken: String?)
    case close

    /// Reads a method call; nil for a method the previewer does not have, or arguments of
    /// other types than it declares (GDBus checks them before dispatch too).
    package init?(method: String, arguments: OpaquePointer?) {
        let signature = arguments.flatMap { borrowString(g_variant_get_type_string($0)) } ?? "()"
        switch (method, signature) {
        case ("ShowFile", "(ssb)"), ("ShowFile", "(ssbs)"):
            var uri: UnsafeMutablePointer<gchar>?
            var handle: UnsafeMutablePointer<gchar>?
            var close: gboolean = 0
            var token: UnsafeMutablePointer<gchar>?
            if signature == "(ssb)" {
                dossier_variant_get_ssb(arguments, &uri, &handle, &close)
            } else {
                dossier_variant_get_ssbs(arguments, &uri, &handle, &close, &token)
            }
            let url = takeString(uri).flatMap(URL.init(string:)).flatMap { RemoteFiles.isReadable($0) ? $0 : nil }
            self = .showFile(url: url, windowHandle: takeString(handle) ?? "", closeIfAlreadyShown: close != 0,
                             activationToken: takeString(token))
        case ("Close", "()"):
            self = .close
        default:
            return nil
        }
    }

    /// True for the methods the previewer has, whatever their arguments.
    package static func isKnown(method: String) -> Bool { method == "ShowFile" || method == "Close" }
}
