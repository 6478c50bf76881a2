import CGtk
import Foundation
import GObjectSupport

/// A count with the locale's digit grouping ("1,000,000").
func formattedCount(_ number: Int) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    return formatter.string(from: NSNumber(value: number)) ?? String(number)
}

/// A size the way GNOME writes it ("1.2 MB"), by GLib's `g_format_size`.
func formattedSize(_ bytes: Int64) -> String {
    takeString(g_format_size(guint64(max(bytes, 0)))) ?? String(bytes)
}
