#ifndef DOSSIER_CWEBKIT_SHIM_H
#define DOSSIER_CWEBKIT_SHIM_H

/* WebKitGTK for the HTML renderer: a web view that runs no JavaScript, loads nothing from
   the network, keeps nothing on disk, and hands link clicks to the caller. */
#include <webkit/webkit.h>

typedef void (*DossierLinkHandler)(const char *uri, gpointer data);
typedef void (*DossierLoadFinished)(gboolean ok, gpointer data);

typedef struct {
    WebKitWebView *view;
    char *html;
    char *base_uri;
    DossierLinkHandler on_link;
    gpointer link_data;
    DossierLoadFinished on_finished;
    gpointer finished_data;
} DossierWebLoad;

/* Reports the end of the document's load once (the page is then drawn). */
static void dossier_webview_finish(DossierWebLoad *load, gboolean ok) {
    if (load->on_finished != NULL) {
        DossierLoadFinished finished = load->on_finished;
        load->on_finished = NULL;
        finished(ok, load->finished_data);
    }
}

static void dossier_webview_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    if (event == WEBKIT_LOAD_FINISHED) dossier_webview_finish(data, TRUE);
}

/* Link clicks (and any navigation away from the document) go to the handler, never load. */
static gboolean dossier_webview_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision,
                                              WebKitPolicyDecisionType type, gpointer data) {
    DossierWebLoad *load = data;
    if (type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
        WebKitNavigationAction *action = webkit_navigation_policy_decision_get_navigation_action(
            WEBKIT_NAVIGATION_POLICY_DECISION(decision));
        if (webkit_navigation_action_get_navigation_type(action) == WEBKIT_NAVIGATION_TYPE_OTHER &&
            type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) {
            return FALSE; /* the document itself: default handling */
        }
        const char *uri = webkit_uri_request_get_uri(webkit_navigation_action_get_request(action));
        if (load->on_link != NULL && uri != NULL) load->on_link(uri, load->link_data);
        webkit_policy_decision_ignore(decision);
        return TRUE;
    }
    return FALSE;
}

static void dossier_webview_filter_saved(GObject *source, GAsyncResult *result, gpointer data) {
    DossierWebLoad *load = data;
    GError *error = NULL;
    WebKitUserContentFilter *filter = webkit_user_content_filter_store_save_finish(
        WEBKIT_USER_CONTENT_FILTER_STORE(source), result, &error);
    if (filter != NULL) {
        webkit_user_content_manager_add_filter(webkit_web_view_get_user_content_manager(load->view), filter);
        webkit_user_content_filter_unref(filter);
        webkit_web_view_load_html(load->view, load->html, load->base_uri);
    } else {
        /* Without the filter remote loads could not be stopped: show nothing rather than leak. */
        webkit_web_view_load_plain_text(load->view, error ? error->message : "");
        g_clear_error(&error);
        dossier_webview_finish(load, FALSE);
    }
    g_object_unref(load->view);
}

/* A web view with JavaScript off and an ephemeral (memory-only) network session. */
static inline GtkWidget *dossier_webview_new(void) {
    WebKitNetworkSession *session = webkit_network_session_new_ephemeral();
    GtkWidget *view = GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "network-session", session, NULL));
    g_object_unref(session);
    WebKitSettings *settings = webkit_web_view_get_settings(WEBKIT_WEB_VIEW(view));
    webkit_settings_set_enable_javascript(settings, FALSE);
    webkit_settings_set_enable_javascript_markup(settings, FALSE);
    webkit_settings_set_enable_html5_local_storage(settings, FALSE);
    webkit_settings_set_enable_html5_database(settings, FALSE);
    webkit_settings_set_enable_page_cache(settings, FALSE);
    webkit_settings_set_auto_load_images(settings, TRUE);
    return view;
}

/* Loads html (with base_uri for relative images) once a filter blocking every non-file URL
   is compiled into store_path; link clicks go to on_link. The load owns its strings. */
static inline void dossier_webview_load_offline(GtkWidget *view, const char *html, const char *base_uri,
                                                const char *store_path, DossierLinkHandler on_link, gpointer link_data,
                                                DossierLoadFinished on_finished, gpointer finished_data) {
    DossierWebLoad *load = g_new0(DossierWebLoad, 1);
    load->view = WEBKIT_WEB_VIEW(g_object_ref(view));
    load->html = g_strdup(html);
    load->base_uri = g_strdup(base_uri);
    load->on_link = on_link;
    load->link_data = link_data;
    load->on_finished = on_finished;
    load->finished_data = finished_data;
    g_signal_connect(view, "decide-policy", G_CALLBACK(dossier_webview_decide_policy), load);
    g_signal_connect(view, "load-changed", G_CALLBACK(dossier_webview_load_changed), load);
    WebKitUserContentFilterStore *store = webkit_user_content_filter_store_new(store_path);
    /* Block everything, then let local files and about: through (WebKit's rule regexes have
       no look-ahead, so "everything but" is two rules). */
    const char *rules =
        "[{\"trigger\":{\"url-filter\":\".*\"},\"action\":{\"type\":\"block\"}},"
        " {\"trigger\":{\"url-filter\":\"^file:\"},\"action\":{\"type\":\"ignore-previous-rules\"}},"
        " {\"trigger\":{\"url-filter\":\"^about:\"},\"action\":{\"type\":\"ignore-previous-rules\"}}]";
    GBytes *source = g_bytes_new_static(rules, strlen(rules));
    webkit_user_content_filter_store_save(store, "dossier-offline", source, NULL, dossier_webview_filter_saved, load);
    g_bytes_unref(source);
    g_object_unref(store);
}

#endif
