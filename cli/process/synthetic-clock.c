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
 * the runtime removes both variables from its environment, so its children keep the real clock.
 *
 * Threads: work the runtime hands to another thread (libuv's pool: zlib, fs, crypto; V8's worker
 * tasks) takes no time on this clock, and the event loop sees it finished. Every poll of the loop
 * first waits until the process's other threads are idle (in a condition-variable, semaphore or
 * untimed epoll wait), then takes what is ready. Why: under valgrind the threads run one at a time
 * in an order the host's timing picks, so whether a poll saw a pool thread's result, and how often
 * a timer polled for it meanwhile, differed between processes: bfj, whose full buffer polls with
 * timers while zlib deflates in the pool, counted 8-17% apart (2026-11-28). A thread blocked
 * elsewhere (a pool thread reading a pipe or resolving a name) cannot be told from a working one:
 * a poll gives up on it once nothing in the process has run for STALL_CAP_MS, then goes on as
 * before; at exit the process writes how many polls gave up so into the file NODEBENCH_CLOCK_REPORT
 * names, which the runner puts in the process record (what repeats no longer, and why). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
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
static int (*real_pthread_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
static int (*real_pthread_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
static int (*real_pthread_cond_signal)(pthread_cond_t *);
static int (*real_pthread_cond_broadcast)(pthread_cond_t *);
static int (*real_sem_wait)(sem_t *);
static int (*real_pthread_join)(pthread_t, void **);

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }
/* Another library's constructor may read the clock before this one's has run. */
#define RESOLVE(name) \
  if (!real_##name) real_##name = next(#name)

static char report_path[PATH_MAX];
static long polls_given_up = 0;
static long other_thread_reads = 0;
static long waits_for_main_given_up = 0;

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
  const char *report = getenv("NODEBENCH_CLOCK_REPORT");
  if (report && strlen(report) < sizeof report_path) strcpy(report_path, report);
  unsetenv("NODEBENCH_CLOCK_STEP_NS");
  unsetenv("NODEBENCH_CLOCK_FOR");
  unsetenv("NODEBENCH_CLOCK_REPORT");
}

__attribute__((destructor)) static void write_report(void) {
  if (!step_ns || !report_path[0]) return;
  int fd = open(report_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return;
  char line[192];
  int n = snprintf(line, sizeof line, "{\"pollsGivenUp\":%ld,\"otherThreadClockReads\":%ld,\"waitsForMainGivenUp\":%ld}\n", __atomic_load_n(&polls_given_up, __ATOMIC_SEQ_CST), __atomic_load_n(&other_thread_reads, __ATOMIC_SEQ_CST), __atomic_load_n(&waits_for_main_given_up, __ATOMIC_SEQ_CST));
  if (write(fd, line, (size_t)n) < 0) { /* nothing to do: the record then says it is not known */ }
  close(fd);
}

static uint64_t advance(uint64_t ns) { return __atomic_add_fetch(&now_ns, ns, __ATOMIC_SEQ_CST); }

/* A read advances the clock in the main thread only: another thread reads it when the host's
 * scheduling lets it (the platform's delayed-task runner waking, say), and a step of its own would
 * move the main thread's next reading by that timing. */
static __thread int thread_kind = 0; /* 0 not known yet, 1 main, 2 another */
static int in_main_thread(void) {
  if (!thread_kind) {
    RESOLVE(syscall);
    thread_kind = real_syscall(SYS_gettid) == getpid() ? 1 : 2;
  }
  return thread_kind == 1;
}

static uint64_t read_clock(void) {
  if (in_main_thread()) return advance(step_ns);
  __atomic_add_fetch(&other_thread_reads, 1, __ATOMIC_SEQ_CST);
  return __atomic_load_n(&now_ns, __ATOMIC_SEQ_CST);
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
  RESOLVE(clock_gettime);
  /* Negative ids name another thread's or process's CPU clock: left real. */
  if (!step_ns || clock < 0) return real_clock_gettime(clock, ts);
  uint64_t ns = read_clock();
  if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) ns += REALTIME_OFFSET_NS;
  ts->tv_sec = ns / 1000000000ull;
  ts->tv_nsec = ns % 1000000000ull;
  return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  RESOLVE(gettimeofday);
  if (!step_ns) return real_gettimeofday(tv, tz);
  uint64_t ns = read_clock() + REALTIME_OFFSET_NS;
  tv->tv_sec = ns / 1000000000ull;
  tv->tv_usec = (ns % 1000000000ull) / 1000;
  return 0;
}

/* The threads that are working, other than idle ones: a thread is counted from the first time it
 * waits in one of the waits below (before that it is not known to be one that goes idle, such as a
 * thread blocked in a read for its whole life), leaves the count while it waits, and is counted
 * again by the thread that wakes it, at the signal: a poll right after handing work to the pool
 * must wait for it even before the pool thread has woken. */
static int working = 0;
static __thread int counted = 0;
/* A wait for another thread gives up when nothing in the process has used CPU time for
 * STALL_CAP_MS of real time (the thread waited for is blocked where this library cannot see it, in a
 * read, say), or after WAIT_CAP_MS in any case. Not a fixed cap alone: under valgrind the main
 * thread runs a full collection or a long batch for seconds of real time, and a thread that stopped
 * waiting for it then ran beside it in the host's order again. */
static const long STALL_CAP_MS = 2000;
static const long WAIT_CAP_MS = 60000;

/* Per condition variable: its tracked waiters, and how many of them a signal has already counted
 * as working. A small table; a condition variable it has no room for is left uncounted. */
#define CONDS 64
static struct { void *cond; int waiting, woken; } conds[CONDS];
static pthread_mutex_t conds_lock = PTHREAD_MUTEX_INITIALIZER;

static int cond_slot(void *cond) {
  unsigned start = (unsigned)(((uintptr_t)cond >> 4) % CONDS);
  for (unsigned i = 0; i < CONDS; i++) {
    unsigned slot = (start + i) % CONDS;
    if (conds[slot].cond == cond) return (int)slot;
    if (!conds[slot].cond) { conds[slot].cond = cond; return (int)slot; }
  }
  return -1;
}

static void wake_poller(void) { real_syscall(SYS_futex, &working, FUTEX_WAKE, INT_MAX, 0, 0, 0); }

static void going_idle(void) {
  if (counted) {
    counted = 0;
    __atomic_sub_fetch(&working, 1, __ATOMIC_SEQ_CST);
    wake_poller();
  }
}

/* A thread that ends while counted (a pool or platform thread woken at exit to stop) leaves the
 * count: else the loop's polls during exit waited for it until the cap. */
static pthread_key_t ends_key;
static pthread_once_t ends_once = PTHREAD_ONCE_INIT;
static void thread_ends(void *unused) {
  (void)unused;
  going_idle();
}
static void make_ends_key(void) { pthread_key_create(&ends_key, thread_ends); }

/* signalled: a signal counted this thread already (the wait returned because of it). */
static void back_to_work(int signalled) {
  if (counted) return;
  counted = 1;
  if (!signalled) __atomic_add_fetch(&working, 1, __ATOMIC_SEQ_CST);
  pthread_once(&ends_once, make_ends_key);
  pthread_setspecific(ends_key, (void *)1);
}

static int before_cond_wait(void *cond) {
  pthread_mutex_lock(&conds_lock);
  int slot = cond_slot(cond);
  if (slot >= 0) conds[slot].waiting++;
  going_idle();
  pthread_mutex_unlock(&conds_lock);
  return slot;
}

static void after_cond_wait(int slot, int timed_out) {
  pthread_mutex_lock(&conds_lock);
  int signalled = 0;
  if (slot >= 0) {
    conds[slot].waiting--;
    if (!timed_out && conds[slot].woken > 0) { conds[slot].woken--; signalled = 1; }
    /* more counted as woken than still wait (a waiter left by its time limit) */
    while (conds[slot].woken > conds[slot].waiting) { conds[slot].woken--; __atomic_sub_fetch(&working, 1, __ATOMIC_SEQ_CST); }
  }
  back_to_work(signalled);
  pthread_mutex_unlock(&conds_lock);
}

static void count_woken(void *cond, int all) {
  pthread_mutex_lock(&conds_lock);
  int slot = cond_slot(cond);
  if (slot >= 0) {
    int sleeping = conds[slot].waiting - conds[slot].woken;
    int wake = all ? sleeping : (sleeping > 0);
    conds[slot].woken += wake;
    __atomic_add_fetch(&working, wake, __ATOMIC_SEQ_CST);
  }
  pthread_mutex_unlock(&conds_lock);
}

static uint64_t real_ms(void) {
  struct timespec ts;
  real_clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000ull + (uint64_t)ts.tv_nsec / 1000000ull;
}

/* The process's CPU time (user and system, in clock ticks) from /proc/self/stat; -1 unknown. */
static long process_cpu_ticks(void) {
  char line[1024];
  int fd = open("/proc/self/stat", O_RDONLY);
  if (fd < 0) return -1;
  ssize_t n = read(fd, line, sizeof line - 1);
  close(fd);
  if (n <= 0) return -1;
  line[n] = 0;
  char *field = strrchr(line, ')'); /* the command's name may hold spaces and parentheses */
  if (!field) return -1;
  long ticks = 0;
  /* after the name: state is field 3, utime 14, stime 15 */
  for (int number = 3; number <= 15; number++) {
    field = strchr(field, ' ');
    if (!field) return -1;
    field++;
    if (number >= 14) ticks += strtol(field, 0, 10);
  }
  return ticks;
}

/* A wait blocks on its futex for a slice at a time, and looks at the process's CPU time only when a
 * slice ends: what the waiting costs in counted instructions must not grow with how long the host
 * made it wait (reading /proc every 20 ms in a pool thread waiting for the main thread moved bfj's
 * count by 1.5%, 2026-11-28). */
#define WAIT_SLICE_MS 1000
struct patience { uint64_t start, progressed; long ticks; };

/* Called when a slice of a wait has ended with nothing to show: true when the wait should give up. */
static int out_of_patience(struct patience *p) {
  uint64_t now = real_ms();
  long ticks = process_cpu_ticks();
  if (!p->start) {
    p->start = p->progressed = now - WAIT_SLICE_MS;
    p->ticks = ticks;
    return 0;
  }
  if (ticks != p->ticks) { p->ticks = ticks; p->progressed = now; }
  return now - p->progressed >= (uint64_t)STALL_CAP_MS || now - p->start >= (uint64_t)WAIT_CAP_MS;
}

/* Waits on a futex word while it holds `value`, for one slice; true when the slice ran out. */
static int futex_slice(int *word, int value) {
  struct timespec slice = { WAIT_SLICE_MS / 1000, (WAIT_SLICE_MS % 1000) * 1000000L };
  return real_syscall(SYS_futex, word, FUTEX_WAIT, value, &slice, 0, 0) != 0 && errno == ETIMEDOUT;
}

/* The main thread first: a thread that another woke (a signal, a semaphore, I/O) goes on only once
 * the main thread waits too (in one of the waits here, a poll's wait for the other threads, or a
 * join). Why: valgrind runs one thread at a time, and which of two ready threads it runs was the
 * host's timing, so work that either could take went to one or the other by chance. Node 16's V8
 * posts each scavenge as a job that a platform thread or the main thread, joining it, runs, and
 * the two paths pace the next collections differently: gc/old-gen-marking-async on 16.20.2 counted
 * 0.2-2% apart between processes (2026-11-28). Now the main thread, which joins at once, always
 * takes it. A thread that waited for the main thread in vain (below) goes on as before; the report
 * says how often. */
static int main_waiting = 0;

static void main_thread_waits(int waiting) {
  if (!in_main_thread()) return;
  __atomic_store_n(&main_waiting, waiting, __ATOMIC_SEQ_CST);
  if (waiting) real_syscall(SYS_futex, &main_waiting, FUTEX_WAKE, INT_MAX, 0, 0, 0);
}

static void wait_for_main_thread(void) {
  if (in_main_thread()) return;
  struct patience patience = { 0, 0, 0 };
  while (!__atomic_load_n(&main_waiting, __ATOMIC_SEQ_CST)) {
    if (futex_slice(&main_waiting, 0) && out_of_patience(&patience)) {
      __atomic_add_fetch(&waits_for_main_given_up, 1, __ATOMIC_SEQ_CST);
      return;
    }
  }
}

/* Blocks until every other counted thread is idle, or until it gives up (above). Only the
 * main thread's loop waits: a thread of its own (V8's delayed-task runner, a worker_threads Worker)
 * would otherwise wait for the main thread's JavaScript. */
static void wait_for_other_threads(void) {
  RESOLVE(syscall);
  RESOLVE(clock_gettime);
  if (!in_main_thread()) return;
  struct patience patience = { 0, 0, 0 };
  int waited = 0;
  for (;;) {
    int others = __atomic_load_n(&working, __ATOMIC_SEQ_CST);
    if (others - counted <= 0) break;
    if (!waited) {
      waited = 1;
      main_thread_waits(1);
    }
    if (futex_slice(&working, others) && out_of_patience(&patience)) {
      __atomic_add_fetch(&polls_given_up, 1, __ATOMIC_SEQ_CST);
      break;
    }
  }
  if (waited) main_thread_waits(0);
}

#define RESOLVE_THREADS(name) \
  RESOLVE(name); \
  RESOLVE(syscall); \
  RESOLVE(clock_gettime)

/* The waits below leave errno as the real wait set it: libuv aborts on an epoll error it does not
 * expect, and the wait for the main thread's futex and /proc reads would set their own.
 *
 * A thread other than the main one, woken, waits for the main thread; a condition variable's mutex
 * is let go meanwhile (the caller sees what a spurious wake-up would show), so that the main thread
 * never blocks on it unseen. */
static void after_woken(pthread_mutex_t *mutex) {
  if (in_main_thread() || __atomic_load_n(&main_waiting, __ATOMIC_SEQ_CST)) return;
  if (mutex) pthread_mutex_unlock(mutex);
  wait_for_main_thread();
  if (mutex) pthread_mutex_lock(mutex);
}

/* Around a real condition-variable wait: the waiter's slot (before_cond_wait), and the main thread
 * counted as waiting until the wait returns. */
static int cond_wait_begins(void *cond) {
  int slot = before_cond_wait(cond);
  main_thread_waits(1);
  return slot;
}

static void cond_wait_ends(int slot, int timed_out, pthread_mutex_t *mutex) {
  int wait_errno = errno;
  main_thread_waits(0);
  after_cond_wait(slot, timed_out);
  after_woken(mutex);
  errno = wait_errno;
}

/* Around any other real wait (a semaphore, an untimed poll): the thread out of the working count and
 * the main thread counted as waiting, then the other way round. */
static void idle_wait_begins(void) {
  pthread_mutex_lock(&conds_lock);
  going_idle();
  pthread_mutex_unlock(&conds_lock);
  main_thread_waits(1);
}

static void idle_wait_ends(void) {
  int wait_errno = errno;
  main_thread_waits(0);
  pthread_mutex_lock(&conds_lock);
  back_to_work(0);
  pthread_mutex_unlock(&conds_lock);
  after_woken(0);
  errno = wait_errno;
}

int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
  RESOLVE_THREADS(pthread_cond_wait);
  if (!step_ns) return real_pthread_cond_wait(cond, mutex);
  int slot = cond_wait_begins(cond);
  int result = real_pthread_cond_wait(cond, mutex);
  cond_wait_ends(slot, 0, mutex);
  return result;
}

