/* poppler-glib opened on first use: see CPoppler.h. */
#include "CPoppler.h"

#include <gio/gio.h>

#include "CLoader.h"

/* The part of poppler-glib's API (libpoppler-glib.so.8, a stable ABI) used here, declared as
   <poppler.h> declares it: the header is not included, so the build needs neither its
   include path nor the library. */
typedef struct {
    int type; /* PopplerActionType */
    char *title;
    char *uri;
} PopplerActionUri; /* the union PopplerAction's member for POPPLER_ACTION_URI */
enum { POPPLER_ACTION_URI = 5 };
enum { POPPLER_ERROR_ENCRYPTED = 1 };
typedef struct {
    DossierPDFRectangle area;
    PopplerActionUri *action;
} PopplerLinkMapping;

static struct {
    DossierPDFDocument *(*document_new_from_file)(const char *, const char *, GError **);
    DossierPDFDocument *(*document_new_from_fd)(int, const char *, GError **);
    int (*document_get_n_pages)(DossierPDFDocument *);
    DossierPDFPage *(*document_get_page)(DossierPDFDocument *, int);
    void (*page_get_size)(DossierPDFPage *, double *, double *);
    void (*page_render)(DossierPDFPage *, cairo_t *);
    void (*page_render_for_printing)(DossierPDFPage *, cairo_t *);
    char *(*page_get_text)(DossierPDFPage *);
    gboolean (*page_get_text_layout)(DossierPDFPage *, DossierPDFRectangle **, guint *);
    GList *(*page_get_link_mapping)(DossierPDFPage *);
    void (*page_free_link_mapping)(GList *);
    GQuark (*error_quark)(void);
} poppler;

/* The table's entries in order, by their names without the "poppler_" prefix. */
static const char *const poppler_symbols[] = {
    "document_new_from_file", "document_new_from_fd", "document_get_n_pages", "document_get_page", "page_get_size", "page_render",
    "page_render_for_printing", "page_get_text", "page_get_text_layout", "page_get_link_mapping",
    "page_free_link_mapping", "error_quark",
};
G_STATIC_ASSERT(sizeof poppler == G_N_ELEMENTS(poppler_symbols) * sizeof(void (*)(void)));

static char *poppler_error;

static gpointer poppler_open(gpointer unused) {
    (void)unused;
    return dossier_library_open("DOSSIER_POPPLER_LIBRARY", "libpoppler-glib.so.8", "poppler_", poppler_symbols,
                                G_N_ELEMENTS(poppler_symbols), (void (**)(void))&poppler, &poppler_error);
}

gboolean dossier_pdf_load(char **error) {
    static GOnce once = G_ONCE_INIT;
    gboolean loaded = g_once(&once, poppler_open, NULL) != NULL;
    if (!loaded && error != NULL) *error = g_strdup(poppler_error);
    return loaded;
}

DossierPDFDocument *dossier_pdf_open(const char *uri, GError **error) {
    char *reason = NULL;
    if (!dossier_pdf_load(&reason)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "poppler-glib could not be loaded: %s", reason);
        g_free(reason);
        return NULL;
    }
    return poppler.document_new_from_file(uri, NULL, error);
}

DossierPDFDocument *dossier_pdf_open_fd(int fd, GError **error) {
    char *reason = NULL;
    if (!dossier_pdf_load(&reason)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "poppler-glib could not be loaded: %s", reason);
        g_free(reason);
        return NULL;
    }
    return poppler.document_new_from_fd(fd, NULL, error);
}

gboolean dossier_pdf_error_is_encrypted(const GError *error) {
    return error != NULL && dossier_pdf_load(NULL) && error->domain == poppler.error_quark() &&
           error->code == POPPLER_ERROR_ENCRYPTED;
}

int dossier_pdf_page_count(DossierPDFDocument *document) { return poppler.document_get_n_pages(document); }

DossierPDFPage *dossier_pdf_get_page(DossierPDFDocument *document, int index) {
    return poppler.document_get_page(document, index);
}

void dossier_pdf_page_size(DossierPDFPage *page, double *width, double *height) {
    poppler.page_get_size(page, width, height);
}

void dossier_pdf_page_render(DossierPDFPage *page, cairo_t *cr) { poppler.page_render(page, cr); }

void dossier_pdf_page_render_for_printing(DossierPDFPage *page, cairo_t *cr) {
    poppler.page_render_for_printing(page, cr);
}

char *dossier_pdf_page_text(DossierPDFPage *page) { return poppler.page_get_text(page); }

gboolean dossier_pdf_page_text_layout(DossierPDFPage *page, DossierPDFRectangle **rectangles, guint *count) {
    return poppler.page_get_text_layout(page, rectangles, count);
}

int dossier_pdf_page_uri_links(DossierPDFPage *page, double scale, double *rects, char **uris, int max) {
    double width = 0, height = 0;
    poppler.page_get_size(page, &width, &height);
    GList *mapping = poppler.page_get_link_mapping(page);
    int count = 0;
    for (GList *node = mapping; node != NULL && count < max; node = node->next) {
        PopplerLinkMapping *link = node->data;
        if (link->action == NULL || link->action->type != POPPLER_ACTION_URI || link->action->uri == NULL) continue;
        rects[count * 4 + 0] = link->area.x1 * scale;
        rects[count * 4 + 1] = (height - link->area.y2) * scale;
        rects[count * 4 + 2] = link->area.x2 * scale;
        rects[count * 4 + 3] = (height - link->area.y1) * scale;
        uris[count] = g_strdup(link->action->uri);
        count++;
    }
    poppler.page_free_link_mapping(mapping);
    return count;
}
