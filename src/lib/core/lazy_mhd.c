/*
 * libmicrohttpd, loaded on first use (core/lazy.h): the functions the tool
 * proxy (tools/proxy.c), `ananke view` (view/view_server.c) and ananke-mock
 * call, each forwarding to the real one. MHD_start_daemon passes its
 * option list on through MHD_start_daemon_va; the two info calls read no
 * variadic argument for any info type ananke asks for, so none is passed.
 */
#include <microhttpd.h>
#include <stdarg.h>

#include "core/lazy_def.h"

/* R(return type, name, (parameters), (arguments), value when not loaded);
 * V(name, (parameters), (arguments)) for those returning nothing. */
#define AN_MHD_FNS(R, V)                                                                           \
    V(MHD_stop_daemon, (struct MHD_Daemon * d), (d))                                               \
    R(enum MHD_Result, MHD_add_response_header,                                                    \
      (struct MHD_Response * r, const char *header, const char *content), (r, header, content),    \
      MHD_NO)                                                                                      \
    R(struct MHD_Response *, MHD_create_response_from_buffer,                                      \
      (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode), NULL)   \
    R(struct MHD_Response *, MHD_create_response_from_callback,                                    \
      (uint64_t size, size_t block, MHD_ContentReaderCallback crc, void *crc_cls,                  \
       MHD_ContentReaderFreeCallback crfc),                                                        \
      (size, block, crc, crc_cls, crfc), NULL)                                                     \
    V(MHD_destroy_response, (struct MHD_Response * r), (r))                                        \
    R(enum MHD_Result, MHD_queue_response,                                                         \
      (struct MHD_Connection * c, unsigned int status, struct MHD_Response *r), (c, status, r),    \
      MHD_NO)                                                                                      \
    R(const char *, MHD_lookup_connection_value,                                                   \
      (struct MHD_Connection * c, enum MHD_ValueKind kind, const char *key), (c, kind, key), NULL) \
    R(int, MHD_get_connection_values,                                                              \
      (struct MHD_Connection * c, enum MHD_ValueKind kind, MHD_KeyValueIterator it, void *cls),    \
      (c, kind, it, cls), -1)

AN_LAZY_SLOTS(AN_MHD_FNS)
AN_LAZY_SLOT(MHD_start_daemon_va)
AN_LAZY_SLOT(MHD_get_daemon_info)
AN_LAZY_SLOT(MHD_get_connection_info)
AN_LAZY_LIB(AN_LAZY_MHD_SONAME, "libmicrohttpd",
            AN_LAZY_SYMS(AN_MHD_FNS) AN_LAZY_SYM(MHD_start_daemon_va)
                AN_LAZY_SYM(MHD_get_daemon_info) AN_LAZY_SYM(MHD_get_connection_info))

int an_lazy_mhd(const char *what, struct an_err *err)
{
    pthread_once(&once, load);
    return an_lazy_fail(&lib, what, err);
}

bool an_lazy_mhd_loaded(void)
{
    return lib.ok;
}

AN_LAZY_DEFS(AN_MHD_FNS)

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
                                    void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
    if (!ready())
        return NULL;
    struct MHD_Daemon *(*f)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                            MHD_AccessHandlerCallback, void *, va_list) =
        (struct MHD_Daemon * (*)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                 MHD_AccessHandlerCallback, void *, va_list))
            AN_LAZY_SLOT_NAME(MHD_start_daemon_va);
    va_list ap;
    va_start(ap, dh_cls);
    struct MHD_Daemon *d = f(flags, port, apc, apc_cls, dh, dh_cls, ap);
    va_end(ap);
    return d;
}

const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *d, enum MHD_DaemonInfoType type,
                                                ...)
{
    if (!ready())
        return NULL;
    return ((const union MHD_DaemonInfo *(*)(struct MHD_Daemon *, enum MHD_DaemonInfoType,
                                             ...))AN_LAZY_SLOT_NAME(MHD_get_daemon_info))(d, type);
}

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c,
                                                        enum MHD_ConnectionInfoType type, ...)
{
    if (!ready())
        return NULL;
    return (
        (const union MHD_ConnectionInfo *(*)(struct MHD_Connection *, enum MHD_ConnectionInfoType,
                                             ...))AN_LAZY_SLOT_NAME(MHD_get_connection_info))(c,
                                                                                              type);
}
