/* The suite loader on one file, fuzz.test.yaml, from the input: see fuzz_load.h. */
#define FZ_FILE "fuzz.test.yaml"
#define FZ_CONFIG_ONLY 0
#include "fuzz_load.h"
