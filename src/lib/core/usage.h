/*
 * Token usage: what a scope's turns reported, summed, and what it cost.
 *
 * Turns keep their reports as JSON (an_turn_rec.usage, see
 * ananke/transcript.h); this adds them up for the usage.* assertions and the
 * reports, and prices the reports that carry no cost of their own from the
 * config's `prices:`. Absent is not zero: a sum is only "known" when every
 * report of every turn said it.
 */
#ifndef ANANKE_CORE_USAGE_H
#define ANANKE_CORE_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/model.h"
#include "ananke/transcript.h"

struct an_usage_sum {
    size_t reports;   /* usage reports in the scope */
    int turn_without; /* first turn that ran and reported nothing; -1: none */
    int64_t input, output, total;
    bool has_input, has_output, has_total; /* every report gave it (total: or in + out) */
    double cost;
    bool has_cost;        /* every report has a cost */
    const char *unpriced; /* a report's model that has no price ("" for none named);
                             NULL when every report has a cost */
};

/* Member `key` of `o` when it is a whole number >= 0, else -1 (not said):
 * how adapters read the counts a protocol reports. */
int64_t an_usage_count(const json_t *o, const char *key);

/* Add up the reports of turns[0..n) that ran (status not NOT_RUN). */
void an_usage_sum(const struct an_turn_rec *turns, size_t n, struct an_usage_sum *out);

/* Give every report of `usage` (an array, may be NULL) without a cost from
 * the agent a cost from `prices`: its model's price, else the "*" price.
 * A report needs both token counts to be priced; the others stay without. */
void an_usage_price(json_t *usage, const struct an_price *prices, size_t nprices);

#endif
