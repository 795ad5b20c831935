#include "core/cancel.h"

#include <signal.h>

static volatile sig_atomic_t flag;

void an_cancel_request(void)
{
    flag = 1;
}

bool an_cancelled(void)
{
    return flag != 0;
}

void an_cancel_reset(void)
{
    flag = 0;
}
