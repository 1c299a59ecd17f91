/*
 * topo/topo.h — topology (hwloc), L3-domain thread pools and pinning, and
 * hardware counters (libpfm4 + perf_event_open). The only folder that creates
 * threads or includes hwloc or libpfm4.
 *
 * (The topology and counter sections are being written; the pool API below
 * is fixed and used by ec/, synth/ and mpi/.)
 */
#ifndef GM_TOPO_H
#define GM_TOPO_H

#include <stddef.h>

#include "base/base.h"

/* ---- thread pools -------------------------------------------------------------- */

/* A fixed set of worker threads. The calling thread of topo_pool_run takes
 * part as worker 0, so a pool of n workers starts n - 1 threads. */
typedef struct topo_pool topo_pool_t;

/* One task of a parallel loop: task in [0, ntasks), worker in [0, pool size),
 * unique among the workers running at the same moment (use it to index
 * per-worker scratch). */
typedef void (*topo_task_fn)(void *arg, size_t task, unsigned worker);

/* Creates a machine-wide pool of nthreads workers (0: one per online CPU),
 * not pinned. Returns 0, GM_ENOMEM or GM_ESYS (pthread_create failed; err
 * says why). *out is NULL on failure. */
int topo_pool_create_flat(topo_pool_t **out, unsigned nthreads, err_t *err)
    __attribute__((warn_unused_result));

/* Runs fn(arg, t, w) for every t in [0, ntasks) on the pool's workers, tasks
 * handed out dynamically in increasing order, and returns when all are done.
 * ntasks may be 0. Not reentrant: a task must not call topo_pool_run on the
 * same pool. pool may be NULL: then everything runs on the caller as worker 0. */
void topo_pool_run(topo_pool_t *pool, size_t ntasks, topo_task_fn fn, void *arg);

/* Number of workers (>= 1; 1 for a NULL pool). */
unsigned topo_pool_size(const topo_pool_t *pool);

/* Stops and joins the workers; NULL is allowed. */
void topo_pool_destroy(topo_pool_t *pool);

#endif /* GM_TOPO_H */
