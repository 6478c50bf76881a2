#ifndef DOSSIER_CPOPPLER_H
#define DOSSIER_CPOPPLER_H

/* PDF documents through poppler-glib, in the decoder worker only
   (DocumentCore/Formats/PDF): the previewer's process never calls them.

   poppler-glib is not linked: with poppler itself, NSS, NSPR, lcms2 and OpenJPEG it is ten
   libraries that every start of Dossier would load, for nothing, to show a text file or a
   folder. It is opened with dlopen() the first time a PDF is opened, on the thread that
   opens it (the renderers open documents off the main thread). Documents and pages are
   GObjects: g_object_unref them. */
#include <glib.h>

typedef struct _cairo cairo_t;
typedef struct DossierPDFDocument DossierPDFDocument;
typedef struct DossierPDFPage DossierPDFPage;

/* A character's box on a page, in points from its top-left corner (PopplerRectangle). */
typedef struct {
    double x1, y1, x2, y2;
} DossierPDFRectangle;

/* Opens libpoppler-glib.so.8 (once; thread-safe). TRUE when it is ready; otherwise FALSE,
   and *error (when not NULL) gets why, to free with g_free. The other functions need it:
   dossier_pdf_open calls it. */
gboolean dossier_pdf_load(char **error);

/* The document at `uri` (poppler_document_new_from_file), or NULL with `error` set (also
   when poppler-glib could not be loaded). */
DossierPDFDocument *dossier_pdf_open(const char *uri, GError **error);

/* The document open at `fd` (poppler_document_new_from_fd, which takes the descriptor: pass
   a dup of one you keep), or NULL with `error` set (also when poppler-glib could not be
   loaded). For a decoder worker, which is given files as descriptors and may open no path. */
DossierPDFDocument *dossier_pdf_open_fd(int fd, GError **error);

/* Whether `error` (from dossier_pdf_open) says the document needs a password. */
gboolean dossier_pdf_error_is_encrypted(const GError *error);

int dossier_pdf_page_count(DossierPDFDocument *document);
/* Page `index` (0-based), or NULL. */
DossierPDFPage *dossier_pdf_get_page(DossierPDFDocument *document, int index);
/* The page's size in points. */
void dossier_pdf_page_size(DossierPDFPage *page, double *width, double *height);
/* Draws the page on `cr`, one unit a point. */
void dossier_pdf_page_render(DossierPDFPage *page, cairo_t *cr);
/* Draws the page for a printer (poppler_page_render_for_printing): at full resolution, with
   the annotations a printout shows and without those only meant for the screen. */
void dossier_pdf_page_render_for_printing(DossierPDFPage *page, cairo_t *cr);
/* The page's text (g_free) and one box per character of it (g_free), as poppler lays it out. */
char *dossier_pdf_page_text(DossierPDFPage *page);
gboolean dossier_pdf_page_text_layout(DossierPDFPage *page, DossierPDFRectangle **rectangles, guint *count);

/* The URI links of a page, as rectangles in pixels of a rendering at `scale` (origin at the
   top left): rects gets x1, y1, x2, y2 per link; uris gets new strings (g_free them).
   Returns the number found, at most `max`. */
int dossier_pdf_page_uri_links(DossierPDFPage *page, double scale, double *rects, char **uris, int max);

#endif
