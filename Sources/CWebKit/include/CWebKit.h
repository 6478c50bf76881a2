#ifndef DOSSIER_CWEBKIT_H
#define DOSSIER_CWEBKIT_H

/* WebKitGTK for the HTML renderer: a web view that runs no JavaScript, loads nothing from
   the network, keeps nothing on disk, and hands link clicks to the caller.

   WebKitGTK (with JavaScriptCore, ICU, GStreamer and a hundred more libraries) is not
   linked: loading it costs tens of milliseconds that every start of Dossier would pay, the
   previewer service's above all. It is opened with dlopen() the first time an HTML page is
   shown; dossier_webkit_load() says whether that worked. */
#include <gtk/gtk.h>

typedef void (*DossierLinkHandler)(const char *uri, gpointer data);
typedef void (*DossierLoadFinished)(gboolean ok, gpointer data);

/* Opens WebKitGTK 6.0 (once; thread-safe). Returns TRUE when it is ready to use; otherwise
   FALSE, and *error (when not NULL) gets why, to free with g_free. Call it before the other
   functions here: they must not be called when it failed. */
gboolean dossier_webkit_load(char **error);

/* A web view with JavaScript off and an ephemeral (memory-only) network session. */
GtkWidget *dossier_webview_new(void);

/* Loads html (with base_uri for relative images) once a filter blocking every non-file URL
   is compiled into store_path; link clicks go to on_link; on_finished reports the end of
   the load once (the page is then drawn). The load owns copies of its strings. After the
   page, nothing navigates by itself: only links the user clicks go anywhere (to on_link).
   Once per view. */
void dossier_webview_load_offline(GtkWidget *view, const char *html, const char *base_uri, const char *store_path,
                                  DossierLinkHandler on_link, gpointer link_data,
                                  DossierLoadFinished on_finished, gpointer finished_data);

/* Loads the view's page again with its remote content (images, styles, fonts from the
   network): for this page only, once the user asked. JavaScript stays off, and the page still
   navigates nowhere by itself. Does nothing for a view that dossier_webview_load_offline did
   not load. */
void dossier_webview_load_remote_content(GtkWidget *view);

/* ---- Printing (WebPrint.c) ------------------------------------------------------------ */

/* Reports the end of a print: error is NULL when it went well, else why (valid only during
   the call). */
typedef void (*DossierPrintFinished)(const char *error, gpointer data);

/* Prints the page `view` has loaded, without a dialog, to the printer named in `settings`
   (GTK's file printer with an output-uri writes a PDF) on paper of `page_setup`; on_finished
   is called once. WebKit finds the printer with gtk_enumerate_printers, waiting for GTK's
   print backends in a nested main loop. Needs dossier_webkit_load() to have succeeded. */
void dossier_webview_print(GtkWidget *view, GtkPrintSettings *settings, GtkPageSetup *page_setup,
                           DossierPrintFinished on_finished, gpointer data);

/* ---- End of printing ------------------------------------------------------------------ */

#endif
