/*
 * `ananke compare` inside: the model both runs are read into and the pure
 * verdicts computed on it. docs/compare.md is the user's side of it.
 *
 *   compare_pair.c    read two recorded runs, pair their tests into cases,
 *                     per-side availability, pass/fail, regressions
 *   compare_rca.c     root cause, policy hints, failure summary, trace
 *                     integrity, security signals, gate and risk
 *   compare_redact.c  --redact presets and regexes, recorded env secrets, on
 *                     the recordings' redaction engine (run/redact.c)
 *   compare_pack.c    the pack on disk: files, manifest, href checks
 *   compare_json.c    compare-report.json (Report Contract v5)
 *   compare_html.c    report.html and what every page shares
 *   compare_case.c    case-<id>.html: the side-by-side replay diff
 *   compare_stats_html.c  a repeated case's statistics on those pages
 *   compare_toolcov.c the tool servers' coverage, baseline vs new
 *   compare_stats.c   repeated cases: pass rates with their intervals,
 *                     Fisher's exact test, medians of durations and token
 *                     usage with a Mann-Whitney interval of their shift
 *
 * Ownership: struct an_compare owns both runs (their JSON documents and
 * results) and every item; an item's sides borrow their test results and
 * finding kinds from the runs. Static strings (names of enums, issue and
 * signal kinds) are never freed.
 */
#ifndef ANANKE_COMPARE_COMPARE_INT_H
#define ANANKE_COMPARE_COMPARE_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/report.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/strmap.h"

enum { CMP_BASE = 0, CMP_NEW = 1 };
extern const char *const cmp_side_name[2]; /* "baseline", "new" */

/* --- verdict words ------------------------------------------------------ */

enum cmp_avail { CMP_PRESENT = 0, CMP_MISSING, CMP_BROKEN };
const char *cmp_avail_name(enum cmp_avail a); /* present, missing, broken */

enum cmp_case_status { CMP_EXECUTED = 0, CMP_SKIPPED, CMP_FILTERED_OUT };
const char *cmp_case_status_name(enum cmp_case_status s); /* executed, skipped, filtered_out */

/* seed 004's RootCause set. NONE: the side passed (or did not run). */
enum cmp_root {
    CMP_ROOT_NONE = 0,
    CMP_ROOT_TOOL_FAILURE,
    CMP_ROOT_FORMAT_VIOLATION,
    CMP_ROOT_MISSING_REQUIRED_DATA,
    CMP_ROOT_WRONG_TOOL_CHOICE,
    CMP_ROOT_HALLUCINATION_SIGNAL,
    CMP_ROOT_MISSING_CASE,
    CMP_ROOT_UNKNOWN,
    CMP_ROOT_AGENT_ERROR,   /* the agent ended the run with its own error (AG-UI RUN_ERROR) */
    CMP_ROOT_TEXT_MISMATCH, /* the answer's text is not what a text check wants */
    CMP_ROOT_COUNT
};
const char *cmp_root_name(enum cmp_root r); /* "tool_failure", ...; NULL for NONE */

/* --- root cause analysis (compare_rca.c) -------------------------------- */

/* The class one finding kind points at: tools.require → wrong_tool_choice,
 * check.json_schema → format_violation, ... (docs/compare.md has the
 * table). A kind no rule names is CMP_ROOT_UNKNOWN; never NONE. */
enum cmp_root cmp_kind_root(const char *kind);
/* A finding about evidence for actions (seed 004's
 * evidence_required_for_actions): adds the policy rule require_evidence_for_actions. */
bool cmp_kind_is_evidence(const char *kind);
/* The tool's execution failed: its status says so ("error", "timeout" ...:
 * seed 004's tool_result status), or its result does ({"error": ...},
 * {"status": "error"|"timeout"|"failed"}, {"isError": true}, or text
 * starting "error:"). */
