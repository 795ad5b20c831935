/* core/port: what a caller observes of each call of the portability layer,
 * whichever implementation this build has (the Linux one, or the portable
 * fallback that -DANANKE_PORT_FORCE_FALLBACK=ON builds on Linux: see
 * tests/port-fallback.sh). Where a fallback cannot do the job it must say
 * so (ENOSYS, -1, "cannot confine"), never answer wrongly. */
#define _GNU_SOURCE /* sched_getcpu, CPU_*, pthread_getaffinity_np: the thread test */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/confine.h"
#include "core/port.h"

static bool cloexec(int fd)
{
    int f = fcntl(fd, F_GETFD);
    assert_true(f >= 0);
    return f & FD_CLOEXEC;
}

static void test_pipe_cloexec(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(an_port_pipe_cloexec(p), 0);
    assert_true(cloexec(p[0]));
    assert_true(cloexec(p[1]));
    assert_int_equal(write(p[1], "x", 1), 1);
    char c = 0;
    assert_int_equal(read(p[0], &c, 1), 1);
    assert_int_equal(c, 'x');
    close(p[0]);
    close(p[1]);
}

/* In a child (the call marks every fd of the process): a plain fd above
 * low is marked, one below is left alone. */
static void test_cloexec_from(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int lo = open("/dev/null", O_RDONLY), hi = fcntl(lo, F_DUPFD, 200);
        if (lo < 0 || hi < 0 || cloexec(lo) || cloexec(hi))
            _exit(2);
        an_port_cloexec_from(lo + 1);
        _exit(!cloexec(lo) && cloexec(hi) ? 0 : 1);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_random(void **state)
{
    (void)state;
    unsigned char a[32], b[32], zero[32] = {0};
    assert_int_equal(an_port_random(a, sizeof a), sizeof a);
    assert_int_equal(an_port_random(b, sizeof b), sizeof b);
    assert_memory_not_equal(a, b, sizeof a);
    assert_memory_not_equal(a, zero, sizeof a);
}

static void test_self_exe(void **state)
{
    (void)state;
    char path[PATH_MAX];
    int rc = an_port_self_exe(path, sizeof path);
    if (!AN_HAVE_PROC_LINUX) {
        assert_int_equal(rc, -1);
        assert_int_equal(errno, ENOSYS);
        return;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(path[0], '/');
    const char *base = strrchr(path, '/') + 1;
    assert_string_equal(base, "test_port");
    /* too small a buffer is an error, never a path cut short */
    char tiny[4];
    assert_int_equal(an_port_self_exe(tiny, sizeof tiny), -1);
    assert_int_equal(errno, ENAMETOOLONG);
}

static void test_fd_path(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/ananke-port-XXXXXX", path[PATH_MAX], *real;
    assert_non_null(mkdtemp(tmpl));
    int fd = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    int rc = an_port_fd_path(fd, path, sizeof path);
    if (AN_HAVE_PROC_LINUX) {
        assert_int_equal(rc, 0);
        real = realpath(tmpl, NULL);
        assert_non_null(real);
        assert_string_equal(path, real);
        free(real);
    } else {
        assert_int_equal(rc, -1);
        assert_int_equal(errno, ENOSYS);
    }
    close(fd);
    rmdir(tmpl);
}

static void test_pidfd(void **state)
{
    (void)state;
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char c;
        close(go[1]);
        _exit(read(go[0], &c, 1) == 1 ? 0 : 1);
    }
    close(go[0]);
    int fd = an_port_pidfd_open(pid);
    if (fd >= 0) {
        assert_true(cloexec(fd));
        struct pollfd p = {.fd = fd, .events = POLLIN};
        assert_int_equal(poll(&p, 1, 0), 0); /* still running */
        assert_int_equal(write(go[1], "x", 1), 1);
        assert_int_equal(poll(&p, 1, 10000), 1); /* readable at its exit */
        close(fd);
    } else {
        /* valgrind and old kernels have none either; the fallback never */
        assert_false(AN_HAVE_PIDFD_OPEN && errno != ENOSYS);
        assert_int_equal(write(go[1], "x", 1), 1);
    }
    close(go[1]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
}

static void test_socket(void **state)
{
    (void)state;
    int fd = an_port_socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    assert_true(cloexec(fd));
    assert_true(fcntl(fd, F_GETFL) & O_NONBLOCK);
    close(fd);
}

/* A child in a group of its own: alive while it runs; not alive once it is
 * a zombie (which kill(-pgid, 0) still counts); -1 where we cannot tell. */
static void test_group_alive(void **state)
{
    (void)state;
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char c;
        setpgid(0, 0);
        close(go[1]);
        _exit(read(go[0], &c, 1) == 1 ? 0 : 1);
    }
    setpgid(pid, pid);
    close(go[0]);
    int want_alive = AN_HAVE_PROC_LINUX ? 1 : -1, want_gone = AN_HAVE_PROC_LINUX ? 0 : -1;
    assert_int_equal(an_port_group_alive(pid), want_alive);
    assert_int_equal(write(go[1], "x", 1), 1);
    close(go[1]);
    siginfo_t si;
    assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0); /* a zombie */
    assert_int_equal(an_port_group_alive(pid), want_gone);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
}

