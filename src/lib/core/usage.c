#include "core/usage.h"

#include <stdint.h>
#include <string.h>

int64_t an_usage_count(const json_t *u, const char *key)
{
    const json_t *v = json_object_get(u, key);
    return json_is_integer(v) && json_integer_value(v) >= 0 ? (int64_t)json_integer_value(v) : -1;
}

/* Counts come from the agent or from a file: a sum stops at INT64_MAX
 * rather than overflow. Both are at least 0. */
static int64_t sat_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

void an_usage_sum(const struct an_turn_rec *turns, size_t n, struct an_usage_sum *out)
{
    memset(out, 0, sizeof *out);
    out->turn_without = -1;
    out->has_input = out->has_output = out->has_total = out->has_cost = true;
    for (size_t i = 0; i < n; i++) {
        const struct an_turn_rec *r = &turns[i];
        if (r->status == AN_TURN_NOT_RUN)
            continue;
        if (!json_array_size(r->usage) && out->turn_without < 0)
            out->turn_without = (int)r->index;
        size_t k;
        const json_t *u;
        json_array_foreach(r->usage, k, u)
        {
            out->reports++;
            int64_t in = an_usage_count(u, "input_tokens"), o = an_usage_count(u, "output_tokens");
            int64_t t = an_usage_count(u, "total_tokens");
            if (t < 0 && in >= 0 && o >= 0)
                t = sat_add(in, o);
            if (in >= 0)
                out->input = sat_add(out->input, in);
            else
                out->has_input = false;
            if (o >= 0)
                out->output = sat_add(out->output, o);
            else
                out->has_output = false;
            if (t >= 0)
                out->total = sat_add(out->total, t);
            else
                out->has_total = false;
            const json_t *c = json_object_get(u, "cost");
            if (json_is_number(c)) {
                out->cost += json_number_value(c);
            } else {
                out->has_cost = false;
                if (!out->unpriced) {
                    const char *m = json_string_value(json_object_get(u, "model"));
                    out->unpriced = m ? m : "";
                }
            }
        }
    }
    if (!out->reports)
        out->has_input = out->has_output = out->has_total = out->has_cost = false;
}

static const struct an_price *price_of(const struct an_price *prices, size_t n, const char *model)
{
    const struct an_price *any = NULL;
    for (size_t i = 0; i < n; i++) {
        if (model && !strcmp(prices[i].model, model))
            return &prices[i];
        if (!strcmp(prices[i].model, "*"))
            any = &prices[i];
    }
    return any;
}

void an_usage_price(json_t *usage, const struct an_price *prices, size_t nprices)
{
    size_t i;
    json_t *u;
    json_array_foreach(usage, i, u)
    {
        const char *src = json_string_value(json_object_get(u, "cost_source"));
        if (src && !strcmp(src, "agent"))
            continue;
        json_object_del(u, "cost");
        json_object_del(u, "cost_source");
        const char *model = json_string_value(json_object_get(u, "model"));
        const struct an_price *p = price_of(prices, nprices, model);
        int64_t in = an_usage_count(u, "input_tokens"), o = an_usage_count(u, "output_tokens");
        if (!p || in < 0 || o < 0)
            continue;
        double cost = ((double)in * p->input_per_mtok + (double)o * p->output_per_mtok) / 1e6;
        json_object_set_new(u, "cost", json_real(cost));
        json_object_set_new(u, "cost_source", json_string("prices"));
    }
}
