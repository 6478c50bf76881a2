#include "CWebKit.h"

#include <string.h>

#include "CLoader.h"

/* The part of WebKitGTK 6.0's API (libwebkitgtk-6.0.so.4, a stable ABI) the renderer calls,
   declared here as <webkit/webkit.h> declares it: the header is not included, so the build
   needs neither its include path nor the library. */
typedef struct _WebKitWebView WebKitWebView;
typedef struct _WebKitSettings WebKitSettings;
typedef struct _WebKitNetworkSession WebKitNetworkSession;
typedef struct _WebKitPolicyDecision WebKitPolicyDecision;
typedef struct _WebKitNavigationPolicyDecision WebKitNavigationPolicyDecision;
typedef struct _WebKitNavigationAction WebKitNavigationAction;
typedef struct _WebKitURIRequest WebKitURIRequest;
typedef struct _WebKitUserContentManager WebKitUserContentManager;
typedef struct _WebKitUserContentFilter WebKitUserContentFilter;
typedef struct _WebKitUserContentFilterStore WebKitUserContentFilterStore;

enum { WEBKIT_LOAD_FINISHED = 3 };                                     /* WebKitLoadEvent */
enum { WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION = 0,              /* WebKitPolicyDecisionType */
       WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION = 1 };
enum { WEBKIT_NAVIGATION_TYPE_LINK_CLICKED = 0, WEBKIT_NAVIGATION_TYPE_OTHER = 5 }; /* WebKitNavigationType */

static struct {
    GType (*web_view_get_type)(void);
    WebKitNetworkSession *(*network_session_new_ephemeral)(void);
    WebKitSettings *(*web_view_get_settings)(WebKitWebView *);
    void (*settings_set_enable_javascript)(WebKitSettings *, gboolean);
    void (*settings_set_enable_javascript_markup)(WebKitSettings *, gboolean);
    void (*settings_set_enable_html5_local_storage)(WebKitSettings *, gboolean);
    void (*settings_set_enable_html5_database)(WebKitSettings *, gboolean);
    void (*settings_set_enable_page_cache)(WebKitSettings *, gboolean);
    void (*settings_set_auto_load_images)(WebKitSettings *, gboolean);
    void (*web_view_load_html)(WebKitWebView *, const gchar *, const gchar *);
    void (*web_view_load_plain_text)(WebKitWebView *, const gchar *);
    WebKitUserContentManager *(*web_view_get_user_content_manager)(WebKitWebView *);
    void (*user_content_manager_add_filter)(WebKitUserContentManager *, WebKitUserContentFilter *);
    void (*user_content_filter_unref)(WebKitUserContentFilter *);
    WebKitUserContentFilterStore *(*user_content_filter_store_new)(const gchar *);
    void (*user_content_filter_store_save)(WebKitUserContentFilterStore *, const gchar *, GBytes *, GCancellable *,
                                           GAsyncReadyCallback, gpointer);
    WebKitUserContentFilter *(*user_content_filter_store_save_finish)(WebKitUserContentFilterStore *, GAsyncResult *,
                                                                      GError **);
    WebKitNavigationAction *(*navigation_policy_decision_get_navigation_action)(WebKitNavigationPolicyDecision *);
    int (*navigation_action_get_navigation_type)(WebKitNavigationAction *);
    WebKitURIRequest *(*navigation_action_get_request)(WebKitNavigationAction *);
    const gchar *(*uri_request_get_uri)(WebKitURIRequest *);
    void (*policy_decision_ignore)(WebKitPolicyDecision *);
    void (*user_content_manager_remove_all_filters)(WebKitUserContentManager *);
} webkit;

