#ifndef DOSSIER_CGTK_COMPAT_H
#define DOSSIER_CGTK_COMPAT_H

#include <gtk/gtk.h>
#include <adwaita.h>

/* One call for what GTK and libadwaita replaced between 4.8 / 1.2 (Debian 12) and 4.24 / 1.10
   (Debian testing): the newer API where the headers have it, chosen here at compile time, the
   older one before. Swift code calls only these. What stays deprecated on newer stacks, and why,
   is listed in docs/architecture.md ("Platform: every current GNOME"). */

/* GL off for one gtk_init: GDK_DISABLE=gl,vulkan from GTK 4.16 (which no longer knows
   GDK_DEBUG=gl-disable and warns about it), GDK_DEBUG=gl-disable before. From 4.16 GDK probes
   Vulkan at display open as well as GL (which delays even a bare libadwaita window's first
   frame); GTK 4.8 does not draw with Vulkan unless asked to. */
static inline const char *dossier_gl_disable_variable(void) {
#if GTK_CHECK_VERSION(4, 16, 0)
    return "GDK_DISABLE";
#else
    return "GDK_DEBUG";
#endif
}
static inline const char *dossier_gl_disable_value(void) {
#if GTK_CHECK_VERSION(4, 16, 0)
    return "gl,vulkan";
#else
    return "gl-disable";
#endif
}

/* A point of `widget` in the coordinates of `target` (gtk_widget_compute_point from 4.10). */
static inline gboolean dossier_widget_translate(GtkWidget *widget, GtkWidget *target, double x, double y,
                                                double *target_x, double *target_y) {
#if GTK_CHECK_VERSION(4, 10, 0)
    graphene_point_t point = GRAPHENE_POINT_INIT((float)x, (float)y), result;
    if (!gtk_widget_compute_point(widget, target, &point, &result)) return FALSE;
    *target_x = result.x;
    *target_y = result.y;
    return TRUE;
#else
    return gtk_widget_translate_coordinates(widget, target, x, y, target_x, target_y);
#endif
}

/* The colour `widget` draws its text in (gtk_widget_get_color from 4.10, its style context's
   before: deprecated in 4.10). */
static inline void dossier_widget_color(GtkWidget *widget, GdkRGBA *color) {
#if GTK_CHECK_VERSION(4, 10, 0)
    gtk_widget_get_color(widget, color);
#else
    gtk_style_context_get_color(gtk_widget_get_style_context(widget), color);
#endif
}

/* Where `widget` is in its parent: its top and height (the allocation's, without the
   deprecated gtk_widget_get_allocation of 4.12). */
static inline void dossier_widget_vertical_extent(GtkWidget *widget, double *top, double *height) {
    graphene_rect_t bounds;
    GtkWidget *parent = gtk_widget_get_parent(widget);
    if (parent != NULL && gtk_widget_compute_bounds(widget, parent, &bounds)) {
        *top = bounds.origin.y;
        *height = bounds.size.height;
    } else {
        *top = 0;
        *height = gtk_widget_get_height(widget);
    }
}

/* A texture of a pixbuf's pixels, as gdk_texture_new_for_pixbuf (deprecated in 4.20) makes it:
   straight-alpha RGBA or RGB memory, shared with the pixbuf (kept alive with it), not copied. */
static inline GdkTexture *dossier_texture_new_for_pixbuf(GdkPixbuf *pixbuf) {
    GBytes *bytes = g_bytes_new_with_free_func(gdk_pixbuf_read_pixels(pixbuf), gdk_pixbuf_get_byte_length(pixbuf),
                                               g_object_unref, g_object_ref(pixbuf));
    GdkTexture *texture = gdk_memory_texture_new(gdk_pixbuf_get_width(pixbuf), gdk_pixbuf_get_height(pixbuf),
                                                 gdk_pixbuf_get_has_alpha(pixbuf) ? GDK_MEMORY_R8G8B8A8 : GDK_MEMORY_R8G8B8,
                                                 bytes, gdk_pixbuf_get_rowstride(pixbuf));
    g_bytes_unref(bytes);
    return texture;
}

