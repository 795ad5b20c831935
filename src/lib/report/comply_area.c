/* The compliance areas and their cells (report/comply_area.h). */
#include "report/comply_area.h"

#include <string.h>

#include <stdint.h>

#include "core/strmap.h"
#include "report/report_util.h"

const char *comply_cell_name(enum comply_cell c)
{
    static const char *const n[] = {"—", "PASS", "FAIL", "PARTIAL", "NA"};
    return n[c];
}

static const char *area_of(const struct an_comply_test *t)
{
    return t->area ? t->area : "";
}

enum comply_cell comply_area_cell(const struct an_comply_agent *a, const char *area,
                                  const struct an_comply_test **first_fail)
{
    size_t pass = 0, fail = 0, na = 0;
    *first_fail = NULL;
    for (size_t k = 0; k < a->ntests; k++) {
        const struct an_comply_test *t = &a->tests[k];
        if (strcmp(area_of(t), area))
            continue;
        /* a stale expected failure passed; an expected one still failed */
        if (t->status == AN_COMPLY_PASS || t->status == AN_COMPLY_STALE)
            pass++;
        else if (t->status == AN_COMPLY_NA || t->status == AN_COMPLY_SKIP)
            na++;
        else {
            fail++;
            if (!*first_fail)
                *first_fail = t;
        }
    }
    if (pass && fail)
        return COMPLY_CELL_PARTIAL;
    if (fail)
        return COMPLY_CELL_FAIL;
    if (pass)
        return COMPLY_CELL_PASS;
    return na ? COMPLY_CELL_NA : COMPLY_CELL_NONE;
}

size_t comply_areas(const struct an_comply_agent *a, const char ***areas, bool **required)
{
    size_t ntests = a ? a->ntests : 0, nareas = 0;
    *areas = an_xcalloc(ntests + 1, sizeof **areas);
    *required = an_xcalloc(ntests + 1, sizeof **required);
    /* area -> its index + 1: a result read back may hold many areas */
    struct an_arena arena = AN_ARENA_INIT;
    struct an_strmap seen;
    an_strmap_init(&seen, &arena);
    for (size_t k = 0; k < ntests; k++) {
        const struct an_comply_test *t = &a->tests[k];
        size_t j = (size_t)(uintptr_t)an_strmap_get(&seen, area_of(t));
        if (!j) {
            (*areas)[nareas++] = area_of(t);
            j = nareas;
            an_strmap_put(&seen, area_of(t), (void *)(uintptr_t)j);
        }
        (*required)[j - 1] = (*required)[j - 1] || t->required;
    }
    an_arena_release(&arena);
    return nareas;
}