int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex, const struct timespec *until) {
  RESOLVE_THREADS(pthread_cond_timedwait);
  if (!step_ns) return real_pthread_cond_timedwait(cond, mutex, until);
  int slot = cond_wait_begins(cond);
  int result = real_pthread_cond_timedwait(cond, mutex, until);
  cond_wait_ends(slot, result != 0, mutex);
  return result;
}

int pthread_cond_signal(pthread_cond_t *cond) {
  RESOLVE_THREADS(pthread_cond_signal);
  if (step_ns) count_woken(cond, 0);
  return real_pthread_cond_signal(cond);
}

int pthread_cond_broadcast(pthread_cond_t *cond) {
  RESOLVE_THREADS(pthread_cond_broadcast);
  if (step_ns) count_woken(cond, 1);
  return real_pthread_cond_broadcast(cond);
}

int sem_wait(sem_t *sem) {
  RESOLVE_THREADS(sem_wait);
  if (!step_ns) return real_sem_wait(sem);
  idle_wait_begins();
  int result = real_sem_wait(sem);
  idle_wait_ends();
  return result;
}

/* A join waits for a thread that may be waiting for the main thread (at exit, the platform's threads
 * woken to stop). */
int pthread_join(pthread_t thread, void **value) {
  RESOLVE_THREADS(pthread_join);
  if (!step_ns) return real_pthread_join(thread, value);
  main_thread_waits(1);
  int result = real_pthread_join(thread, value);
  int join_errno = errno;
  main_thread_waits(0);
  errno = join_errno;
  return result;
}

/* A poll of the event loop: once the other threads are idle, what is ready now is returned at once;
 * if nothing is and the wait has a time limit (the next timer), the clock jumps by the limit and
 * the wait ends as timed out, the way it would have after sleeping. A wait without a limit blocks
 * for real, as an idle thread. */
#define TIMED_WAIT(call_now, call_blocking, timeout) \
  do { \
    if (!step_ns) return call_blocking; \
    wait_for_other_threads(); \
    long ready = call_now; \
    if (ready != 0 || (timeout) == 0) return ready; \
    if ((timeout) < 0) { \
      idle_wait_begins(); \
      /* an interrupted wait (vgdb reaching the process through ptrace, say) is waited again \
       * here: the loop would have, one iteration and one clock read later */ \
      do ready = call_blocking; while (ready < 0 && errno == EINTR); \
      idle_wait_ends(); \
      return ready; \
    } \
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
