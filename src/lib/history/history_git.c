/* The commit and branch of the repository a run is in, read from .git
 * without running git (a hook's repository could name any program as
 * git's helper; reading four small files runs nothing). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/nofollow.h"
#include "history/history_int.h"

#define GIT_FILE_MAX (64u * 1024u) /* HEAD, a loose ref, .git as a file */
#define GIT_PACKED_MAX (16u << 20) /* packed-refs */
#define GIT_MAX_DEPTH 64           /* directories walked up */

static char *slurp(const char *dir, const char *rel, size_t cap)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel) >= sizeof path)
        return NULL;
    char *s = NULL;
    size_t n = 0;
    if (an_nf_read_str(NULL, path, cap, &s, &n, NULL))
        return NULL;
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static bool is_hex40(const char *s)
{
    size_t n = 0;
    while (isxdigit((unsigned char)s[n]))
        n++;
    return n == 40 || n == 64; /* sha1 or sha256 repositories */
}

/* The git directory of the repository around dir (malloc'd) and its
 * common directory (where refs live for a worktree). */
static bool find_git(const char *dir, char **gitdir, char **common)
{
    char cur[4096];
    if ((size_t)snprintf(cur, sizeof cur, "%s", dir) >= sizeof cur)
        return false;
    for (int depth = 0; depth < GIT_MAX_DEPTH; depth++) {
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/.git/HEAD", cur);
        char *head = slurp(cur, ".git/HEAD", GIT_FILE_MAX);
        if (head) {
            free(head);
            snprintf(probe, sizeof probe, "%s/.git", cur);
            *gitdir = an_xstrdup(probe);
            *common = an_xstrdup(probe);
            return true;
        }
        char *link = slurp(cur, ".git", GIT_FILE_MAX); /* a worktree: "gitdir: PATH" */
        if (link && !strncmp(link, "gitdir: ", 8)) {
            const char *g = link + 8;
            if (g[0] == '/')
                *gitdir = an_xstrdup(g);
            else {
                snprintf(probe, sizeof probe, "%s/%s", cur, g);
                *gitdir = an_xstrdup(probe);
            }
            free(link);
            char *cd = slurp(*gitdir, "commondir", GIT_FILE_MAX);
            if (cd && cd[0] != '/') {
                snprintf(probe, sizeof probe, "%s/%s", *gitdir, cd);
                *common = an_xstrdup(probe);
            } else
                *common = an_xstrdup(cd ? cd : *gitdir);
            free(cd);
            return true;
        }
        free(link);
        char *slash = strrchr(cur, '/');
        if (!slash || slash == cur)
            return false;
        *slash = '\0';
    }
    return false;
}

/* The commit a ref names: a loose file, else a line of packed-refs. */
static char *resolve(const char *gitdir, const char *common, const char *ref)
{
    if (strstr(ref, "..") || ref[0] == '/')
        return NULL;
    char *v = slurp(gitdir, ref, GIT_FILE_MAX);
    if (!v)
        v = slurp(common, ref, GIT_FILE_MAX);
    if (v && is_hex40(v))
        return v;
    free(v);
    char *packed = slurp(common, "packed-refs", GIT_PACKED_MAX);
    char *found = NULL;
    size_t rn = strlen(ref);
    for (char *line = packed; line && *line && !found;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        size_t n = strlen(line);
        if (n > rn + 1 && is_hex40(line) && line[n - rn - 1] == ' ' && !strcmp(line + n - rn, ref))
            found = an_xstrndup(line, (size_t)(strchr(line, ' ') - line));
        line = end ? end + 1 : NULL;
    }
    free(packed);
    return found;
}

void an_hist_git(const char *dir, char **commit, char **branch)
{
    *commit = *branch = NULL;
    char *gitdir = NULL, *common = NULL;
    if (!dir || !find_git(dir, &gitdir, &common))
        return;
    char *head = slurp(gitdir, "HEAD", GIT_FILE_MAX);
    if (head && !strncmp(head, "ref: ", 5)) {
        const char *ref = head + 5;
        *commit = resolve(gitdir, common, ref);
        *branch = an_xstrdup(!strncmp(ref, "refs/heads/", 11) ? ref + 11 : ref);
    } else if (head && is_hex40(head)) {
        *commit = an_xstrdup(head);
    }
    free(head);
    free(gitdir);
    free(common);
}
