/*
 * The suite loader (ananke/load.h) with one file from the input, as
 * `ananke run` would load it: fuzz_config.c, fuzz_test_yaml.c,
 * fuzz_jsonl.c and fuzz_cases_json.c include this and set FZ_FILE (the
 * name the input is written under, "" for an in-memory JSONL suite) and
 * FZ_CONFIG_ONLY.
 *
 * Loading contacts nothing and runs nothing, but test files may name
 * attachments and schemas by path, relative to the file: the files live in
 * a private temporary directory. (No chdir there: libFuzzer resolves the
 * corpus and artifact paths it was given after the target's initialiser.)
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/load.h"
#include "ananke/model.h"
#include "fuzz.h"

/* A config every target type's test can run against. */
static const char config[] =
    "version: \"1.0\"\n"
    "target:\n"
    "  type: agui\n"
    "  endpoint: http://127.0.0.1:1/agent\n"
    "  agentId: a\n"
    "  assert:\n"
    "    timing: {max_duration_ms: 60000}\n"
    "assertions:\n"
    "  quick: {timing: {max_duration_ms: 5000}, text: {must_not_match: [oops]}}\n"
    "agents:\n"
    "  judge: {type: openai, endpoint: http://127.0.0.1:1/v1, model: m}\n";

static char cfg_path[1024];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *p = fz_write("ananke.config.yaml", (const uint8_t *)config, sizeof config - 1);
    if (!p)
        abort();
    strncpy(cfg_path, p, sizeof cfg_path - 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    struct an_mem_file mem;
    const char *path = NULL;
    char *text = NULL;
    o.config_path = cfg_path;
    o.config_only = FZ_CONFIG_ONLY;
    if (FZ_CONFIG_ONLY) {
        o.config_path = fz_write("fuzz.config.yaml", data, size);
    } else if (FZ_FILE[0]) {
        path = fz_write(FZ_FILE, data, size);
        o.paths = &path;
        o.npaths = 1;
    } else {
        text = fz_strdup(data, size);
        mem = (struct an_mem_file){.name = "fuzz.jsonl", .text = text, .len = size};
        o.mem = &mem;
        o.nmem = 1;
    }
    if (!o.config_path || (FZ_FILE[0] && !path && !FZ_CONFIG_ONLY)) {
        free(text);
        return 0;
    }
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    if (an_suite_load(&s, &o, &errs) == 0)
        an_suite_free(s);
    an_errlist_release(&errs);
    free(text);
    return 0;
}
