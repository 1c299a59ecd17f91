/*
 * topo/topo_pool.c — the thread pools: the only place in grothmpi that calls
 * pthread_create.
 *
 * DESIGN
 *  - A pool is n workers. Normally worker 0 is whoever calls topo_pool_run and
 *    workers 1..n-1 are threads started here; with own_all (the pool of pools'
 *    leaders) all n are threads started here and the caller only waits.
 *  - One job at a time: topo_pool_run publishes (fn, arg, ntasks), bumps the
 *    generation under the mutex and broadcasts; each worker takes task indices
 *    from one atomic counter (dynamic hand-out, increasing order) until they
 *    run out, then reports done. The last worker to finish wakes the caller.
 *  - Workers sleep on a condition variable between jobs; no spinning, which
 *    matters on small shared machines (the CI VM has 2 vCPUs).
 *  - Pinning is decided by the caller (topo.c, from the hwloc plan): a worker
 *    with a CPU set is started with that affinity (pthread_attr_setaffinity_np),
 *    so it never runs outside it, not even for its first instruction.
 *  - Thread ids (gettid) are recorded at start, for per-thread counters.
 */
#include "topo/topo_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    topo_pool_t *pool;
    unsigned index;
} worker_arg_t;

struct topo_pool {
    unsigned n;        /* workers, >= 1 */
    unsigned nthreads; /* threads started: n - 1, or n with own_all */
    bool own_all;
    int domain;
    pthread_t *threads;    /* nthreads entries */
    worker_arg_t *wargs;   /* nthreads entries */
    pid_t *tids;           /* n entries */

    pthread_mutex_t mu;
    pthread_cond_t start_cv; /* workers wait here for a new generation */
    pthread_cond_t done_cv;  /* the caller waits here for active == 0 */
    unsigned long gen;       /* bumped per job (under mu) */
    unsigned active;         /* threads still in the current job (under mu) */
    unsigned started;        /* threads that recorded their tid (under mu) */
    bool stop;               /* (under mu) */

    topo_task_fn fn;  /* the current job, written under mu before gen++ */
    void *arg;
    size_t ntasks;
    _Alignas(64) atomic_size_t next; /* next task index to hand out */
    _Alignas(64) atomic_int running; /* guards against reentrant runs */
};

/* Takes tasks until none is left. */
static void pool_drain(topo_pool_t *p, topo_task_fn fn, void *arg, size_t ntasks, unsigned w)
{
    for (;;) {
        size_t t = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (t >= ntasks)
            return;
        fn(arg, t, w);
    }
}