static void test_cpu_count(void **state)
{
    (void)state;
    long n = an_port_cpu_count();
    assert_true(n >= 1);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    assert_true(online < 1 || n <= online);
}

struct started {
    int creator, first; /* an_port_thread_origin, in the thread */
    bool all_cpus;      /* its affinity once running: the process's */
    const void *arg;    /* what it was given */
};

static void *note_start(void *arg)
{
    struct started *s = arg;
    an_port_thread_origin(&s->creator, &s->first);
    cpu_set_t mine, all;
    s->all_cpus = !pthread_getaffinity_np(pthread_self(), sizeof mine, &mine) &&
                  !sched_getaffinity(0, sizeof all, &all) && CPU_EQUAL(&mine, &all);
    s->arg = arg;
    return arg;
}

/* A thread started by an_port_thread_start runs fn(arg), is joined with
 * its result and may then run on every CPU of the process; with several
 * CPUs (and the Linux calls) it first ran on another one than its
 * creator's, every time. */
static void test_thread_start(void **state)
{
    (void)state;
    bool placed = AN_HAVE_THREAD_ELSEWHERE && an_port_cpu_count() > 1;
    for (int i = 0; i < 20; i++) {
        struct started s = {0};
        pthread_t t;
        assert_int_equal(an_port_thread_start(&t, i % 2 ? (size_t)1 << 20 : 0, note_start, &s), 0);
        void *ret = NULL;
        assert_int_equal(pthread_join(t, &ret), 0);
        assert_ptr_equal(ret, &s);
        assert_ptr_equal(s.arg, &s);
        assert_true(s.all_cpus);
        if (placed) {
            assert_true(s.creator >= 0 && s.first >= 0);
            assert_int_not_equal(s.creator, s.first);
        } else {
            assert_int_equal(s.creator, -1);
        }
    }
    int c, f; /* this thread was not started by it */
    an_port_thread_origin(&c, &f);
    assert_int_equal(c, -1);
    assert_int_equal(f, -1);
}

/* A process held to one CPU still starts its threads (there is no other
 * CPU to put them on): in a child, so the group's affinity stays whole. */
static void test_thread_one_cpu(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(sched_getcpu(), &one);
        if (sched_setaffinity(0, sizeof one, &one))
            _exit(3);
        struct started s = {0};
        pthread_t t;
        if (an_port_thread_start(&t, 0, note_start, &s) || pthread_join(t, NULL))
            _exit(4);
        /* started plainly: no other CPU to put it on */
        _exit(s.arg == &s && s.all_cpus && s.creator == -1 ? 0 : 5);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* Without namespaces, confinement says so: an error naming the cause from
 * each entry point, never a plan that would run the child unconfined. */
static void test_confine_refuses(void **state)
{
    (void)state;
    if (AN_HAVE_CONFINE)
        skip();
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_confine_available(&err), AN_EIO);
    assert_non_null(strstr(err.msg, "cannot confine: this system has no Linux namespaces"));
    struct an_confine_plan *plan = (struct an_confine_plan *)&err;
    struct an_confine c = {.sandbox = "/tmp"};
    err = (struct an_err)AN_ERR_INIT;
    assert_int_equal(an_confine_plan_new(&plan, &c, &err), AN_EIO);
    assert_null(plan);
    assert_non_null(strstr(err.msg, "cannot confine"));
    int step = -1;
    assert_int_equal(an_confine_enter(NULL, -1, &step), -1);
    assert_int_equal(errno, ENOSYS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipe_cloexec), cmocka_unit_test(test_cloexec_from),
        cmocka_unit_test(test_random),       cmocka_unit_test(test_self_exe),
        cmocka_unit_test(test_fd_path),      cmocka_unit_test(test_pidfd),
        cmocka_unit_test(test_socket),       cmocka_unit_test(test_group_alive),
        cmocka_unit_test(test_cpu_count),    cmocka_unit_test(test_confine_refuses),
        cmocka_unit_test(test_thread_start), cmocka_unit_test(test_thread_one_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
