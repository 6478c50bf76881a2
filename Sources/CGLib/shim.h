#ifndef DOSSIER_CGLIB_SHIM_H
#define DOSSIER_CGLIB_SHIM_H

#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <gio/gunixinputstream.h>
#include "flags.h"
#include <libintl.h>
#include <locale.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

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


/* statx(2)'s structure and flags, as <linux/stat.h> defines them (that header also defines
   S_IFMT and friends, which then clash with glibc's in Swift: "ambiguous use of 'S_IFMT'"). */
struct dossier_statx_timestamp { int64_t tv_sec; uint32_t tv_nsec; int32_t reserved; };
struct dossier_statx {
    uint32_t stx_mask, stx_blksize;
    uint64_t stx_attributes;
    uint32_t stx_nlink, stx_uid, stx_gid;
    uint16_t stx_mode, spare0;
    uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
    struct dossier_statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
    uint32_t stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
    uint64_t stx_mnt_id;
    uint64_t spare2[13];
};
#define DOSSIER_STATX_TYPE 0x0001U
#define DOSSIER_STATX_MODE 0x0002U
#define DOSSIER_STATX_MTIME 0x0040U
#define DOSSIER_STATX_INO 0x0100U
#define DOSSIER_STATX_SIZE 0x0200U
#define DOSSIER_STATX_BTIME 0x0800U
#define DOSSIER_STATX_MNT_ID 0x1000U
#define DOSSIER_AT_STATX_SYNC_AS_STAT 0x0000

/* What identifies a file and its version, as statx(2) reports it: the device and inode, the
   kind, size, modification time, and the birth time where the file system keeps one
   (has_birth is 0 on file systems without it, e.g. ramfs, some network file systems).
   mount_id is the mount's ID as in /proc/self/mountinfo, or 0 when the kernel does not say.
   Glibc's statx() is not importable into Swift without _GNU_SOURCE, hence the syscall. */
typedef struct {
    uint64_t device;
    uint64_t inode;
    uint64_t mount_id;
    int64_t size;
    int64_t modified_seconds;
    uint32_t modified_nanoseconds;
    int64_t birth_seconds;
    uint32_t birth_nanoseconds;
    uint32_t mode;
    int has_birth;
} dossier_file_identity;

/* Fills *out for path (relative to dirfd, or AT_FDCWD); follow: follow a final symbolic link.
   Returns 0, or -1 with errno set. Falls back to fstatat() where statx is unavailable. */
