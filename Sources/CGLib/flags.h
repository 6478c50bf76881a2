#ifndef DOSSIER_CGLIB_FLAGS_H
#define DOSSIER_CGLIB_FLAGS_H

#include <glib-object.h>
#include <gio/gio.h>

/* GLib flags, spelled one way for every GLib from 2.74 on.

   GLib 2.86 marks its flag types with the `flag_enum` attribute (G_GNUC_FLAG_ENUM). Swift
   then imports such a type as an option set whose constants are members
   (GConnectFlags.CONNECT_AFTER) and no longer as the global constants older GLib gives
   (G_CONNECT_AFTER); the numeric `GConnectFlags(rawValue: 0)` initialiser goes too. C sees the same
   constants either way, and both import styles have `init(rawValue:)`. So Swift code builds
   a flags value as `GConnectFlags(rawValue: DOSSIER_G_CONNECT_AFTER)` (bits joined with |),
   and no flags as `GConnectFlags(rawValue: 0)`. Add a constant here when Swift needs one. */
#define DOSSIER_FLAG(name) static const guint DOSSIER_##name = name;

DOSSIER_FLAG(G_CONNECT_AFTER)
DOSSIER_FLAG(G_BINDING_BIDIRECTIONAL)
DOSSIER_FLAG(G_BINDING_SYNC_CREATE)
DOSSIER_FLAG(G_SPAWN_SEARCH_PATH)
DOSSIER_FLAG(G_SPAWN_DO_NOT_REAP_CHILD)
DOSSIER_FLAG(G_APPLICATION_IS_SERVICE)
DOSSIER_FLAG(G_APPLICATION_NON_UNIQUE)
DOSSIER_FLAG(G_APPLICATION_HANDLES_OPEN)
DOSSIER_FLAG(G_APPLICATION_HANDLES_COMMAND_LINE)
DOSSIER_FLAG(G_BUS_NAME_OWNER_FLAGS_REPLACE)
DOSSIER_FLAG(G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT)
DOSSIER_FLAG(G_FILE_COPY_NOFOLLOW_SYMLINKS)
DOSSIER_FLAG(G_FILE_COPY_ALL_METADATA)
DOSSIER_FLAG(G_FILE_COPY_NO_FALLBACK_FOR_MOVE)
DOSSIER_FLAG(G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS)
DOSSIER_FLAG(G_FILE_MONITOR_WATCH_MOVES)
DOSSIER_FLAG(G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE)
DOSSIER_FLAG(G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET)

#undef DOSSIER_FLAG

#endif
