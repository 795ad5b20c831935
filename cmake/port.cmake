# The portability layer's configure-time probes (src/lib/core/port.h,
# docs/internals.md "Portability"). Each probe sets one AN_HAVE_* define in
# the generated an_config.h; src/lib/core/port.c picks the Linux call where
# it exists and a portable fallback where it does not, and the Linux-only
# features (confinement in namespaces, openat2) report themselves missing.
#
# -DANANKE_PORT_FORCE_FALLBACK=ON sets every AN_HAVE_* to 0 even on Linux,
# so the fallbacks are built and tested here (tests/port-fallback.sh builds
# build-port-fallback/ and runs the unit tests that use them).
include(CheckSymbolExists)
include(CheckIncludeFile)
include(CheckCSourceCompiles)
option(ANANKE_PORT_FORCE_FALLBACK "build the portable fallbacks even where Linux calls exist" OFF)

set(CMAKE_REQUIRED_DEFINITIONS -D_GNU_SOURCE)
check_symbol_exists(pipe2 "unistd.h;fcntl.h" AN_PROBE_PIPE2)
check_symbol_exists(SYS_close_range "sys/syscall.h" AN_PROBE_CLOSE_RANGE)
check_symbol_exists(getrandom "sys/random.h" AN_PROBE_GETRANDOM)
check_symbol_exists(SYS_pidfd_open "sys/syscall.h" AN_PROBE_PIDFD_OPEN)
check_symbol_exists(PR_SET_PDEATHSIG "sys/prctl.h" AN_PROBE_PDEATHSIG)
check_symbol_exists(sched_getaffinity "sched.h" AN_PROBE_SCHED_GETAFFINITY)
# a new thread placed on another CPU than its creator's (an_port_thread_start)
check_symbol_exists(sched_getcpu "sched.h" AN_PROBE_SCHED_GETCPU)
check_symbol_exists(pthread_attr_setaffinity_np "pthread.h" AN_PROBE_ATTR_AFFINITY)
check_symbol_exists(SOCK_CLOEXEC "sys/socket.h" AN_PROBE_SOCK_CLOEXEC)
check_symbol_exists(O_PATH "fcntl.h" AN_PROBE_O_PATH)
# watch mode (core/watch.c): directory change events
check_symbol_exists(inotify_init1 "sys/inotify.h" AN_PROBE_INOTIFY)
check_symbol_exists(syncfs "unistd.h" AN_PROBE_SYNCFS)
check_include_file(linux/openat2.h AN_PROBE_OPENAT2_H)
check_symbol_exists(SYS_openat2 "sys/syscall.h" AN_PROBE_SYS_OPENAT2)
# confinement (core/confine.c): namespaces, the new mount API, prctl
check_symbol_exists(CLONE_NEWUSER "sched.h" AN_PROBE_CLONE_NEWUSER)
check_symbol_exists(unshare "sched.h" AN_PROBE_UNSHARE)
# /proc as Linux lays it out: /proc/self/exe, /proc/self/fd/N, /proc/PID/stat
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(AN_PROBE_PROC_LINUX 1)
endif()
unset(CMAKE_REQUIRED_DEFINITIONS)

function(ananke_have name)
  set(v 0)
  foreach(p ${ARGN})
    if(NOT ${p})
      set(v 0)
      break()
    endif()
    set(v 1)
  endforeach()
  if(ANANKE_PORT_FORCE_FALLBACK)
    set(v 0)
  endif()
  set(AN_HAVE_${name} ${v} PARENT_SCOPE)
endfunction()
ananke_have(PIPE2 AN_PROBE_PIPE2)
ananke_have(CLOSE_RANGE AN_PROBE_CLOSE_RANGE)
ananke_have(GETRANDOM AN_PROBE_GETRANDOM)
ananke_have(PIDFD_OPEN AN_PROBE_PIDFD_OPEN)
ananke_have(PDEATHSIG AN_PROBE_PDEATHSIG)
ananke_have(SCHED_GETAFFINITY AN_PROBE_SCHED_GETAFFINITY)
ananke_have(THREAD_ELSEWHERE AN_PROBE_SCHED_GETAFFINITY AN_PROBE_SCHED_GETCPU AN_PROBE_ATTR_AFFINITY)
ananke_have(SOCK_CLOEXEC AN_PROBE_SOCK_CLOEXEC)
ananke_have(OPENAT2 AN_PROBE_OPENAT2_H AN_PROBE_SYS_OPENAT2)
ananke_have(PROC_LINUX AN_PROBE_PROC_LINUX)
ananke_have(INOTIFY AN_PROBE_INOTIFY)
ananke_have(SYNCFS AN_PROBE_SYNCFS)
ananke_have(CONFINE AN_PROBE_CLONE_NEWUSER AN_PROBE_UNSHARE AN_PROBE_PDEATHSIG
            AN_PROBE_PIPE2 AN_PROBE_CLOSE_RANGE AN_PROBE_PROC_LINUX)
# O_PATH has no fallback: the ACP sandbox refuses to open without it, so it
# is not forced off (the fallback build would lose the ACP tests)
set(AN_HAVE_O_PATH 0)
if(AN_PROBE_O_PATH)
  set(AN_HAVE_O_PATH 1)
endif()

set(ANANKE_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)
configure_file(${CMAKE_CURRENT_LIST_DIR}/an_config.h.in ${ANANKE_GENERATED_DIR}/an_config.h @ONLY)
include_directories(${ANANKE_GENERATED_DIR})
if(ANANKE_PORT_FORCE_FALLBACK)
  message(STATUS "ananke: portable fallbacks forced (ANANKE_PORT_FORCE_FALLBACK)")
endif()
