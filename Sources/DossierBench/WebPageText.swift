/// The previewer bench's web page: an article laid out by its style sheet, with a photo and a
/// chart from its own folder, the way a page saved from a news site looks (without scripts).
enum WebPageText {
    static let styleSheet = """
        :root { --ink: #1d2a36; --accent: #0b6e99; --paper: #fbfaf7; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 17px/1.6 "DejaVu Serif", Georgia, serif; color: var(--ink); background: var(--paper); }
        header.site { display: flex; align-items: center; justify-content: space-between; padding: 14px 32px;
                      background: var(--ink); color: white; font-family: "DejaVu Sans", sans-serif; }
        header.site nav a { color: #cfe8f5; margin-left: 18px; text-decoration: none; }
        .hero { position: relative; }
        .hero img { display: block; width: 100%; height: 320px; object-fit: cover; }
        .hero h1 { position: absolute; left: 32px; bottom: 20px; margin: 0; color: white; font-size: 40px;
                   text-shadow: 0 2px 6px rgba(0, 0, 0, .6); }
        main { display: grid; grid-template-columns: 1fr 260px; gap: 32px; max-width: 1100px; margin: 24px auto; padding: 0 32px; }
        article p:first-of-type::first-letter { float: left; font-size: 3.2em; line-height: 1; margin-right: 6px; color: var(--accent); }
        figure { margin: 24px 0; } figure img { width: 100%; border: 1px solid #ddd; }
        figcaption { font-size: 14px; color: #667; }
        aside { font-family: "DejaVu Sans", sans-serif; font-size: 14px; background: #eef4f7; padding: 16px; border-left: 4px solid var(--accent); }
        table { border-collapse: collapse; width: 100%; } td, th { padding: 4px 8px; border-bottom: 1px solid #ccd; text-align: left; }
        footer { text-align: center; padding: 24px; color: #667; font-size: 13px; }

        """

    static let page: String = {
        let paragraphs = (1...9).map { "<p>\(GeneratedDocuments.prose(seed: $0 * 3, sentences: 5))</p>" }
        let rows = (1...8).map { "<tr><td>Pier \($0)</td><td>\($0 * 17 % 60 + 20)</td><td>\($0 * 7 % 12 + 1) h</td></tr>" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>The harbour in November</title>
            <link rel="stylesheet" href="style.css">
            </head>
            <body>
            <header class="site"><strong>The Harbour Gazette</strong>
            <nav><a href="#news">News</a><a href="#tides">Tides</a><a href="#market">Market</a><a href="#about">About</a></nav></header>
            <div class="hero"><img src="images/harbour.jpg" alt="The harbour at dawn"><h1>The harbour in November</h1></div>
            <main>
            <article>
            \(paragraphs[0...3].joined(separator: "\n"))
            <figure><img src="images/chart.png" alt="Boats per day"><figcaption>Boats in, day by day.</figcaption></figure>
            \(paragraphs[4...].joined(separator: "\n"))
            </article>
            <aside><h2>Piers this week</h2>
            <table><tr><th>Pier</th><th>Boats</th><th>Wait</th></tr>
            \(rows.joined(separator: "\n"))
            </table></aside>
            </main>
            <footer>The Harbour Gazette, made for Dossier's previewer bench.</footer>
            </body>
            </html>

            """
    }()
}