/* A texture of 8-bit RGBA (straight alpha) or RGB rows at `data`, `stride` bytes apart, made
   over that memory without copying it: `release(owner)` is called when the texture (and anything
   GTK made of it) lets go of it. For pixels mapped from a decoder worker's sealed memfd. */
static inline GdkTexture *dossier_texture_new_for_memory(const void *data, gsize length, int width, int height,
                                                         gsize stride, gboolean has_alpha, GDestroyNotify release,
                                                         gpointer owner) {
    GBytes *bytes = g_bytes_new_with_free_func(data, length, release, owner);
    GdkTexture *texture = gdk_memory_texture_new(width, height, has_alpha ? GDK_MEMORY_R8G8B8A8 : GDK_MEMORY_R8G8B8,
                                                 bytes, stride);
    g_bytes_unref(bytes);
    return texture;
}

/* Message dialogs: AdwAlertDialog from libadwaita 1.5 (inside the parent when that is an
   AdwWindow or AdwApplicationWindow, a window of its own otherwise), AdwMessageDialog
   (deprecated in 1.6) before. Either way the dialog is a GtkWidget with a "response" (s)
   signal. A window's own key handler must let keys through to a dialog inside it: see
   dossier_focus_wants_keys. */
static inline GtkWidget *dossier_alert_new(const char *heading, const char *body) {
#if ADW_CHECK_VERSION(1, 5, 0)
    return adw_alert_dialog_new(heading, body);
#else
    return adw_message_dialog_new(NULL, heading, body);
#endif
}
static inline void dossier_alert_add_response(GtkWidget *dialog, const char *id, const char *label) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_alert_dialog_add_response(ADW_ALERT_DIALOG(dialog), id, label);
#else
    adw_message_dialog_add_response(ADW_MESSAGE_DIALOG(dialog), id, label);
#endif
}
static inline void dossier_alert_set_response_appearance(GtkWidget *dialog, const char *id, AdwResponseAppearance appearance) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_alert_dialog_set_response_appearance(ADW_ALERT_DIALOG(dialog), id, appearance);
#else
    adw_message_dialog_set_response_appearance(ADW_MESSAGE_DIALOG(dialog), id, appearance);
#endif
}
static inline void dossier_alert_set_default_response(GtkWidget *dialog, const char *id) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_alert_dialog_set_default_response(ADW_ALERT_DIALOG(dialog), id);
#else
    adw_message_dialog_set_default_response(ADW_MESSAGE_DIALOG(dialog), id);
#endif
}
static inline void dossier_alert_set_close_response(GtkWidget *dialog, const char *id) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_alert_dialog_set_close_response(ADW_ALERT_DIALOG(dialog), id);
#else
    adw_message_dialog_set_close_response(ADW_MESSAGE_DIALOG(dialog), id);
#endif
}
static inline void dossier_alert_set_extra_child(GtkWidget *dialog, GtkWidget *child) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_alert_dialog_set_extra_child(ADW_ALERT_DIALOG(dialog), child);
#else
    adw_message_dialog_set_extra_child(ADW_MESSAGE_DIALOG(dialog), child);
#endif
}
/* The widget that gets the focus when the dialog is shown (an entry). */
static inline void dossier_alert_set_focus(GtkWidget *dialog, GtkWidget *widget) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_dialog_set_focus(ADW_DIALOG(dialog), widget);
#else
    gtk_window_set_focus(GTK_WINDOW(dialog), widget);