bool cmp_call_failed(const struct an_tool_call *c);
/* Why a side that did not pass failed, by seed 004's priority (HEAD's,
 * where transport failures come right after tool failures):
 * tool_failure > transport error > format > retrieval > tool choice >
 * hallucination > unknown. `kinds` are the findings' kinds as written in
 * the file (t->findings.v[i].kind may be "other" for kinds the loader does
 * not know); NULL means use t's. *evidence_failed is set when an evidence
 * finding is among them. A passing or skipped test: NONE. */
enum cmp_root cmp_root_cause(const struct an_test_result *t, const char *const *kinds,
                             bool *evidence_failed);
/* seed 004's mapPolicyRules: up to 3 rule names (check_tool_choice, require_input_data,
 * validate_output_format, require_evidence_for_actions) into out (static strings), in order,
 * without repeats; returns how many. */
size_t cmp_policy_rules(enum cmp_root r, bool evidence_failed, const char *out[4]);

/* A broken run (status error): runner-failure-like facts. */
struct cmp_failure {
    const char *cls;            /* network_error, timeout, http_error, invalid_json (a run-case
                                   target's own word), protocol_error, run_error, limit,
                                   hook_error, variable_error, internal_error */
    const char *code;           /* "AN_ECONNECT", ... */
    const char *message;        /* borrowed from the result; may be NULL */
    int http_status;            /* 0: none */
    unsigned attempts;          /* 1 + transport retries of the failing turn */
    int turn;                   /* 0-based; -1 outside a turn */
    int64_t timeout_ms;         /* a run-case target's per-attempt timeout; 0: unknown */
    const char *net_error_kind; /* conn_refused, dns ... (run-case); NULL */
};
/* true and *out filled when t errored. */
bool cmp_failure_of(const struct an_test_result *t, struct cmp_failure *out);
/* A transport failure (the agent was down, timed out, answered an HTTP
 * error, broke the protocol, sent too much). */
bool cmp_failure_is_transport(const struct cmp_failure *f);
/* The agent reported the failure itself (AN_ERUN: an AG-UI RUN_ERROR, a
 * JSON-RPC error answer): root cause agent_error, no security signal. */
bool cmp_failure_is_agent(const struct cmp_failure *f);

/* --- trace integrity ----------------------------------------------------- */

#define CMP_TRACE_MAX 8
struct cmp_trace {
    const char *status;                /* ok, partial, broken */
    const char *issues[CMP_TRACE_MAX]; /* static words, in a fixed order */
    size_t n;
};
/* From the transcript: no_events, duplicate_call_id, tool_call_without_result,
 * tool_result_without_call, missing_timestamps, missing_final_output.
 * Broken when nothing came back and the run did not error, or a result
 * came for no call; partial with any other issue; ok without. A skipped
 * test is ok. */
void cmp_trace_of(const struct an_test_result *t, struct cmp_trace *out);
/* A side with no usable data: {broken, [issue]}. */
void cmp_trace_missing(struct cmp_trace *out, const char *issue);

/* --- security signals ---------------------------------------------------- */

enum cmp_sev { CMP_SEV_NONE = 0, CMP_SEV_LOW, CMP_SEV_MEDIUM, CMP_SEV_HIGH, CMP_SEV_CRITICAL };
const char *cmp_sev_name(enum cmp_sev s); /* low, medium, high, critical */

/* Which evidence file a signal points at (its manifest key's kind). */
enum cmp_art {
    CMP_ART_CASE_RESPONSE = 0, /* the test's result.json (raw copy) */
    CMP_ART_FINAL_OUTPUT,      /* assets/final_output/<id>/<side>.json */
    CMP_ART_FRAMES,            /* the test's frames.jsonl (raw copy) */
    CMP_ART_VARS,              /* the test's vars.json (raw copy) */
    CMP_ART_FAILURE_SUMMARY,   /* assets/failure_summary/<id>/<side>.json */
    CMP_ART_COUNT
};
extern const char *const cmp_art_name[CMP_ART_COUNT]; /* "case_response", ... */

