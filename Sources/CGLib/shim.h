#ifndef DOSSIER_CGLIB_SHIM_H
#define DOSSIER_CGLIB_SHIM_H

#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <libintl.h>
#include <locale.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/xattr.h>

/* Open file description locks (Linux 3.15+): owned by the open file description, so they
   work between threads of one process and are released only by the last close of it. */
#ifndef F_OFD_SETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif

/* Locks the whole file behind fd for reading (shared) or writing (exclusive).
   wait: block until granted (F_OFD_SETLKW) or fail at once with EAGAIN (F_OFD_SETLK). */
static inline int dossier_ofd_lock(int fd, int exclusive, int wait) {
    struct flock lock = {0};
    lock.l_type = exclusive ? F_WRLCK : F_RDLCK;
    lock.l_whence = SEEK_SET;
    return fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &lock);
}

static inline int dossier_ofd_unlock(int fd) {
    struct flock lock = {0};
    lock.l_type = F_UNLCK;
    lock.l_whence = SEEK_SET;
    return fcntl(fd, F_OFD_SETLK, &lock);
}
#include <sys/syscall.h>
#include <malloc.h>

/* Macros and variadic functions Clang does not import, as small prefixed helpers. */

static inline GType dossier_g_type_object(void) { return G_TYPE_OBJECT; }

static inline GObject *dossier_g_object(gpointer instance) { return G_OBJECT(instance); }

static inline gboolean dossier_g_is_object(gpointer instance) { return G_IS_OBJECT(instance); }

static inline gulong dossier_g_signal_connect_data(gpointer instance, const gchar *signal,
                                                   GCallback handler, gpointer data,
                                                   GClosureNotify destroy, GConnectFlags flags) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, flags);
}

/* Emits a signal that takes no arguments and returns nothing (e.g. "clicked"). */
static inline void dossier_g_signal_emit_by_name(gpointer instance, const gchar *signal) {
    g_signal_emit_by_name(instance, signal);
}

static inline void dossier_g_object_add_weak_pointer(gpointer object, gpointer *location) {
    g_object_add_weak_pointer(G_OBJECT(object), location);
}

static inline void dossier_g_object_remove_weak_pointer(gpointer object, gpointer *location) {
    g_object_remove_weak_pointer(G_OBJECT(object), location);
}

static inline GAppInfo *dossier_g_app_info(gpointer object) { return G_APP_INFO(object); }

static inline GDesktopAppInfo *dossier_g_desktop_app_info(gpointer object) {
    return G_IS_DESKTOP_APP_INFO(object) ? G_DESKTOP_APP_INFO(object) : NULL;
}

static inline GThemedIcon *dossier_g_themed_icon(gpointer object) {
    return G_IS_THEMED_ICON(object) ? G_THEMED_ICON(object) : NULL;
}

/* GVariant helpers for the D-Bus services (g_variant_new/get are variadic). */
static inline void dossier_variant_get_ssb(GVariant *value, gchar **s1, gchar **s2, gboolean *b) {
    g_variant_get(value, "(ssb)", s1, s2, b);
}
static inline GVariant *dossier_variant_tuple_u(guint32 value) { return g_variant_new("(u)", value); }
static inline GVariant *dossier_variant_properties_changed_b(const char *interface, const char *name, gboolean value) {
    GVariantBuilder changed;
    g_variant_builder_init(&changed, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&changed, "{sv}", name, g_variant_new_boolean(value));
    return g_variant_new("(sa{sv}as)", interface, &changed, NULL);
}

/* libdispatch's main-queue hooks (the ones CoreFoundation uses): the main queue is an
   eventfd that becomes readable when work is queued for the main thread. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

/* renameat2(2) with RENAME_NOREPLACE: glibc declares renameat2 only under _GNU_SOURCE,
   which Swift's Glibc module does not define. Fails with EEXIST instead of replacing. */
static inline int dossier_rename_noreplace(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */);
}

#endif
