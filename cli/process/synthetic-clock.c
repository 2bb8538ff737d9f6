/* A synthetic clock for a runtime counted under valgrind (--measure instructions): preloaded
 * (LD_PRELOAD) into the runtime's process, every clock read advances the clock by a fixed step, and
 * a wait for the next timer jumps the clock to it instead of sleeping. Why: V8 and Node pace work
 * by the clock (the heap's growing factor from GC and mutator speed, incremental marking's step
 * budgets, delayed platform tasks, timers), and under valgrind the clock runs 20-100 times slower
 * than the code and unevenly, so the same program collected garbage a different number of times in
 * each process: gc/young-gen-churn on Node 16.20.2 counted 10.73-11.54 G instructions in three
 * runs (54-65 scavenges); with this clock, 10,587.79-10,588.02 M (62 scavenges in each; measured
 * 2026-11-28). With the clock a function of the work done, so is everything paced by it.
 *
 * Built by cli/process/synthetic-clock.js with the host's C compiler. Active only in the process
 * whose executable is NODEBENCH_CLOCK_FOR (setarch and valgrind's launcher, which run in front of
 * the runtime, load it too and leave it off), with NODEBENCH_CLOCK_STEP_NS nanoseconds per read;
 * the runtime removes both variables from its environment, so its children keep the real clock. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Monotonic time starts at 1,000 s; wall-clock time at 2023-11-14 (the offset below). */
static uint64_t now_ns = 1000000000000ull;
static const uint64_t REALTIME_OFFSET_NS = 1700000000000000000ull;
static uint64_t step_ns = 0; /* 0: off, every call goes to the real function */

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static int (*real_gettimeofday)(struct timeval *restrict, void *restrict);
static int (*real_epoll_wait)(int, struct epoll_event *, int, int);
static int (*real_epoll_pwait)(int, struct epoll_event *, int, int, const sigset_t *);
static long (*real_syscall)(long, ...);

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }
/* Another library's constructor may read the clock before this one's has run. */
#define RESOLVE(name) \
  if (!real_##name) real_##name = next(#name)

__attribute__((constructor)) static void init(void) {
  const char *step = getenv("NODEBENCH_CLOCK_STEP_NS");
  const char *target = getenv("NODEBENCH_CLOCK_FOR");
  if (!step || !target) return;
  char exe[PATH_MAX], want[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0 || !realpath(target, want)) return;
  exe[n] = 0;
  if (strcmp(exe, want) != 0) return;
  step_ns = strtoull(step, 0, 10);
  unsetenv("NODEBENCH_CLOCK_STEP_NS");
  unsetenv("NODEBENCH_CLOCK_FOR");
}

static uint64_t advance(uint64_t ns) { return __atomic_add_fetch(&now_ns, ns, __ATOMIC_SEQ_CST); }

int clock_gettime(clockid_t clock, struct timespec *ts) {
  RESOLVE(clock_gettime);
  /* Negative ids name another thread's or process's CPU clock: left real. */
  if (!step_ns || clock < 0) return real_clock_gettime(clock, ts);
  uint64_t ns = advance(step_ns);
  if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) ns += REALTIME_OFFSET_NS;
  ts->tv_sec = ns / 1000000000ull;
  ts->tv_nsec = ns % 1000000000ull;
  return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  RESOLVE(gettimeofday);
  if (!step_ns) return real_gettimeofday(tv, tz);
  uint64_t ns = advance(step_ns) + REALTIME_OFFSET_NS;
  tv->tv_sec = ns / 1000000000ull;
  tv->tv_usec = (ns % 1000000000ull) / 1000;
  return 0;
}

/* A wait with a time limit (the event loop waiting for its next timer): what is ready now is
 * returned at once; if nothing is, the clock jumps by the limit and the wait ends as timed out,
 * the way it would have after sleeping. A wait without a limit blocks for real. */
#define TIMED_WAIT(call_now, call_blocking, timeout) \
  do { \
    if (!step_ns || (timeout) == 0) return call_blocking; \
    long ready = call_now; \
    if (ready != 0) return ready; \
    if ((timeout) < 0) return call_blocking; \
    advance((uint64_t)(timeout) * 1000000ull); \
    return 0; \
  } while (0)

int epoll_wait(int fd, struct epoll_event *events, int max, int timeout) {
  RESOLVE(epoll_wait);
  TIMED_WAIT(real_epoll_wait(fd, events, max, 0), real_epoll_wait(fd, events, max, timeout), timeout);
}

int epoll_pwait(int fd, struct epoll_event *events, int max, int timeout, const sigset_t *mask) {
  RESOLVE(epoll_pwait);
  TIMED_WAIT(real_epoll_pwait(fd, events, max, 0, mask), real_epoll_pwait(fd, events, max, timeout, mask), timeout);
}

/* Node 4 and 6 (libuv before 1.x's libc wrappers) call epoll through syscall(2). */
long syscall(long number, ...) {
  RESOLVE(syscall);
  va_list args;
  va_start(args, number);
  long a = va_arg(args, long), b = va_arg(args, long), c = va_arg(args, long);
  long d = va_arg(args, long), e = va_arg(args, long), f = va_arg(args, long);
  va_end(args);
  int waits = 0;
#ifdef SYS_epoll_wait
  waits = waits || number == SYS_epoll_wait;
#endif
#ifdef SYS_epoll_pwait
  waits = waits || number == SYS_epoll_pwait;
#endif
  if (waits) TIMED_WAIT(real_syscall(number, a, b, c, 0L, e, f), real_syscall(number, a, b, c, d, e, f), (int)d);
  return real_syscall(number, a, b, c, d, e, f);
}
