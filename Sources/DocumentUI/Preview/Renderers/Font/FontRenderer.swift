import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Fonts as a specimen: the family name, the alphabet, digits and punctuation, and a pangram
/// at several sizes, all drawn with the file's own font without installing it. The font is
/// loaded off the main thread into a private fontconfig configuration, and the specimen's
/// widgets get a Pango font map over that configuration alone.
@MainActor
public final class FontRenderer: PreviewRenderer {
    public static let supportedTypes: [DocumentType] = [.font]
    static let sizes = [12, 18, 24, 36, 48, 72]

    public let view: Widget
    private let column: Widget
    private var font: FontFile?

    public init() {
        column = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [])
        gtk_widget_set_margin_top(column, 24)
        gtk_widget_set_margin_bottom(column, 24)
        gtk_widget_set_margin_start(column, 32)
        gtk_widget_set_margin_end(column, 32)
        view = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(view), column)
    }

    public func load(_ item: PreviewItem, type: DocumentType) async throws {
        let path = item.url.path
        let loaded = await Task.detached { () -> Result<FontFile, PreviewError> in
            do throws(PreviewError) { return .success(try FontFile.load(path)) } catch { return .failure(error) }
        }.value
        let font = try loaded.get()
        self.font = font

        // Only the specimen uses the file's font: the captions keep the desktop's.
        let specimen = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [])
        guard let fontMap = dossier_font_map_new_for_config(font.config) else {
            throw PreviewError(tr("The font could not be read."))
        }
        gtk_widget_set_font_map(specimen, fontMap)
        g_object_unref(raw(fontMap))

        let family = escapeMarkup(font.family)
        func line(_ text: String, points: Int) -> Widget {
            let label = gtk_label_new(nil)!
            gtk_label_set_markup(opaque(label),
                                 "<span font_family=\"\(family)\" size=\"\(points * 1024)\">\(escapeMarkup(text))</span>")
            gtk_label_set_xalign(opaque(label), 0)
            gtk_label_set_wrap(opaque(label), 1)
            gtk_label_set_wrap_mode(opaque(label), PANGO_WRAP_WORD_CHAR)
            gtk_label_set_selectable(opaque(label), 1)
            return label
        }
        if font.coversFamily {
            gtk_box_append(cast(specimen), line(font.family, points: 40))
        } else {
            // A font without the letters of its own name: the name in the desktop's font.
            let name = makeLabel(font.family, classes: ["title-1"], selectable: true)
            gtk_label_set_xalign(opaque(name), 0)
            gtk_box_append(cast(column), name)
        }
        if font.coversLatin {
            for text in ["ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "0123456789 .,:;!?&@#%*()[]{}"] {
                gtk_box_append(cast(specimen), line(text, points: 24))
            }
        }
        gtk_box_append(cast(specimen), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        for points in Self.sizes {
            gtk_box_append(cast(specimen), line(font.sample, points: points))
        }

        var details = [font.style, type.localizedDescription].compactMap { $0 }
        if font.faceCount > 1 { details.append(trn("%d face", "%d faces", font.faceCount)) }
        let caption = makeLabel(details.joined(separator: " · "), classes: ["dim-label"])
        gtk_label_set_xalign(opaque(caption), 0)
        gtk_box_append(cast(column), caption)
        gtk_box_append(cast(column), specimen)
        let sizes = makeLabel(tr("Sizes: %s points", Self.sizes.map(String.init).joined(separator: ", ")), classes: ["dim-label", "caption"])
        gtk_label_set_xalign(opaque(sizes), 0)
        gtk_box_append(cast(column), sizes)
        setAccessibleName(view, tr("Font specimen of %s", item.displayTitle))
    }
}
