import CImaging
import DossierFixtures
import Foundation

/// The documents the previewer bench shows, written from nothing: the same bytes on every run.
enum GeneratedDocuments {
    /// A PDF of `pages` pages of text, drawn with cairo.
    static func pdf(at url: URL, pages: Int) throws {
        let surface = cairo_pdf_surface_create(url.path, 595, 842)
        let context = cairo_create(surface)
        cairo_select_font_face(context, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        for page in 1...pages {
            cairo_set_font_size(context, 24)
            cairo_move_to(context, 60, 90)
            cairo_show_text(context, "Page \(page) of the benchmark document")
            cairo_set_font_size(context, 11)
            for line in 0..<50 {
                cairo_move_to(context, 60, 130 + Double(line) * 13.5)
                cairo_show_text(context, "Line \(line + 1): the previewer shows every page of this document, scrolled.")
            }
            cairo_show_page(context)
        }
        cairo_destroy(context)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw BenchInputError("cairo could not write \(url.path)") }
    }

    /// A server log of about `bytes` bytes.
    static func log(at url: URL, bytes: Int) throws {
        var text = ""
        var line = 0
        while text.utf8.count < bytes {
            line += 1
            text += "2026-11-21 10:\(String(format: "%02d", line % 60)):00 INFO request \(line) served in \(line % 97) ms from cache\n"
        }
        try Data(text.utf8).write(to: url)
    }

    /// A web page in a folder of its own: `index.html` with a style sheet, a photo across the
    /// top and a chart, all beside it on disk (nothing remote, no script).
    static func webPage(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try photo(at: folder.appendingPathComponent("images/harbour.jpg"), width: 1600, height: 600)
        try chart(at: folder.appendingPathComponent("images/chart.png"))
        try Data(WebPageText.styleSheet.utf8).write(to: folder.appendingPathComponent("style.css"))
        try Data(WebPageText.page.utf8).write(to: folder.appendingPathComponent("index.html"))
    }

    /// The sample corpus's TrueType font (DejaVu Sans Mono), or Debian's DejaVu Sans.
    static func font(at url: URL) throws {
        let candidates = ["data/samples/font.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
        guard let source = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw BenchInputError("no TrueType font found (looked for \(candidates.joined(separator: ", ")))")
        }
        try FileManager.default.copyItem(at: URL(fileURLWithPath: source), to: url)
    }

    /// An OpenDocument text of `pages` chapters, each starting a page and filling it.
    static func openDocumentText(at url: URL, pages: Int) throws {
        var body = ""
        for chapter in 1...pages {
            body += "<text:h text:style-name=\"Chapter\" text:outline-level=\"1\">Chapter \(chapter): the quarterly report</text:h>\n"
            for paragraph in 1...7 {
                body += "<text:p>" + prose(seed: chapter * 10 + paragraph, sentences: 6) + "</text:p>\n"
            }
        }
        let content = """
            <?xml version="1.0" encoding="UTF-8"?>
            <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
            xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" \
            xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2">
            <office:automatic-styles>
            <style:style style:name="Chapter" style:family="paragraph">\
            <style:paragraph-properties fo:break-before="page" fo:margin-bottom="0.4cm"/>\
            <style:text-properties fo:font-size="20pt" fo:font-weight="bold"/></style:style>
            </office:automatic-styles>
            <office:body><office:text>
            \(body)</office:text></office:body></office:document-content>

            """
        let manifest = """
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
             <manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="application/vnd.oasis.opendocument.text"/>
             <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
            </manifest:manifest>

            """
        // The mimetype entry first and stored, as the OpenDocument package format asks (§3.3).
        let archive = SampleFiles.zip(entries: [
            ("mimetype", Array("application/vnd.oasis.opendocument.text".utf8)),
            ("content.xml", Array(content.utf8)),
            ("META-INF/manifest.xml", Array(manifest.utf8)),
        ])
        try Data(archive).write(to: url)
    }

