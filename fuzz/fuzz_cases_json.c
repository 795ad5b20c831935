/* The suite loader on one file, cases.json, from the input: see fuzz_load.h. */
#define FZ_FILE "cases.json"
#define FZ_CONFIG_ONLY 0
#include "fuzz_load.h"
