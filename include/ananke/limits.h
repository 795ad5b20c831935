/* Caps the loaders keep, for a program that reads the same files (the
 * CLI's excerpt of a line of a broken file). */
#ifndef ANANKE_LIMITS_H
#define ANANKE_LIMITS_H

/* The largest YAML file (a config, a test) the loaders read. */
#define AN_YAML_MAX_BYTES (16u * 1024u * 1024u)

#endif
