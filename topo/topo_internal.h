/*
 * topo/topo_internal.h — declarations shared by the files of topo/ only
 * (topo.c, topo_hwloc.c, topo_pool.c, topo_pmu.c). No other folder includes it.
 */
#ifndef GM_TOPO_INTERNAL_H
#define GM_TOPO_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <hwloc.h>
#include <sched.h>
#include <sys/types.h>

#include "topo/topo.h"

/* A loaded topology (topo_hwloc.c fills it, topo.c plans on it). */
struct topo {
    hwloc_topology_t h;
    int thissystem;
    char *source;
    unsigned npackages, nnuma, ndomains, ncores, npus, ngpus;
    topo_domain_t *domains;      /* ndomains */
    hwloc_bitmap_t *domain_sets; /* ndomains */
    topo_core_t *cores;          /* ncores, domain-major */
    hwloc_bitmap_t *core_sets;   /* ncores */
    topo_gpu_t *gpus;            /* ngpus */
};

/* Creates a pool of n workers. sets: NULL (no pinning) or n CPU sets, one per
 * worker; sets[0] is applied only when own_all is set (worker 0 is a pool
 * thread). own_all: every worker, 0 included, is a thread of the pool and the
 * caller of topo_pool_run only waits (the pool of pools' leaders). domain: the
 * L3 domain recorded for the workers (-1: machine-wide). Returns 0, GM_ENOMEM,
 * GM_ESYS (pthread_create or the affinity failed; err names the worker). */
int topo_pool_create_sets(topo_pool_t **out, unsigned n, const cpu_set_t *sets,
                          int own_all, int domain, err_t *err)
    __attribute__((warn_unused_result));

/* The kernel thread id of each worker (tids[w] for w in [0, size)). Worker 0
 * of a pool that does not own it reads as the thread that created the pool,
 * or the one set by topo_pool_set_tid0. */
void topo_pool_tids(const topo_pool_t *pool, pid_t *tids);
void topo_pool_set_tid0(topo_pool_t *pool, pid_t tid);

/* The leaders' pool and the domain pools of a pool of pools (topo.c). */
const topo_pool_t *topo_domains_leaders(const topo_domains_t *d);
const topo_pool_t *topo_domains_pool_const(const topo_domains_t *d, unsigned i);

#endif
