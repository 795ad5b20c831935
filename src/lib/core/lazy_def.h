/*
 * The shape every library loaded on first use shares (core/lazy.h): an
 * X-macro table of the library's functions, each entry R(return type, name,
 * (parameters), (arguments), value when not loaded) or V(name, (parameters),
 * (arguments)) for one returning nothing, turned into a slot per function,
 * the symbol list an_lazy_open() fills, and a definition per function that
 * loads the library once (pthread_once) and forwards to the real one.
 * Included only by the core/lazy_<library>.c files, once each.
 *
 *   AN_LAZY_SLOTS(TABLE)          the slots (static void *slot_<name>)
 *   AN_LAZY_SLOT(name)            one more slot, for a function defined by hand
 *   AN_LAZY_LIB(SONAME, LABEL, SYMS...)  the library, its once, ready()
 *   AN_LAZY_DEFS(TABLE)           the forwarding definitions
 */
#ifndef ANANKE_CORE_LAZY_DEF_H
#define ANANKE_CORE_LAZY_DEF_H

#include "core/lazy.h"

#define AN_LAZY_SLOT_NAME(name) slot_##name
#define AN_LAZY_DECL_R(ret, name, params, args, fail) static void *AN_LAZY_SLOT_NAME(name);
#define AN_LAZY_DECL_V(name, params, args) static void *AN_LAZY_SLOT_NAME(name);
#define AN_LAZY_SLOTS(TABLE) TABLE(AN_LAZY_DECL_R, AN_LAZY_DECL_V)
#define AN_LAZY_SLOT(name) static void *AN_LAZY_SLOT_NAME(name);

/* symbol list entries: {"name", &slot_name}, */
#define AN_LAZY_SYM(name) {#name, &AN_LAZY_SLOT_NAME(name)},
#define AN_LAZY_SYM_R(ret, name, params, args, fail) AN_LAZY_SYM(name)
#define AN_LAZY_SYM_V(name, params, args) AN_LAZY_SYM(name)
#define AN_LAZY_SYMS(TABLE) TABLE(AN_LAZY_SYM_R, AN_LAZY_SYM_V)

/* The library (`lib`), loaded once by ready(), which says whether it is. */
#define AN_LAZY_LIB(SONAME, LABEL, ...)                                                            \
    static const struct an_lazy_sym syms[] = {__VA_ARGS__};                                        \
    static struct an_lazy_lib lib = {                                                              \
        .soname = SONAME, .label = LABEL, .syms = syms, .nsyms = sizeof syms / sizeof *syms};      \
    static pthread_once_t once = PTHREAD_ONCE_INIT;                                                \
    static void load(void)                                                                         \
    {                                                                                              \
        an_lazy_open(&lib);                                                                        \
    }                                                                                              \
    static bool ready(void)                                                                        \
    {                                                                                              \
        pthread_once(&once, load);                                                                 \
        return lib.ok;                                                                             \
    }

#define AN_LAZY_DEF_R(ret, name, params, args, fail)                                               \
    ret name params                                                                                \
    {                                                                                              \
        if (!ready())                                                                              \
            return fail;                                                                           \
        return ((ret(*) params)AN_LAZY_SLOT_NAME(name))args;                                       \
    }
#define AN_LAZY_DEF_V(name, params, args)                                                          \
    void name params                                                                               \
    {                                                                                              \
        if (ready())                                                                               \
            ((void(*) params)AN_LAZY_SLOT_NAME(name)) args;                                        \
    }
#define AN_LAZY_DEFS(TABLE) TABLE(AN_LAZY_DEF_R, AN_LAZY_DEF_V)

#endif
