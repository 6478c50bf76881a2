#ifndef DOSSIER_CLOADER_H
#define DOSSIER_CLOADER_H

/* Opening a renderer's library with dlopen() the first time it is needed (WebKitGTK,
   GStreamer, libarchive, poppler): none of them is linked, as every start of Dossier would
   pay for loading them. */
#include <glib.h>

/* Opens the library `name`, or the file named by the environment variable `override` when
   it is set (so tests can see a missing library end on an error page), and fills `slots`
   with the addresses of `prefix` followed by each of the `count` names in `symbols`, in
   order. Returns the library's handle; NULL when it cannot be opened or lacks one of the
   symbols, with *error (not NULL) set to why, to free with g_free. Call once (g_once). */
/* Whether the system has the library `name` (in the folder of the GLib this process runs
   with), without loading it. */
gboolean dossier_library_exists(const char *name);

void *dossier_library_open(const char *override, const char *name, const char *prefix, const char *const *symbols,
                           gsize count, void (**slots)(void), char **error);

#endif
