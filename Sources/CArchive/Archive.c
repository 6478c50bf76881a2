/* The archive_* functions the decoder worker calls, forwarded to libarchive opened with dlopen().
   They are hidden: Dossier's own calls reach them, and no library in the process can mistake
   them for libarchive's. */
#include <dlfcn.h>
#include <glib.h>

#pragma GCC visibility push(hidden)
#include <archive.h>
#include <archive_entry.h>
#pragma GCC visibility pop

#include "CArchive.h"
#include "CLoader.h"

static void *archive_library;
static char *archive_error;

static gpointer archive_open(gpointer unused) {
    (void)unused;
    /* Its functions are looked up as they are first called (archive_symbol). */
    archive_library = dossier_library_open("DOSSIER_ARCHIVE_LIBRARY", "libarchive.so.13", "", NULL, 0, NULL, &archive_error);
    return archive_library;
}

gboolean dossier_archive_load(char **error) {
    static GOnce once = G_ONCE_INIT;
    gboolean ready = g_once(&once, archive_open, NULL) != NULL;
    if (!ready && error != NULL) *error = g_strdup(archive_error);
    return ready;
}

/* The library's function `name`, found once. Only called after dossier_archive_load()
   succeeded; a symbol missing from it (an older libarchive) ends the process with a message
   rather than jumping to NULL. */
static void *archive_symbol(const char *name) {
    void *address = archive_library ? dlsym(archive_library, name) : NULL;
    if (address == NULL) g_error("libarchive has no %s (dossier_archive_load() first)", name);
    return address;
}

#define FORWARD(result, name, parameters, arguments)                          \
    result name parameters {                                                  \
        static __typeof__(&name) function;                                    \
        __typeof__(&name) found = __atomic_load_n(&function, __ATOMIC_ACQUIRE); \
        if (found == NULL) {                                                  \
            found = (__typeof__(&name))archive_symbol(#name);                 \
            __atomic_store_n(&function, found, __ATOMIC_RELEASE);             \
        }                                                                     \
        return found arguments;                                               \
    }

FORWARD(struct archive *, archive_read_new, (void), ())
FORWARD(int, archive_read_support_filter_all, (struct archive *a), (a))
FORWARD(int, archive_read_support_format_all, (struct archive *a), (a))
FORWARD(int, archive_read_support_format_raw, (struct archive *a), (a))
FORWARD(int, archive_read_open_fd, (struct archive *a, int fd, size_t block), (a, fd, block))
FORWARD(int, archive_read_next_header, (struct archive *a, struct archive_entry **entry), (a, entry))
FORWARD(la_ssize_t, archive_read_data, (struct archive *a, void *buffer, size_t size), (a, buffer, size))
FORWARD(int, archive_read_free, (struct archive *a), (a))
FORWARD(const char *, archive_error_string, (struct archive *a), (a))
FORWARD(int, archive_format, (struct archive *a), (a))
FORWARD(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *e), (e))
FORWARD(const char *, archive_entry_hardlink, (struct archive_entry *e), (e))
FORWARD(const char *, archive_entry_symlink, (struct archive_entry *e), (e))
FORWARD(const char *, archive_entry_symlink_utf8, (struct archive_entry *e), (e))
FORWARD(const char *, archive_entry_pathname, (struct archive_entry *e), (e))
FORWARD(const char *, archive_entry_pathname_utf8, (struct archive_entry *e), (e))
FORWARD(la_int64_t, archive_entry_size, (struct archive_entry *e), (e))
FORWARD(int, archive_entry_size_is_set, (struct archive_entry *e), (e))
FORWARD(time_t, archive_entry_mtime, (struct archive_entry *e), (e))
FORWARD(int, archive_entry_mtime_is_set, (struct archive_entry *e), (e))
FORWARD(int, archive_entry_is_encrypted, (struct archive_entry *e), (e))
