/* Printing a web view's page without a dialog: see the printing block of CWebKit.h. Kept apart
   from WebView.c, with a symbol table of its own, as printing is a concern of its own. */
#include "CWebKit.h"

#include "CLoader.h"

/* The part of WebKitGTK 6.0's printing API used here, declared as <webkit/webkit.h> declares
   it (the header is not included: see WebView.c). */
typedef struct _WebKitWebView WebKitWebView;
typedef struct _WebKitPrintOperation WebKitPrintOperation;

static struct {
    WebKitPrintOperation *(*print_operation_new)(WebKitWebView *);
    void (*print_operation_set_print_settings)(WebKitPrintOperation *, GtkPrintSettings *);
    void (*print_operation_set_page_setup)(WebKitPrintOperation *, GtkPageSetup *);
    void (*print_operation_print)(WebKitPrintOperation *);
} webprint;

/* The table's entries in order, by their names without the "webkit_" prefix. */
static const char *const webprint_symbols[] = {
    "print_operation_new", "print_operation_set_print_settings", "print_operation_set_page_setup",
    "print_operation_print",
};
G_STATIC_ASSERT(sizeof webprint == G_N_ELEMENTS(webprint_symbols) * sizeof(void (*)(void)));

static char *webprint_error;

static gpointer webprint_open(gpointer unused) {
    (void)unused;
    return dossier_library_open("DOSSIER_WEBKIT_LIBRARY", "libwebkitgtk-6.0.so.4", "webkit_", webprint_symbols,
                                G_N_ELEMENTS(webprint_symbols), (void (**)(void))&webprint, &webprint_error);
}

typedef struct {
    DossierPrintFinished on_finished;
    gpointer data;
    char *error;
} DossierWebPrint;

static void webprint_failed(WebKitPrintOperation *operation, GError *error, gpointer data) {
    (void)operation;
    DossierWebPrint *print = data;
    if (print->error == NULL) print->error = g_strdup(error != NULL ? error->message : "");
}

/* "finished" comes once, after "failed" when printing failed. */
static void webprint_finished(WebKitPrintOperation *operation, gpointer data) {
    DossierWebPrint *print = data;
    print->on_finished(print->error, print->data);
    g_free(print->error);
    g_free(print);
    g_object_unref(operation);
}

void dossier_webview_print(GtkWidget *view, GtkPrintSettings *settings, GtkPageSetup *page_setup,
                           DossierPrintFinished on_finished, gpointer data) {
    static GOnce once = G_ONCE_INIT;
    if (g_once(&once, webprint_open, NULL) == NULL) {
        on_finished(webprint_error, data);
        return;
    }
    DossierWebPrint *print = g_new0(DossierWebPrint, 1);
    print->on_finished = on_finished;
    print->data = data;
    WebKitPrintOperation *operation = webprint.print_operation_new((WebKitWebView *)view);
    webprint.print_operation_set_print_settings(operation, settings);
    webprint.print_operation_set_page_setup(operation, page_setup);
    g_signal_connect(operation, "failed", G_CALLBACK(webprint_failed), print);
    g_signal_connect(operation, "finished", G_CALLBACK(webprint_finished), print);
    webprint.print_operation_print(operation);
}
