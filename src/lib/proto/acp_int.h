/* Internals shared by acp_client.c, acp_fs.c, acp_term.c and acp_perm.c. */
#ifndef ANANKE_PROTO_ACP_INT_H
#define ANANKE_PROTO_ACP_INT_H

#include <sys/types.h>

#include "core/buf.h"
#include "core/child.h"
#include "core/confine.h"
#include "core/json.h"
#include "core/port.h"
#include "proto/acp_client.h"

/* An agent request not answered yet. */
enum acp_park { PARK_NONE, PARK_CLAIMED, PARK_WAIT, PARK_PERM };
struct acp_req {
    json_t *id;
    char *method;
    json_t *params; /* NULL when absent */
    char *violation;
    int64_t start_ms;
    enum acp_park park;
    unsigned term;     /* PARK_WAIT: the terminal's number */
    int64_t decide_at; /* PARK_PERM: mono ms */
    size_t kept_bytes; /* new content in the answer (an_acp_call.kept_bytes) */
    const char *cap;   /* the cap that refused it (an_acp_call.cap), or NULL */
};

/* A response to one of our requests, kept until an_acp_wait takes it. */
struct acp_resp {
    bool int_id; /* only an integer id can be waited for */
    int64_t id;
    json_t *result; /* owned; NULL when error is set */
    json_t *error;  /* owned, or NULL */
};

struct acp_term {
    unsigned num; /* "term-<num>" */
    struct an_child child;
    struct an_buf out;
    size_t limit;
    bool truncated;
    /* the output as last handed out, shared by every answer until more
     * arrives: reading it N times keeps one copy, not N */
    json_t *out_json;
    bool out_new; /* output arrived since out_json was made */
};

struct an_acp_client {
    struct an_acp_cbs cbs;
    struct an_rpc *rpc;
    char *sandbox;       /* realpath */
    int root_fd;         /* the sandbox directory (O_PATH): every path is opened beneath it */
    char *sandbox_given; /* opts.sandbox when it is not the realpath, or NULL */
    json_t *caps;
    bool fs_read, fs_write, terminal;
    enum an_acp_policy policy;
    int64_t perm_delay_ms;
    size_t output_limit;     /* a terminal's output kept when the agent does not say */
    size_t output_limit_max; /* an agent's outputByteLimit is clamped to it */
    size_t read_max;         /* fs/read_text_file: the biggest file served */
    size_t max_terms;        /* terminals at once */
    char *version;

    json_t *agent_caps;
    int proto_version;
    int64_t init_id;

    struct acp_req **reqs;
    size_t nreqs, reqs_cap;
    json_t *cancelled; /* {sessionId: true} */

    struct an_acp_call **recs; /* owned, with what they point to */
    size_t nrecs, recs_cap;
    char **viol;
    size_t nviol, viol_cap;

    struct acp_term **terms;
    size_t nterms, terms_cap;
    unsigned next_term;

    /* recent responses to our requests, oldest first (at most 256) */
    struct acp_resp *resp;
    size_t nresp, resp_cap;
    char *init_text; /* initialize's params (compact JSON), the same every time */
    char *scratch;

    /* how children start (acp_client.c: acp_spawn_env) */
    bool clean_env;
    char **env;                /* the target's env, owned, NULL-terminated */
    bool confine_terms;        /* terminals run under `confine` */
    struct an_confine confine; /* points into confine_paths and sandbox */
    char **confine_paths;      /* owned, NULL-terminated */
};

/* Answer r (result or error, both stolen; error = {code, message, data?}),
 * record the call and free r. violation (may be NULL) is added to r's. */
void acp_finish(struct an_acp_client *c, struct acp_req *r, json_t *result, json_t *error,
                const char *violation);
json_t *acp_error(int code, const char *message, json_t *data); /* data stolen */
void acp_record_violation(struct an_acp_client *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The environment list for a child of ours (the agent, a terminal): the
 * target's env then `extra`, over core/envmin when c->clean_env. Free
 * with an_envmin_free(). */
char **acp_spawn_env(const struct an_acp_client *c, const char *const *extra);

/* acp_fs.c */
void acp_fs_read(struct an_acp_client *c, struct acp_req *r);
void acp_fs_write(struct an_acp_client *c, struct acp_req *r);
/* Check r's string member `key` (a path: "path", or "cwd" for a terminal)
 * and open it beneath the sandbox with flags (acp_open_beneath; with
 * O_CREAT the missing parents are made first, 0755, the file 0644).
 * Returns the fd; on refusal or failure answers r itself (an error, and a
 * violation when the agent tried to leave the sandbox, sent a NUL or named
 * a special file) and returns -1. */
int acp_open_param(struct an_acp_client *c, struct acp_req *r, const char *key, int flags);

/* acp_path.c: the agent's paths, opened beneath the sandbox. */
enum { ACP_PATH_OK = 0, ACP_PATH_RELATIVE = -1, ACP_PATH_OUTSIDE = -2 };
/* Lexically: *rel = what follows the sandbox's components in the absolute
 * path (empty and "." components skipped; nothing else is interpreted), or
 * NULL with ACP_PATH_RELATIVE / ACP_PATH_OUTSIDE. *rel points into path. */
int acp_path_rel(const char *sandbox, const char *path, const char **rel);
/* openat(root, rel, flags, mode) that resolves every component beneath
 * root and never leaves it: openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)
 * where the kernel has it, else acp_walk_beneath(). rel "" is root itself.
 * -1 with errno: EXDEV it would leave root (a "..", an absolute or
 * climbing symlink), ELOOP too many links or a magic link, ENOENT, ENOTDIR,
 * ENAMETOOLONG, ... O_CLOEXEC is added. */
int acp_open_beneath(int root, const char *rel, int flags, mode_t mode);
/* The component walk alone (O_PATH | O_NOFOLLOW per component, links read
 * from their fd and spliced in, ".." never above root; a created file is
 * O_EXCL | O_NOFOLLOW): what runs where openat2 does not. */
int acp_walk_beneath(int root, const char *rel, int flags, mode_t mode);
/* mkdir -p of rel beneath root (0755); 0, or -1 with errno (EXDEV ...). */
int acp_mkdirs_beneath(int root, const char *rel);
/* Tests: non-zero makes acp_open_beneath use the walk even with openat2. */
extern int acp_path_force_walk;

/* acp_term.c */
void acp_term_request(struct an_acp_client *c, struct acp_req *r);
size_t acp_term_fds(const struct an_acp_client *c, struct pollfd *out, size_t max);
void acp_term_handle(struct an_acp_client *c, const struct pollfd *pfds, size_t n);
bool acp_term_ticking(const struct an_acp_client *c);
void acp_term_free_all(struct an_acp_client *c);

/* acp_perm.c */
json_t *acp_perm_decide(enum an_acp_policy p, const json_t *params);
json_t *acp_perm_cancelled(void);

#endif