static inline int dossier_file_identity_at(int dirfd, const char *path, int follow, dossier_file_identity *out) {
    struct dossier_statx sx;
    int flags = DOSSIER_AT_STATX_SYNC_AS_STAT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
    memset(out, 0, sizeof *out);
    long result = syscall(SYS_statx, dirfd, path, flags,
                          DOSSIER_STATX_TYPE | DOSSIER_STATX_MODE | DOSSIER_STATX_INO | DOSSIER_STATX_SIZE
                              | DOSSIER_STATX_MTIME | DOSSIER_STATX_BTIME | DOSSIER_STATX_MNT_ID, &sx);
    if (result == 0) {
        out->device = makedev(sx.stx_dev_major, sx.stx_dev_minor);
        out->inode = sx.stx_ino;
        out->mount_id = (sx.stx_mask & DOSSIER_STATX_MNT_ID) ? sx.stx_mnt_id : 0;
        out->size = (int64_t)sx.stx_size;
        out->modified_seconds = sx.stx_mtime.tv_sec;
        out->modified_nanoseconds = sx.stx_mtime.tv_nsec;
        out->mode = sx.stx_mode;
        if ((sx.stx_mask & DOSSIER_STATX_BTIME) && (sx.stx_btime.tv_sec != 0 || sx.stx_btime.tv_nsec != 0)) {
            out->has_birth = 1;
            out->birth_seconds = sx.stx_btime.tv_sec;
            out->birth_nanoseconds = sx.stx_btime.tv_nsec;
        }
        return 0;
    }
    if (errno != ENOSYS && errno != EPERM) return -1;
    struct stat st;
    if (fstatat(dirfd, path, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0) return -1;
    out->device = st.st_dev;
    out->inode = st.st_ino;
    out->size = st.st_size;
    out->modified_seconds = st.st_mtim.tv_sec;
    out->modified_nanoseconds = (uint32_t)st.st_mtim.tv_nsec;
    out->mode = st.st_mode;
    return 0;
}

/* The name in a directory entry (d_name is a fixed array Swift imports as a tuple). */
static inline const char *dossier_dirent_name(const struct dirent *entry) { return entry->d_name; }

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
static inline GVariant *dossier_variant_tuple_s(const char *value) { return g_variant_new("(s)", value); }
static inline GVariant *dossier_variant_tuple_ssb(const char *a, const char *b, gboolean c) { return g_variant_new("(ssb)", a, b, c); }
static inline guint32 dossier_variant_get_u(GVariant *value) { guint32 result = 0; g_variant_get(value, "(u)", &result); return result; }
static inline void dossier_variant_get_ssbs(GVariant *value, gchar **s1, gchar **s2, gboolean *b, gchar **s3) {
    g_variant_get(value, "(ssbs)", s1, s2, b, s3);
}
/* org.freedesktop.DBus.Properties.PropertiesChanged for one property (value: a floating
   reference, which the message takes). */
static inline GVariant *dossier_variant_properties_changed(const char *interface, const char *name, GVariant *value) {
    GVariantBuilder changed;
    g_variant_builder_init(&changed, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&changed, "{sv}", name, value);
    return g_variant_new("(sa{sv}as)", interface, &changed, NULL);
}

/* NautilusPreviewer2's ShowFile has two forms: (s uri, s windowHandle, b closeIfAlreadyShown)
   from Nautilus 43 to 49, and the same with (s activationToken) after them from Nautilus 50.
   GDBus checks a call's arguments against the introspection data before dispatching it and
   answers InvalidArgs when they differ, so one declaration refuses the other form. The
   object declares the four-argument form (today's, as Sushi 50 does) under the interface
   name; a second interface on the same path, private to Dossier, declares the three-argument
   one. This filter, which GDBus runs on its worker thread before dispatch, hands a
   three-argument ShowFile for `path` to that second interface. Nothing else is touched. */
#define DOSSIER_PREVIEWER2_INTERFACE "org.gnome.NautilusPreviewer2"
#define DOSSIER_PREVIEWER2_THREE_ARGUMENTS "io.github.dossier.NautilusPreviewer2.ThreeArgumentShowFile"

static inline GDBusMessage *dossier_previewer2_route(GDBusConnection *connection, GDBusMessage *message,
                                                     gboolean incoming, gpointer path) {
    (void)connection;
    if (!incoming || g_dbus_message_get_message_type(message) != G_DBUS_MESSAGE_TYPE_METHOD_CALL
        || g_strcmp0(g_dbus_message_get_interface(message), DOSSIER_PREVIEWER2_INTERFACE) != 0
        || g_strcmp0(g_dbus_message_get_member(message), "ShowFile") != 0
        || g_strcmp0(g_dbus_message_get_path(message), path) != 0
        || g_strcmp0(g_dbus_message_get_signature(message), "ssb") != 0)
        return message;
    GDBusMessage *routed = g_dbus_message_copy(message, NULL);
    if (routed == NULL) return message;
    g_dbus_message_set_interface(routed, DOSSIER_PREVIEWER2_THREE_ARGUMENTS);
    g_object_unref(message);
    return routed;
}

static inline guint dossier_previewer2_accept_both_show_files(GDBusConnection *connection, const char *path) {
    return g_dbus_connection_add_filter(connection, dossier_previewer2_route, g_strdup(path), g_free);
}

/* Prints a message on the standard error of the `dossier` process that sent a command line
   to the running instance (g_application_command_line_printerr is variadic). */
static inline void dossier_command_line_printerr(GApplicationCommandLine *command_line, const char *text) {
    g_application_command_line_printerr(command_line, "%s\n", text);
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