struct cmp_signal {
    const char *kind; /* static: untrusted_url_input, secret_in_output, ... */
    enum cmp_sev severity;
    const char *confidence; /* static: low, medium, high */
    const char *title;      /* static */
    char *tool, *call_id;   /* the tool call it was found in; NULL for text */
    char *action_id;        /* a run-case answer's proposed action; NULL */
    char *notes;            /* NULL: none */
    char **urls;
    size_t nurls;
    char **fields;
    size_t nfields;
    enum cmp_art evidence;
};
struct cmp_signals {
    struct cmp_signal *v;
    size_t n, cap;
};
/* seed 004's signals (§4.3), from the assistant text of every turn and
 * the tool calls' arguments, appended to out:
 *   untrusted_url_input (medium)   http(s) URLs in the text that are not
 *                                  localhost, loopback or private IPv4
 *   secret_in_output (high)        api_key, secret, bearer TOKEN, sk-…,
 *                                  password, private_key in the text
 *   pii_in_output (high)           an SSN, phone number or e-mail address
 *   prompt_injection_marker        in the text (high), in the arguments of
 *                                  a retrieval tool (critical)
 *   high_risk_action (high)        arguments (or a run-case answer's
 *                                  proposed action params) naming
 *                                  password, api_key, secret or token
 *   (a run-case answer's retrieval queries count as a retrieval tool's
 *   arguments)
 *   runner_failure_detected        the test errored: high for a timeout or
 *                                  an unreachable agent, else medium */
void cmp_signals_scan(const struct an_test_result *t, struct cmp_signals *out);
void cmp_signals_release(struct cmp_signals *s);
enum cmp_sev cmp_signals_max(const struct cmp_signals *s); /* NONE for no signal */

/* --- gate ----------------------------------------------------------------- */

/* seed 004's deriveGateRecommendation plus regressions: a case not
 * executed is none; a critical new-side signal blocks; a high one, new data
 * missing or broken, or a regression (passed before, not now) needs
 * approval. */
enum an_gate cmp_gate(enum cmp_case_status st, enum cmp_sev new_max, enum cmp_avail new_avail,
                      bool regression);
const char *cmp_risk_level(enum an_gate g); /* low, medium, high */

/* --- names and paths ------------------------------------------------------ */

/* s made a file name: every byte outside [A-Za-z0-9._-] becomes '_', cut
 * to 80 bytes, "_" for an empty s (docs/record.md's slug rule), and a name
 * of dots only ("..") made underscores. Appended to out. */
void cmp_slug(struct an_buf *out, const char *s);
/* Why href does not resolve inside the pack by its text alone: "empty",
 * "scheme" (http:, data:, javascript: ...), "absolute", "backslash" (also
 * %-encoded, as is an encoded '/'), "dot_segment" (a "." or ".." segment,
 * also %-encoded), "empty_segment" ("a//b"), "control" (a control byte or
 * a space), "query"; NULL when it is a plain relative path. A fragment
 * (#...) is allowed. */
const char *cmp_href_violation(const char *href);

/* --- tool coverage (compare_toolcov.c) ----------------------------------- */

/* compare-report.json's "tool_coverage": per tool server of either run,
 * {"baseline_ratio", "new_ratio", "ratio_delta", "newly_covered",
 * "no_longer_covered"}; NULL when neither run has tool servers. */
json_t *cmp_tool_coverage(const struct an_compare *c);
struct cmp_page;
/* report.html's table of it (from the report's "tool_coverage"). */
void cmp_html_tool_coverage(struct cmp_page *pg, const json_t *report);

/* --- repeated cases (compare_stats.c) ------------------------------------- */

/* The interval's rank k for the last (m, n, alpha) asked: the cases of a
 * run share their run counts, and the exact distribution costs m*n*mn. */
struct cmp_mw_cache {
    size_t m, n;
    double alpha;
    size_t k;
};

struct cmp_stat_opts {
    double alpha;               /* significance level, (0, 0.5] */
    bool any_drop;              /* --gate-on any-drop */
    double max_slowdown;        /* a share (0.5: 50 % slower); negative: not given */
    struct cmp_mw_cache *cache; /* NULL: none */
};

/* One side's pass count and the Wilson score interval of its true rate at
 * confidence 1 - alpha. */