static void *pool_worker(void *varg)
{
    worker_arg_t *wa = varg;
    topo_pool_t *p = wa->pool;
    unsigned w = wa->index;
    unsigned long seen;

    pthread_mutex_lock(&p->mu);
    p->tids[w] = (pid_t)gettid();
    p->started++;
    pthread_cond_broadcast(&p->done_cv);
    seen = p->gen;
    for (;;) {
        while (p->gen == seen && !p->stop)
            pthread_cond_wait(&p->start_cv, &p->mu);
        if (p->stop)
            break;
        seen = p->gen;
        topo_task_fn fn = p->fn;
        void *arg = p->arg;
        size_t ntasks = p->ntasks;
        pthread_mutex_unlock(&p->mu);

        pool_drain(p, fn, arg, ntasks, w);

        pthread_mutex_lock(&p->mu);
        if (--p->active == 0)
            pthread_cond_signal(&p->done_cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Stops and joins the first `started` threads, frees everything. */
static void pool_free(topo_pool_t *p, unsigned started)
{
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->start_cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < started; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->start_cv);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->mu);
    gm_free(p->threads);
    gm_free(p->wargs);
    gm_free(p->tids);
    gm_free(p);
}

int topo_pool_create_sets(topo_pool_t **out, unsigned n, const cpu_set_t *sets,
                          int own_all, int domain, err_t *err)
{
    GM_ASSERT(out != NULL && n >= 1);
    *out = NULL;
    topo_pool_t *p = gm_calloc(1, sizeof *p);
    if (!p)
        return gm_err_set(err, GM_ENOMEM, "thread pool: out of memory");
    p->n = n;
    p->own_all = own_all != 0;
    p->nthreads = p->own_all ? n : n - 1;
    p->domain = domain;
    p->threads = gm_calloc(p->nthreads ? p->nthreads : 1, sizeof *p->threads);
    p->wargs = gm_calloc(p->nthreads ? p->nthreads : 1, sizeof *p->wargs);
    p->tids = gm_calloc(n, sizeof *p->tids);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->start_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    atomic_init(&p->next, 0);
    atomic_init(&p->running, 0);
    if (!p->threads || !p->wargs || !p->tids) {
        pool_free(p, 0);
        return gm_err_set(err, GM_ENOMEM, "thread pool: out of memory for %u workers", n);
    }
    if (!p->own_all)
        p->tids[0] = (pid_t)gettid();

    unsigned first = p->own_all ? 0 : 1;
    for (unsigned i = 0; i < p->nthreads; i++) {
        unsigned w = first + i;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        int rc = 0;
        if (sets)
            rc = pthread_attr_setaffinity_np(&attr, sizeof(cpu_set_t), &sets[w]);
        p->wargs[i].pool = p;
        p->wargs[i].index = w;
        if (rc == 0)
            rc = pthread_create(&p->threads[i], &attr, pool_worker, &p->wargs[i]);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            pool_free(p, i);
            return gm_err_set(err, GM_ESYS, "thread pool: starting worker %u of %u%s: %s", w, n,
                              sets ? " (pinned)" : "", strerror(rc));
        }
    }
    /* Wait until every thread has recorded its id, so topo_pool_tids is
     * complete when create returns. */
    pthread_mutex_lock(&p->mu);
    while (p->started < p->nthreads)
        pthread_cond_wait(&p->done_cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    *out = p;
    return 0;
}

int topo_pool_create_flat(topo_pool_t **out, unsigned nthreads, err_t *err)
{
    if (out)
        *out = NULL;
    GM_ASSERT(out != NULL);
    if (nthreads == 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = ncpu > 0 ? (unsigned)ncpu : 1;
    }
    return topo_pool_create_sets(out, nthreads, NULL, 0, -1, err);
}

void topo_pool_run(topo_pool_t *pool, size_t ntasks, topo_task_fn fn, void *arg)
{
    GM_ASSERT(fn != NULL || ntasks == 0);
    if (ntasks == 0)
        return;
    if (!pool || (pool->nthreads == 0)) {
        for (size_t t = 0; t < ntasks; t++)
            fn(arg, t, 0);
        return;
    }
    int was = atomic_exchange(&pool->running, 1);
    GM_ASSERT(was == 0 && "topo_pool_run is not reentrant on one pool");

    pthread_mutex_lock(&pool->mu);
    pool->fn = fn;
    pool->arg = arg;
    pool->ntasks = ntasks;
    atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
    pool->active = pool->nthreads;
    pool->gen++;
    pthread_cond_broadcast(&pool->start_cv);
    pthread_mutex_unlock(&pool->mu);

    if (!pool->own_all)
        pool_drain(pool, fn, arg, ntasks, 0);

    pthread_mutex_lock(&pool->mu);
    while (pool->active > 0)
        pthread_cond_wait(&pool->done_cv, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    atomic_store(&pool->running, 0);
}

unsigned topo_pool_size(const topo_pool_t *pool)
{
    return pool ? pool->n : 1;
}

uint64_t topo_pool_cpu_ns(const topo_pool_t *pool)
{
    if (!pool)
        return 0;
    uint64_t sum = 0;
    for (unsigned i = 0; i < pool->nthreads; i++) {
        clockid_t id;
        struct timespec ts;
        if (pthread_getcpuclockid(pool->threads[i], &id) == 0 && clock_gettime(id, &ts) == 0)
            sum += (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    }
    return sum;
}

void topo_pool_destroy(topo_pool_t *pool)
{
    if (pool)
        pool_free(pool, pool->nthreads);
}

void topo_pool_tids(const topo_pool_t *pool, pid_t *tids)
{
    if (!pool) {
        tids[0] = (pid_t)gettid();
        return;
    }
    memcpy(tids, pool->tids, pool->n * sizeof *tids);
}

int topo_pool_domain(const topo_pool_t *pool)
{
    return pool ? pool->domain : -1;
}

void topo_pool_set_tid0(topo_pool_t *pool, pid_t tid)
{
    pool->tids[0] = tid;
}