    /// A folder of `files` small files of a few kinds.
    static func folder(at url: URL, files: Int) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let kinds = ["txt", "md", "csv", "json", "html", "log"]
        for index in 1...files {
            let name = String(format: "item-%05d.%@", index, kinds[index % kinds.count])
            try Data("item \(index)\n".utf8).write(to: url.appendingPathComponent(name))
        }
    }

    /// A zip of `entries` short text files in folders of 100.
    static func zip(at url: URL, entries: Int) throws {
        let files = (0..<entries).map { index in
            (name: String(format: "reports/part-%02d/report-%04d.txt", index / 100, index), data: Array(prose(seed: index, sentences: 2).utf8))
        }
        try Data(SampleFiles.zip(entries: files)).write(to: url)
    }

    /// Markdown of about `bytes` bytes: headings, paragraphs with emphasis, code and links,
    /// lists, quotes, code blocks and tables.
    static func markdown(at url: URL, bytes: Int) throws {
        var text = "# Field notes\n\nA long document for the previewer bench.\n\n"
        var section = 0
        while text.utf8.count < bytes {
            section += 1
            text += """
                ## Section \(section)

                \(prose(seed: section, sentences: 4)) See *the appendix*, the **summary** and `notes-\(section).txt`, \
                or [the project page](https://example.org/section/\(section)).

                - \(prose(seed: section + 1, sentences: 1))
                - \(prose(seed: section + 2, sentences: 1))
                  1. a nested item with `code`
                  2. and **another**

                > \(prose(seed: section + 3, sentences: 2))

                ```swift
                let section = \(section)
                print("section \\(section) of the field notes")
                ```

                | station | reading | unit |
                |---|---:|---|
                | north-\(section) | \(section * 7 % 100).\(section % 10) | mm |
                | south-\(section) | \(section * 13 % 100).\(section % 7) | mm |


                """
        }
        try Data(text.utf8).write(to: url)
    }

    /// A CSV of a header and `rows` rows of orders.
    static func csv(at url: URL, rows: Int) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let file = try? FileHandle(forWritingTo: url) else {
            throw BenchInputError("\(url.path) could not be written")
        }
        defer { try? file.close() }
        let cities = ["Lisbon", "Oslo", "Porto", "Tallinn", "Lyon", "Turku", "Gent", "Brno"]
        var chunk = "order,date,city,quantity,price\n"
        for row in 1...rows {
            chunk += "\(row),2026-\(String(format: "%02d-%02d", row % 12 + 1, row % 28 + 1)),\(cities[row % cities.count]),\(row % 17 + 1),\(row % 9973 / 100).\(String(format: "%02d", row % 100))\n"
            if chunk.utf8.count > 1 << 20 {
                try file.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try file.write(contentsOf: Data(chunk.utf8))
    }

    /// A photo-like JPEG: smooth colour with fine noise, like `ThumbnailBenchmark.makePhoto`.
    static func photo(at url: URL, width: Int, height: Int) throws {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else {
            throw BenchInputError("no memory for a \(width)×\(height) picture")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        var seed: UInt32 = 777
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int(seed >> 28)
                let offset = y * stride + x * 3
                let sky = y < height / 2
                pixels[offset] = UInt8(truncatingIfNeeded: (sky ? 90 : 30) + x * 80 / width + noise)
                pixels[offset + 1] = UInt8(truncatingIfNeeded: (sky ? 150 : 90) + y * 60 / height + noise)
                pixels[offset + 2] = UInt8(truncatingIfNeeded: (sky ? 220 : 120) - y * 60 / height + noise)
            }
        }
        var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
        var values: [UnsafeMutablePointer<CChar>?] = [strdup("85"), nil]
        defer { free(keys[0]); free(values[0]) }
        guard gdk_pixbuf_savev(pixbuf, url.path, "jpeg", &keys, &values, nil) != 0 else {
            throw BenchInputError("gdk-pixbuf could not write \(url.path)")
        }
    }

    /// A bar chart, drawn with cairo into a PNG.
    private static func chart(at url: URL) throws {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 800, 360)
        let context = cairo_create(surface)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        for bar in 0..<12 {
            let height = Double(40 + (bar * 37) % 280)
            cairo_set_source_rgb(context, 0.18, 0.45 + Double(bar) * 0.03, 0.75)
            cairo_rectangle(context, 40 + Double(bar) * 62, 340 - height, 44, height)
            cairo_fill(context)
        }
        cairo_destroy(context)
        let status = cairo_surface_write_to_png(surface, url.path)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw BenchInputError("cairo could not write \(url.path)") }
    }

    /// `sentences` sentences of plain English prose, chosen by `seed`.
    static func prose(seed: Int, sentences: Int) -> String {
        let subjects = ["The harbour office", "Every visitor", "The night shift", "Our survey team", "The new ferry", "The archive"]
        let verbs = ["recorded", "counted", "described", "compared", "reported", "measured"]
        let objects = ["the tides of the week", "the boats that came in late", "the weather over the bay",
                       "the cargo left on the quay", "the lights along the pier", "the prices at the fish market"]
        let endings = ["before noon.", "with some care.", "for the second time this month.", "as the rules ask.",
                       "in the usual notebook.", "without much trouble."]
        return (0..<sentences).map { index in
            let value = seed &* 31 &+ index &* 7
            return "\(subjects[value % 6]) \(verbs[(value / 6) % 6]) \(objects[(value / 36) % 6]) \(endings[(value / 5) % 6])"
        }.joined(separator: " ")
    }
}

/// A bench input that could not be made.
struct BenchInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