struct cmp_rate {
    unsigned runs, passes;
    double rate, ci_low, ci_high;
};

/* The shift new - baseline of a per-run number (duration, tokens): the
 * medians, the Hodges-Lehmann estimate and its Mann-Whitney interval at
 * confidence 1 - alpha. has_ci false: too few runs for that confidence
 * (or too many pairs: CMP_SHIFT_MAX_PAIRS), never flagged. */
struct cmp_shift {
    bool known; /* both sides have at least one value */
    double base_median, new_median, shift;
    bool has_ci;
    double ci_low, ci_high;
    bool flagged; /* ci_low > max_slowdown * base_median */
};
#define CMP_SHIFT_MAX_PAIRS (1u << 18)

struct cmp_rstats {
    struct cmp_rate side[2];
    double p_worse, p_two; /* Fisher: one-sided "new is worse", two-sided */
    double p_value;        /* p_worse when the rate dropped, else p_two */
    bool significant;      /* p_value <= alpha */
    double alpha;
    bool drop, rise;              /* the new rate is lower / higher */
    bool regression, improvement; /* what the case's change becomes */
    struct cmp_shift duration, tokens;
    double max_slowdown; /* as given; negative: not given */
};

/* x[0..m) baseline, y[0..n) new (both sorted in place). false when m or n
 * is 0. cache may be NULL. */
bool cmp_shift_of(double *x, size_t m, double *y, size_t n, double alpha, double max_slowdown,
                  struct cmp_mw_cache *cache, struct cmp_shift *out);
/* P(U <= u) of the Mann-Whitney statistic with m and n values, exact for
 * m, n <= CMP_MW_EXACT_MAX (no ties), normal with a continuity correction
 * beyond. */
#define CMP_MW_EXACT_MAX 50
double cmp_mw_cdf(size_t m, size_t n, double u);
struct cmp_item;
/* it->repeated and it->rs when both sides ran repeatedly (runs > 1). */
void cmp_item_repeat(struct cmp_item *it, const struct cmp_stat_opts *o);
/* compare-report.json's item "stats": {baseline{runs, passes, pass_rate,
 * ci_low, ci_high}, new{...}, p_value, significant, alpha}. New reference. */
json_t *cmp_rstats_json(const struct cmp_rstats *rs);
/* item "medians": {max_slowdown, duration_ms, total_tokens}, each figure
 * {baseline, new, difference, ci_low, ci_high, flagged} or null. New
 * reference. */
json_t *cmp_medians_json(const struct cmp_rstats *rs);

/* --- the model ------------------------------------------------------------ */

struct cmp_side {
    enum cmp_avail avail;
    const char *reason_code;        /* static: missing_file, not_in_run, excluded_by_filter,
                                       not_run, invalid_json; NULL when present */
    char *reason;                   /* a sentence for people; NULL when present */
    const struct an_test_result *t; /* NULL when missing */
    const char *const *kinds;       /* finding kinds as written; t->findings.n of them */
    const char *slug;               /* tests/<slug> in the record (borrowed); NULL */
    const char *broken_file;        /* static: the file under tests/<slug>/ that makes it
                                       broken; NULL: result.json */
    const char *word;               /* pass fail error skip missing broken filtered_out */
    bool pass;
    enum cmp_root root;
    bool evidence_failed;
    struct cmp_trace trace;
    struct cmp_signals sig;
    bool failed_run;
    struct cmp_failure failure;
    /* filled by the pack writer: where each evidence file went */
    char *href[CMP_ART_COUNT];
    char *key[CMP_ART_COUNT];
};

struct cmp_item {
    char *case_id; /* JSONL id, else the test name */
    char *title;   /* the test's own name */
    char *fid;     /* case_id as a file name, unique in the pack */
    char *name;    /* the full test name (for --filter) */
    char *file;    /* the test file (new side first) */
    enum cmp_case_status status;
    const char *status_reason; /* static */
    struct cmp_side side[2];
    enum an_change change;
    enum an_gate gate;
    bool preventable;
    const char *rules[4];
    size_t nrules;
    const char *tags[12]; /* static */
    size_t ntags;
    bool repeated; /* both sides ran repeatedly: rs holds their statistics */
    struct cmp_rstats rs;
    char *diff_href;  /* case-<fid>.html */
    char *repro_href; /* repro/<fid>.json (filled by the pack) */
};