#endif
}
/* Shows the dialog over the window of `parent` (any widget in it; NULL: on its own). */
static inline void dossier_alert_present(GtkWidget *dialog, GtkWidget *parent) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_dialog_present(ADW_DIALOG(dialog), parent);
#else
    GtkRoot *root = parent != NULL ? gtk_widget_get_root(parent) : NULL;
    if (root != NULL && GTK_IS_WINDOW(root)) gtk_window_set_transient_for(GTK_WINDOW(dialog), GTK_WINDOW(root));
    gtk_window_present(GTK_WINDOW(dialog));
#endif
}

/* Closes the dialog without a response (the question it asked went away). Before 1.5 it is a
   window: unfocused and hidden before it is destroyed, since GTK 4.8's password entry, focused
   in a window being destroyed, answers a keyboard notification after its disposal. */
static inline void dossier_alert_close(GtkWidget *dialog) {
#if ADW_CHECK_VERSION(1, 5, 0)
    adw_dialog_force_close(ADW_DIALOG(dialog));
#else
    gtk_window_set_focus(GTK_WINDOW(dialog), NULL);
    gtk_widget_set_visible(dialog, FALSE);
    gtk_window_destroy(GTK_WINDOW(dialog));
#endif
}

/* Whether the focus is where keys mean text or belong to someone else: an editable (an
   entry's text), or a dialog shown inside the window (libadwaita 1.5+). A window's
   capture-phase key handler lets such keys through. */
static inline gboolean dossier_focus_wants_keys(GtkWidget *focus) {
    if (focus == NULL) return FALSE;
    if (GTK_IS_EDITABLE(focus)) return TRUE;
#if ADW_CHECK_VERSION(1, 5, 0)
    if (gtk_widget_get_ancestor(focus, ADW_TYPE_DIALOG) != NULL) return TRUE;
#endif
    return FALSE;
}

/* The About dialog: AdwAboutDialog from libadwaita 1.5, AdwAboutWindow (deprecated in 1.6)
   before; shown over the window of `parent`. */
static inline void dossier_about_present(GtkWidget *parent, const char *name, const char *icon, const char *version,
                                         const char *developer, const char *comments, GtkLicense license,
                                         const char *issue_url) {
#if ADW_CHECK_VERSION(1, 5, 0)
    AdwAboutDialog *about = ADW_ABOUT_DIALOG(adw_about_dialog_new());
    adw_about_dialog_set_application_name(about, name);
    adw_about_dialog_set_application_icon(about, icon);
    adw_about_dialog_set_version(about, version);
    adw_about_dialog_set_developer_name(about, developer);
    adw_about_dialog_set_comments(about, comments);
    adw_about_dialog_set_license_type(about, license);
    adw_about_dialog_set_issue_url(about, issue_url);
    adw_dialog_present(ADW_DIALOG(about), parent);
#else
    AdwAboutWindow *about = ADW_ABOUT_WINDOW(adw_about_window_new());
    adw_about_window_set_application_name(about, name);
    adw_about_window_set_application_icon(about, icon);
    adw_about_window_set_version(about, version);
    adw_about_window_set_developer_name(about, developer);
    adw_about_window_set_comments(about, comments);
    adw_about_window_set_license_type(about, license);
    adw_about_window_set_issue_url(about, issue_url);
    GtkRoot *root = parent != NULL ? gtk_widget_get_root(parent) : NULL;
    if (root != NULL && GTK_IS_WINDOW(root)) gtk_window_set_transient_for(GTK_WINDOW(about), GTK_WINDOW(root));
    gtk_window_set_modal(GTK_WINDOW(about), TRUE);
    gtk_window_present(GTK_WINDOW(about));
#endif
}

/* A banner across the top of a view: `title` and a button `button`. AdwBanner from
   libadwaita 1.3; before, an action bar of the same words. Shown with
   dossier_banner_set_revealed; its button's clicks are the signal that
   dossier_banner_clicked_signal names, on the object it returns. */
