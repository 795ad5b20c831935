/* The suite loader on one project config (ananke.config.yaml) from the input: see fuzz_load.h. */
#define FZ_FILE "fuzz.config.yaml"
#define FZ_CONFIG_ONLY 1
#include "fuzz_load.h"