struct cmp_run {
    char *dir;    /* as given */
    json_t *meta; /* run.json */
    json_t *doc;  /* results.json */
    struct an_run_result res;
    const char ***kinds;             /* per test: its findings' kinds, borrowed from doc */
    char **slugs;                    /* per test: tests/<slug> */
    bool filtered;                   /* the run's selection had a filter or a shard */
    bool has_redactions;             /* redactions.json is there */
    const struct an_compare_opts *o; /* its on_warning; borrowed during an_compare_load */
};

struct cmp_redactor;

struct an_compare {
    struct cmp_run run[2];
    struct cmp_item *items;
    size_t nitems, cap;
    char *report_id;
    int64_t now_ms;
    struct cmp_redactor *red;
    struct cmp_stat_opts sopt;
    struct cmp_mw_cache mw_cache;
};

/* Per-item verdicts from the sides (compare_pair.c runs it once the sides
 * are known; exposed for the unit tests). */
void cmp_item_judge(struct cmp_item *it);

/* --- redaction (compare_redact.c) ----------------------------------------- */

/* specs: "pii", "secrets" or a PCRE2 regex (a capture group 1, when there
 * is one, is what gets replaced). AN_EREGEX for a regex that does not
 * compile. */
int cmp_redactor_new(struct cmp_redactor **out, const char *const *specs, size_t n,
                     struct an_err *err);
void cmp_redactor_free(struct cmp_redactor *r);
/* A recorded secret's value (an ${ENV.NAME} of the target's headers, as
 * set now): replaced wherever it appears, whether or not --redact is
 * given. Values shorter than 6 bytes are ignored (they would hit
 * everything). */
void cmp_redactor_add_secret(struct cmp_redactor *r, const char *env_name, const char *value);
/* --redact given, or a secret added. */
bool cmp_redactor_active(const struct cmp_redactor *r);
/* "pii", "pii+secrets", "custom", "env_secrets", ... (NULL when inactive). */
const char *cmp_redactor_preset_id(const struct cmp_redactor *r);
/* The pack file being written now: replacements are counted for it. */
void cmp_redactor_file(struct cmp_redactor *r, const char *rel_path);
/* s[0..n) with every match replaced by "[redacted]": a new string (malloc,
 * *outlen set) or NULL when nothing matched. */
char *cmp_redact(struct cmp_redactor *r, const char *s, size_t n, size_t *outlen);
/* Every string in v, in place; members named *_href, *_key, rel_path and
 * manifest_key (the pack's own paths) are left alone. */
void cmp_redact_json(struct cmp_redactor *r, json_t *v);
/* The last pass over a file's bytes: the recorded secrets' values only. */
void cmp_redact_bytes(struct cmp_redactor *r, struct an_buf *b);
/* artifacts/redaction-summary.json's content. New reference. */
json_t *cmp_redactor_summary(const struct cmp_redactor *r);

/* --- the pack (compare_pack.c) -------------------------------------------- */

struct cmp_entry {
    char *key, *rel, *media;
    size_t bytes;
    char sha256[65];
};

struct cmp_link {
    char *where; /* "report.html" or "items[2].artifacts.new_frames_href" */
    char *href;
};

struct cmp_pack {
    char *root; /* the directory being filled (absolute) */
    struct cmp_entry *v;
    size_t n, cap;
    struct cmp_entry *planned; /* written after the checks; counted as present */
    size_t nplanned, cap_planned;
    struct cmp_link *links; /* every href of every page */
    size_t nlinks, cap_links;
    struct cmp_redactor *red;
    /* key -> rel_path and rel_path -> rel_path of the entries and the
     * planned files: a pack has a few files per case, looked up per link */
    struct an_arena arena;
    struct an_strmap by_key, by_rel;
};