static inline GtkWidget *dossier_banner_new(const char *title, const char *button) {
#if ADW_CHECK_VERSION(1, 3, 0)
    GtkWidget *banner = adw_banner_new(title);
    adw_banner_set_button_label(ADW_BANNER(banner), button);
    return banner;
#else
    GtkWidget *bar = gtk_action_bar_new();
    GtkWidget *label = gtk_label_new(title);
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
    gtk_widget_set_hexpand(label, TRUE);
    gtk_action_bar_set_center_widget(GTK_ACTION_BAR(bar), label);
    GtkWidget *action = gtk_button_new_with_label(button);
    gtk_action_bar_pack_end(GTK_ACTION_BAR(bar), action);
    g_object_set_data(G_OBJECT(bar), "dossier-banner-button", action);
    gtk_action_bar_set_revealed(GTK_ACTION_BAR(bar), FALSE);
    return bar;
#endif
}
static inline void dossier_banner_set_revealed(GtkWidget *banner, gboolean revealed) {
#if ADW_CHECK_VERSION(1, 3, 0)
    adw_banner_set_revealed(ADW_BANNER(banner), revealed);
#else
    gtk_action_bar_set_revealed(GTK_ACTION_BAR(banner), revealed);
#endif
}
static inline gpointer dossier_banner_clicked_signal(GtkWidget *banner, const char **signal) {
#if ADW_CHECK_VERSION(1, 3, 0)
    *signal = "button-clicked";
    return banner;
#else
    *signal = "clicked";
    return g_object_get_data(G_OBJECT(banner), "dossier-banner-button");
#endif
}

#if !GTK_CHECK_VERSION(4, 12, 0)
/* Tab or Shift+Tab on a list view or its items: the focus moves to the widget after (or
   before) the whole view. The view stops being focusable while GTK looks for that widget, so
   the search passes over its items; past the window's last widget it starts again at the
   first, as GtkWindow's own Tab does. Keys typed in a popover of an item stay its own. */
static inline gboolean dossier_tab_leaves_list(GtkEventControllerKey *keys, guint keyval, guint code,
                                               GdkModifierType state, gpointer unused) {
    (void)code;
    (void)unused;
    if (keyval != GDK_KEY_Tab && keyval != GDK_KEY_ISO_Left_Tab && keyval != GDK_KEY_KP_Tab) return FALSE;
    if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) return FALSE;
    GtkWidget *view = gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(keys));
    GtkRoot *root = gtk_widget_get_root(view);
    GtkWidget *focus = root != NULL ? gtk_root_get_focus(root) : NULL;
    if (focus == NULL || gtk_widget_get_native(focus) != gtk_widget_get_native(view)) return FALSE;
    GtkDirectionType direction =
        (state & GDK_SHIFT_MASK) || keyval == GDK_KEY_ISO_Left_Tab ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;
    gtk_widget_set_can_focus(view, FALSE);
    if (!gtk_widget_child_focus(GTK_WIDGET(root), direction)) {
        gtk_root_set_focus(root, NULL);
        gtk_widget_child_focus(GTK_WIDGET(root), direction);
    }
    gtk_widget_set_can_focus(view, TRUE);
    return TRUE;
}
#endif

/* Tab leaves a grid or column view instead of walking its items one by one (as in Files):
   the views' tab-behavior from GTK 4.12, a key handler of the same effect before. */
static inline void dossier_list_view_tab_leaves(GtkWidget *view) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (GTK_IS_GRID_VIEW(view)) gtk_grid_view_set_tab_behavior(GTK_GRID_VIEW(view), GTK_LIST_TAB_ITEM);
    if (GTK_IS_COLUMN_VIEW(view)) gtk_column_view_set_tab_behavior(GTK_COLUMN_VIEW(view), GTK_LIST_TAB_ITEM);
#else
    GtkEventController *keys = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
    g_signal_connect(keys, "key-pressed", G_CALLBACK(dossier_tab_leaves_list), NULL);
    gtk_widget_add_controller(view, keys);
#endif
}

#endif
