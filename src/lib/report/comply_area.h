/*
 * The compliance areas of a comply result (seed 003's matrix rows), shared
 * by the Markdown and HTML reports: which areas there are, and each one's
 * status for one agent. Nothing is owned: the areas point into the result.
 */
#ifndef ANANKE_REPORT_COMPLY_AREA_H
#define ANANKE_REPORT_COMPLY_AREA_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/comply.h"

/* An area's status for one agent (see ananke/comply.h): NONE when the agent
 * has no test of the area. */
enum comply_cell {
    COMPLY_CELL_NONE = 0,
    COMPLY_CELL_PASS,
    COMPLY_CELL_FAIL,
    COMPLY_CELL_PARTIAL,
    COMPLY_CELL_NA
};

/* "—", "PASS", "FAIL", "PARTIAL", "NA" */
const char *comply_cell_name(enum comply_cell c);

/* The area's status for agent a; *first_fail: its first failed test (or
 * NULL). A test without an area counts as "". */
enum comply_cell comply_area_cell(const struct an_comply_agent *a, const char *area,
                                  const struct an_comply_test **first_fail);

/* The areas of the first agent's tests, in the order they first appear,
 * each with whether a required test is in it: *areas and *required are
 * allocated (ntests + 1 entries), freed by the caller. */
size_t comply_areas(const struct an_comply_agent *a, const char ***areas, bool **required);

#endif
