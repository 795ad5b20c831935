/* Helpers of fuzz.h. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *fz_strdup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

void fz_split(const uint8_t *data, size_t size, char **head, const uint8_t **rest, size_t *rest_len)
{
    const uint8_t *nl = size ? memchr(data, '\n', size) : NULL;
    size_t n = nl ? (size_t)(nl - data) : size;
    *head = fz_strdup(data, n);
    *rest = nl ? nl + 1 : data + size;
    *rest_len = nl ? size - n - 1 : 0;
}

static char dir[512];
static char names[8][64];
static size_t nnames;

/* At exit (libFuzzer exits normally after -runs / -max_total_time): the
 * files written and the directory go. After a crash they stay, which is
 * harmless and shows what the last input wrote. */
static void cleanup(void)
{
    char path[1024];
    for (size_t i = 0; i < nnames; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

const char *fz_tmpdir(void)
{
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/ananke-fuzz-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(cleanup);
    }
    return dir;
}

const char *fz_write(const char *name, const uint8_t *data, size_t size)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", fz_tmpdir(), name);
    size_t i = 0;
    while (i < nnames && strcmp(names[i], name))
        i++;
    if (i == nnames && nnames < sizeof names / sizeof names[0])
        snprintf(names[nnames++], sizeof names[0], "%s", name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    if (fclose(f) != 0 || put != size)
        return NULL;
    return path;
}

int fz_mode(const uint8_t **data, size_t *size)
{
    if (*size < 1)
        return -1;
    unsigned mode = (*data)[0];
    (*data)++;
    (*size)--;
    return (int)mode;
}

size_t fz_step(unsigned mode, size_t size)
{
    return (mode & 0x3f) ? (mode & 0x3f) : size + 1;
}
