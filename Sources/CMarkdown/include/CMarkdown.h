#ifndef DOSSIER_CMARKDOWN_H
#define DOSSIER_CMARKDOWN_H

/* cmark-gfm, GitHub's CommonMark parser, with its table, strikethrough, autolink, tasklist and
   tagfilter extensions: Markdown is parsed in the decoder worker only
   (DocumentCore/Formats/Markdown); the previewer's process never calls it.

   Like libarchive, it is not linked: the worker opens it with dlopen() before its lock-down.
   Call dossier_markdown_load() first; when it succeeded, the cmark_* functions the worker uses
   work as usual (Markdown.c forwards them to the library). */
#include <glib.h>
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

/* Opens cmark-gfm and its extensions (once; thread-safe). Returns TRUE when they are ready to
   use; otherwise FALSE, and *error (when not NULL) gets why, to free with g_free. */
gboolean dossier_markdown_load(char **error);

#endif
