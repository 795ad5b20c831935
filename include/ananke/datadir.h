/* Where an installed ananke keeps its data (share/ananke/: the JSON
 * Schemas, the compliance suites). */
#ifndef ANANKE_DATADIR_H
#define ANANKE_DATADIR_H

/* An installed data file or directory: <bindir>/../share/ananke/REL, the
 * bindir being the running binary's (core/port.h's an_port_self_exe). A
 * string the caller frees, or NULL when it does not exist or the running
 * binary's path cannot be known (src/lib/core/datadir.c). */
char *an_datadir_path(const char *rel);

#endif
