/* The suite loader on one in-memory JSONL suite from the input: see fuzz_load.h. */
#define FZ_FILE ""
#define FZ_CONFIG_ONLY 0
#include "fuzz_load.h"
