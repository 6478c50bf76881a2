import CGtk
import GObjectSupport

/// `text` escaped for Pango markup (`<`, `>`, `&`, quotes) by GLib's `g_markup_escape_text`, so
/// nothing read from a file becomes markup.
func escapeMarkup(_ text: String) -> String {
    takeString(g_markup_escape_text(text, -1)) ?? ""
}