/* The table's entries in order, by their names without the "webkit_" prefix. */
static const char *const webkit_symbols[] = {
    "web_view_get_type", "network_session_new_ephemeral", "web_view_get_settings",
    "settings_set_enable_javascript", "settings_set_enable_javascript_markup",
    "settings_set_enable_html5_local_storage", "settings_set_enable_html5_database",
    "settings_set_enable_page_cache", "settings_set_auto_load_images", "web_view_load_html",
    "web_view_load_plain_text", "web_view_get_user_content_manager", "user_content_manager_add_filter",
    "user_content_filter_unref", "user_content_filter_store_new", "user_content_filter_store_save",
    "user_content_filter_store_save_finish", "navigation_policy_decision_get_navigation_action",
    "navigation_action_get_navigation_type", "navigation_action_get_request", "uri_request_get_uri",
    "policy_decision_ignore", "user_content_manager_remove_all_filters",
};
G_STATIC_ASSERT(sizeof webkit == G_N_ELEMENTS(webkit_symbols) * sizeof(void (*)(void)));

static char *webkit_error;

static gpointer webkit_open(gpointer unused) {
    (void)unused;
    return dossier_library_open("DOSSIER_WEBKIT_LIBRARY", "libwebkitgtk-6.0.so.4", "webkit_", webkit_symbols,
                                G_N_ELEMENTS(webkit_symbols), (void (**)(void))&webkit, &webkit_error);
}

gboolean dossier_webkit_load(char **error) {
    static GOnce once = G_ONCE_INIT;
    gboolean ready = g_once(&once, webkit_open, NULL) != NULL;
    if (!ready && error != NULL) *error = g_strdup(webkit_error);
    return ready;
}

typedef struct {
    WebKitWebView *view;
    char *html;
    char *base_uri;
    /* Whether the document's own navigation (the load of `html`) has begun: every later
       navigation is one the page made, or a click. */
    gboolean document_started;
    DossierLinkHandler on_link;
    gpointer link_data;
    DossierLoadFinished on_finished;
    gpointer finished_data;
} DossierWebLoad;

/* Reports the end of the document's load once (the page is then drawn). */
static void webview_finish(DossierWebLoad *load, gboolean ok) {
    if (load->on_finished != NULL) {
        DossierLoadFinished finished = load->on_finished;
        load->on_finished = NULL;
        finished(ok, load->finished_data);
    }
}

static void webview_load_changed(WebKitWebView *view, int event, gpointer data) {
    (void)view;
    if (event == WEBKIT_LOAD_FINISHED) webview_finish(data, TRUE);
}

/* The document loads once; after it, the page goes nowhere by itself. A link the user clicks
   goes to the handler (a link within the page, to its own #fragment, scrolls there); every
   other navigation is refused and the page stays: a meta refresh, a form, and any frame, to
   file: or to the network (a frame could show a local file the page was not given). */
static gboolean webview_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision, int type, gpointer data) {
    (void)view;
    DossierWebLoad *load = data;
    if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && type != WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
        return FALSE;
    }
    /* Both kinds are WebKitNavigationPolicyDecisions. */
    WebKitNavigationAction *action =
        webkit.navigation_policy_decision_get_navigation_action((WebKitNavigationPolicyDecision *)decision);
    int navigation = webkit.navigation_action_get_navigation_type(action);
    const char *uri = webkit.uri_request_get_uri(webkit.navigation_action_get_request(action));
    if (type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && !load->document_started &&
        navigation == WEBKIT_NAVIGATION_TYPE_OTHER && uri != NULL && strcmp(uri, load->base_uri) == 0) {
        load->document_started = TRUE;
        return FALSE; /* the document itself: default handling */
    }
    if (navigation == WEBKIT_NAVIGATION_TYPE_LINK_CLICKED && uri != NULL) {
        size_t base = strlen(load->base_uri);
        if (type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && strncmp(uri, load->base_uri, base) == 0 &&
            uri[base] == '#') {
            return FALSE; /* a place in the page itself */
        }
        if (load->on_link != NULL) load->on_link(uri, load->link_data);
    }
    webkit.policy_decision_ignore(decision);
    return TRUE;
}

static void webview_load_free(gpointer data) {
    DossierWebLoad *load = data;
    g_free(load->html);
    g_free(load->base_uri);
    g_free(load);
}

