/*
 * The built-in check kinds' evaluators (ananke/check_kind.h's
 * an_check_eval_fn), reached only through the table's rows
 * (check/check_kinds.c); an_check() calls them through chk_items().
 */
#ifndef ANANKE_CHECK_EVAL_H
#define ANANKE_CHECK_EVAL_H

#include "ananke/check_kind.h"

/* contains, not_contains, equals, regex; json_path, type (check/items.c) */
an_check_eval_fn an_ck_eval_text, an_ck_eval_json;
/* tool_called, tool_result (check/items.c) */
an_check_eval_fn an_ck_eval_tool_called, an_ck_eval_tool_result;
/* seed 004's run-case kinds (check/case_items.c) */
an_check_eval_fn an_ck_eval_case;
/* task_state (check/task_state.c) */
an_check_eval_fn an_ck_eval_task_state;

#endif
