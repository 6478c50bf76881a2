#ifndef DOSSIER_CARCHIVE_H
#define DOSSIER_CARCHIVE_H

/* libarchive: archive listings and single-entry extraction, in the decoder worker only
   (DocumentCore/Formats/Archive); the previewer's process never calls it.

   libarchive is not linked (it and its compression libraries would load at every start of
   Dossier and of every worker): the worker opens it with dlopen() before its lock-down. Call
   dossier_archive_load() first; when it succeeded, the archive_* functions of <archive.h>
   that the worker uses work as usual (Archive.c forwards them to the library). */
#include <glib.h>
#include <archive.h>
#include <archive_entry.h>

/* Opens libarchive (once; thread-safe). Returns TRUE when it is ready to use; otherwise
   FALSE, and *error (when not NULL) gets why, to free with g_free. */
gboolean dossier_archive_load(char **error);

#endif
