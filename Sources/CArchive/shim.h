#ifndef DOSSIER_CARCHIVE_SHIM_H
#define DOSSIER_CARCHIVE_SHIM_H

/* libarchive: archive listings and single-entry extraction for the archive previewer. */
#include <archive.h>
#include <archive_entry.h>

#endif
