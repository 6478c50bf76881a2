#ifndef DOSSIER_CGTK_SHIM_H
#define DOSSIER_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <adwaita.h>

static inline GtkWidget *dossier_gtk_widget(gpointer instance) { return GTK_WIDGET(instance); }
static inline GtkWindow *dossier_gtk_window(gpointer instance) { return GTK_WINDOW(instance); }

#endif