/* Write data as rel (dirs made) under the pack, after the last redaction
 * pass, and list it in the manifest under key (NULL: not listed). */
int cmp_pack_put(struct cmp_pack *p, const char *rel, const char *key, const char *media,
                 struct an_buf *data, struct an_err *err);
/* v redacted (cmp_redact_json) and written as pretty JSON. */
int cmp_pack_put_json(struct cmp_pack *p, const char *rel, const char *key, json_t *v,
                      struct an_err *err);
/* A file that will be written once the checks are done (the report, the
 * redaction summary): links to it count as resolved. */
void cmp_pack_plan(struct cmp_pack *p, const char *rel, const char *key, const char *media);
/* The rel_path listed (or planned) under key, or NULL. */
const char *cmp_pack_rel(const struct cmp_pack *p, const char *key);
/* rel is a regular file of the pack, or planned. */
bool cmp_pack_has_file(const struct cmp_pack *p, const char *rel);
/* Every href="..." and src="..." of an HTML page, for the quality check. */
void cmp_pack_scan_links(struct cmp_pack *p, const char *page, const char *html, size_t n);
/* Free what p holds (root included); the files stay. */
void cmp_pack_release(struct cmp_pack *p);

/* "ananke run -c CONFIG --filter '^NAME$' FILE", quoted for a POSIX shell
 * (the name as a PCRE2 literal). Caller frees. */
char *cmp_repro_command(const struct cmp_item *it, const char *config);

/* --- compare-report.json (compare_json.c) --------------------------------- */

/* The report without quality_flags. New reference. */
json_t *cmp_report_json(const struct an_compare *c, const struct cmp_pack *p);
/* quality_flags: every *_href member of report and every page link checked
 * (cmp_href_violation, then: a regular file inside the pack, or planned),
 * and every evidence manifest_key looked up in the pack. New reference. */
/* c (NULL: not checked) adds the paths its runs' raw copies store: an
 * absolute one is a path violation. */
json_t *cmp_quality_flags(const json_t *report, const struct cmp_pack *p,
                          const struct an_compare *c);

/* --- pages (compare_html.c, compare_case.c) ------------------------------- */

struct cmp_page {
    struct an_buf b;
    struct cmp_redactor *red;
    const struct cmp_pack *pack;
};
/* <!DOCTYPE ...> to the opening of the page's wrapper: CSP (nothing may
 * load, no script runs), inline style, title (escaped). */
void cmp_page_head(struct cmp_page *pg, const char *title);
void cmp_page_foot(struct cmp_page *pg);
/* Untrusted s, redacted, made safe (an_rpt_text) and HTML-escaped.
 * `multi` keeps line breaks (for pre-wrap blocks). NULL shows nothing. */
void cmp_page_text(struct cmp_page *pg, const char *s, bool multi);
/* A JSON value pretty-printed as text (a string as its text). */
void cmp_page_json(struct cmp_page *pg, const json_t *v);
/* <a href="REL" data-manifest-key="KEY">label</a> for a key in the pack;
 * the label alone (muted) when the key is not there. */
void cmp_page_link(struct cmp_page *pg, const char *key, const char *label);
/* A badge for a status word / gate / risk. */
void cmp_page_badge(struct cmp_page *pg, const char *cls, const char *word);

/* report.html: summary, the case table, the embedded manifest index. */
void cmp_html_report(struct cmp_page *pg, const struct an_compare *c, const json_t *report);
/* A repeated case's statistics (compare_stats_html.c): one line for
 * report.html's table, and <dt>/<dd> rows for the case page's <dl>.
 * Nothing for a case not repeated on both sides. */
void cmp_page_stats_line(struct cmp_page *pg, const struct cmp_item *it);
void cmp_page_stats(struct cmp_page *pg, const struct cmp_item *it);
/* case-<fid>.html: the replay diff of one case. */
void cmp_html_case(struct cmp_page *pg, const struct an_compare *c, const struct cmp_item *it);

#endif