static void webview_filter_saved(GObject *source, GAsyncResult *result, gpointer data) {
    DossierWebLoad *load = data;
    GError *error = NULL;
    WebKitUserContentFilter *filter =
        webkit.user_content_filter_store_save_finish((WebKitUserContentFilterStore *)source, result, &error);
    if (filter != NULL) {
        webkit.user_content_manager_add_filter(webkit.web_view_get_user_content_manager(load->view), filter);
        webkit.user_content_filter_unref(filter);
        webkit.web_view_load_html(load->view, load->html, load->base_uri);
    } else {
        /* Without the filter remote loads could not be stopped: show nothing rather than leak. */
        webkit.web_view_load_plain_text(load->view, error ? error->message : "");
        g_clear_error(&error);
        webview_finish(load, FALSE);
    }
    g_object_unref(load->view);
}

GtkWidget *dossier_webview_new(void) {
    WebKitNetworkSession *session = webkit.network_session_new_ephemeral();
    GtkWidget *view = GTK_WIDGET(g_object_new(webkit.web_view_get_type(), "network-session", session, NULL));
    g_object_unref(session);
    WebKitSettings *settings = webkit.web_view_get_settings((WebKitWebView *)view);
    webkit.settings_set_enable_javascript(settings, FALSE);
    webkit.settings_set_enable_javascript_markup(settings, FALSE);
    webkit.settings_set_enable_html5_local_storage(settings, FALSE);
    webkit.settings_set_enable_html5_database(settings, FALSE);
    webkit.settings_set_enable_page_cache(settings, FALSE);
    webkit.settings_set_auto_load_images(settings, TRUE);
    return view;
}

void dossier_webview_load_offline(GtkWidget *view, const char *html, const char *base_uri, const char *store_path,
                                  DossierLinkHandler on_link, gpointer link_data,
                                  DossierLoadFinished on_finished, gpointer finished_data) {
    DossierWebLoad *load = g_new0(DossierWebLoad, 1);
    load->view = g_object_ref((WebKitWebView *)view);
    load->html = g_strdup(html);
    load->base_uri = g_strdup(base_uri);
    load->on_link = on_link;
    load->link_data = link_data;
    load->on_finished = on_finished;
    load->finished_data = finished_data;
    g_object_set_data_full(G_OBJECT(view), "dossier-web-load", load, webview_load_free);
    g_signal_connect(view, "decide-policy", G_CALLBACK(webview_decide_policy), load);
    g_signal_connect(view, "load-changed", G_CALLBACK(webview_load_changed), load);
    WebKitUserContentFilterStore *store = webkit.user_content_filter_store_new(store_path);
    /* Block everything, then let local files and about: through (WebKit's rule regexes have
       no look-ahead, so "everything but" is two rules), but not the system's device, process
       and kernel files: an <img src="file:///dev/urandom"> or a CSS url(file:///dev/zero) was
       read without end, and the web process grew by gigabytes (found by make soak). The rule
       regexes have no alternation either: one rule each. */
    const char *rules =
        "[{\"trigger\":{\"url-filter\":\".*\"},\"action\":{\"type\":\"block\"}},"
        " {\"trigger\":{\"url-filter\":\"^file:\"},\"action\":{\"type\":\"ignore-previous-rules\"}},"
        " {\"trigger\":{\"url-filter\":\"^about:\"},\"action\":{\"type\":\"ignore-previous-rules\"}},"
        " {\"trigger\":{\"url-filter\":\"^file:///dev/\"},\"action\":{\"type\":\"block\"}},"
        " {\"trigger\":{\"url-filter\":\"^file:///proc/\"},\"action\":{\"type\":\"block\"}},"
        " {\"trigger\":{\"url-filter\":\"^file:///sys/\"},\"action\":{\"type\":\"block\"}}]";
    GBytes *source = g_bytes_new_static(rules, strlen(rules));
    webkit.user_content_filter_store_save(store, "dossier-offline", source, NULL, webview_filter_saved, load);
    g_bytes_unref(source);
    g_object_unref(store);
}

void dossier_webview_load_remote_content(GtkWidget *view) {
    DossierWebLoad *load = g_object_get_data(G_OBJECT(view), "dossier-web-load");
    if (load == NULL) return;
    webkit.user_content_manager_remove_all_filters(webkit.web_view_get_user_content_manager(load->view));
    load->document_started = FALSE;
    webkit.web_view_load_html(load->view, load->html, load->base_uri);
}
