/*
 * topo/topo.c — the plan (which worker on which core of which L3 domain),
 * pools built from it, the pool of pools, and binding of the calling thread.
 *
 * DESIGN
 *  - One function, plan_slots, decides where workers go for a domain or the
 *    whole machine; the printed plan (topo_plan_make) and the pools that apply
 *    it (topo_pool_create_domain/_machine, topo_domains_create) share it, so
 *    what `grothmpi topo` prints is what the prover runs.
 *  - Pinning is applied only on this system (hwloc_topology_is_thissystem):
 *    on a synthetic or XML topology hwloc's binding calls succeed silently and
 *    bind nothing, so asking for it is an error (GM_ENOTSUP) rather than a
 *    silent no-op.
 *  - The pool of pools: a leaders pool that owns all its workers (one per
 *    domain, pinned to the domain's first slot) and one pool per domain whose
 *    worker 0 is that leader. A unit goes to whichever leader is free; the
 *    leader calls the unit function with its domain's pool.
 */
#include "topo/topo_internal.h"

#include <hwloc/glibc-sched.h>
#include <stdlib.h>
#include <string.h>

/* Slots of domain d (d >= 0) or of the machine (d < 0), in worker order;
 * returns how many (the caller sizes with plan_count). sets may be NULL. */
static unsigned plan_count(const topo_t *t, int d, topo_pool_flags_t flags)
{
    unsigned first = d < 0 ? 0 : t->domains[d].first_core;
    unsigned n = d < 0 ? t->ncores : t->domains[d].ncores, k = 0;
    for (unsigned c = first; c < first + n; c++)
        k += (flags & TOPO_POOL_SMT) ? t->cores[c].npus : 1;
    return k;
}

static void plan_slots(const topo_t *t, int d, topo_pool_flags_t flags, topo_slot_t *slots,
                       cpu_set_t *sets)
{
    unsigned first = d < 0 ? 0 : t->domains[d].first_core;
    unsigned n = d < 0 ? t->ncores : t->domains[d].ncores, k = 0;
    for (unsigned c = first; c < first + n; c++) {
        const topo_core_t *core = &t->cores[c];
        hwloc_const_bitmap_t cs = t->core_sets[c];
        unsigned nthr = (flags & TOPO_POOL_SMT) ? core->npus : 1;
        int pu = hwloc_bitmap_first(cs);
        for (unsigned i = 0; i < nthr; i++, k++) {
            hwloc_bitmap_t one = hwloc_bitmap_alloc();
            hwloc_const_bitmap_t bind = cs;
            if (flags & TOPO_POOL_PIN_DOMAIN) {
                bind = t->domain_sets[core->domain];
            } else if ((flags & TOPO_POOL_SMT) && one) {
                hwloc_bitmap_only(one, (unsigned)pu);
                bind = one;
            }
            if (slots) {
                topo_slot_t *s = &slots[k];
                s->domain = core->domain;
                s->core = c;
                s->cpu = pu;
                hwloc_bitmap_list_snprintf(s->cpus, sizeof s->cpus, bind);
            }
            if (sets) {
                CPU_ZERO(&sets[k]);
                hwloc_cpuset_to_glibc_sched_affinity(t->h, bind, &sets[k], sizeof sets[k]);
            }
            hwloc_bitmap_free(one);
            pu = hwloc_bitmap_next(cs, pu);
        }
    }
}

void topo_plan_free(topo_plan_t *plan)
{
    if (!plan)
        return;
    free(plan->domain_first);
    free(plan->synth);
    free(plan->msm);
    free(plan->gpu_feeder);
    memset(plan, 0, sizeof *plan);
}

int topo_plan_make(topo_plan_t *plan, const topo_t *t, topo_pool_flags_t flags, err_t *err)
{
    memset(plan, 0, sizeof *plan);
    plan->flags = flags;
    plan->ndomains = t->ndomains;
    plan->nmsm = plan_count(t, -1, flags);
    plan->nsynth = plan->nmsm;
    plan->ngpus = t->ngpus;
    plan->domain_first = calloc(t->ndomains + 1, sizeof *plan->domain_first);
    plan->synth = calloc(plan->nsynth, sizeof *plan->synth);
    plan->msm = calloc(plan->nmsm, sizeof *plan->msm);
    plan->gpu_feeder = calloc(t->ngpus ? t->ngpus : 1, sizeof *plan->gpu_feeder);
    if (!plan->domain_first || !plan->synth || !plan->msm || !plan->gpu_feeder) {
        topo_plan_free(plan);
        return gm_err_set(err, GM_ENOMEM, "topology '%s': plan: out of memory", t->source);
    }
    unsigned k = 0;
    for (unsigned d = 0; d < t->ndomains; d++) {
        plan->domain_first[d] = k;
        plan_slots(t, (int)d, flags, plan->synth + k, NULL);
        k += plan_count(t, (int)d, flags);
    }
    plan->domain_first[t->ndomains] = k;
    plan_slots(t, -1, flags, plan->msm, NULL);
    /* GPU feeder: the last core of the domain nearest the GPU, so that the
     * domain's first core stays with its synthesis leader. */
    for (unsigned g = 0; g < t->ngpus; g++) {
        unsigned d = t->gpus[g].domain;
        unsigned last = plan->domain_first[d + 1] - 1;
        plan->gpu_feeder[g] = plan->synth[last];
    }
    return 0;
}

static int check_pin(const topo_t *t, topo_pool_flags_t flags, const char *what, err_t *err)
{
    if ((flags & (TOPO_POOL_PIN | TOPO_POOL_PIN_DOMAIN)) && !t->thissystem)
        return gm_err_set(err, GM_ENOTSUP,
                          "%s: topology '%s' is not this system: the plan can be printed, not applied",
                          what, t->source);
    return 0;
}

static int pool_for(topo_pool_t **out, const topo_t *t, int d, topo_pool_flags_t flags, err_t *err)
{
    *out = NULL;
    int pin = (flags & (TOPO_POOL_PIN | TOPO_POOL_PIN_DOMAIN)) != 0;
    unsigned n = plan_count(t, d, flags);
    cpu_set_t *sets = NULL;
    if (pin) {
        sets = calloc(n, sizeof *sets);
        if (!sets)
            return gm_err_set(err, GM_ENOMEM, "thread pool: out of memory");
        plan_slots(t, d, flags, NULL, sets);
    }
    int rc = topo_pool_create_sets(out, n, sets, 0, d, err);
    free(sets);
    return rc;
}

int topo_pool_create_domain(topo_pool_t **out, const topo_t *t, unsigned domain,
                            topo_pool_flags_t flags, err_t *err)
{
    GM_ASSERT(out != NULL && domain < t->ndomains);
    *out = NULL;
    int rc = check_pin(t, flags, "domain pool", err);
    return rc ? rc : pool_for(out, t, (int)domain, flags, err);
}

int topo_pool_create_machine(topo_pool_t **out, const topo_t *t, topo_pool_flags_t flags,
                             err_t *err)
{
    GM_ASSERT(out != NULL);
    *out = NULL;
    int rc = check_pin(t, flags, "machine pool", err);
    return rc ? rc : pool_for(out, t, -1, flags, err);
}

int topo_bind_self(const topo_t *t, const topo_slot_t *slot, err_t *err)
{
    int rc = check_pin(t, TOPO_POOL_PIN, "binding", err);
    if (rc)
        return rc;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return gm_err_set(err, GM_ENOMEM, "binding: out of memory");
    if (hwloc_bitmap_list_sscanf(set, slot->cpus) != 0 ||
        hwloc_set_cpubind(t->h, set, HWLOC_CPUBIND_THREAD) != 0)
        rc = gm_err_set(err, GM_ESYS, "binding the calling thread to CPUs %s failed", slot->cpus);
    hwloc_bitmap_free(set);
    return rc;
}

/* ---- the pool of pools ---------------------------------------------------- */

struct topo_domains {
    unsigned n;
    topo_pool_t *leaders; /* owns all n workers; worker d leads domain d */
    topo_pool_t **pools;  /* n domain pools; worker 0 of pools[d] is leader d */
};

void topo_domains_destroy(topo_domains_t *d)
{
    if (!d)
        return;
    topo_pool_destroy(d->leaders);
    for (unsigned i = 0; d->pools && i < d->n; i++)
        topo_pool_destroy(d->pools[i]);
    free(d->pools);
    free(d);
}

int topo_domains_create(topo_domains_t **out, const topo_t *t, topo_pool_flags_t flags, err_t *err)
{
    GM_ASSERT(out != NULL);
    *out = NULL;
    int rc = check_pin(t, flags, "domain pools", err);
    if (rc)
        return rc;
    int pin = (flags & (TOPO_POOL_PIN | TOPO_POOL_PIN_DOMAIN)) != 0;
    topo_domains_t *d = calloc(1, sizeof *d);
    cpu_set_t *lsets = pin ? calloc(t->ndomains, sizeof *lsets) : NULL;
    if (!d || (pin && !lsets)) {
        free(d);
        return gm_err_set(err, GM_ENOMEM, "domain pools: out of memory");
    }
    d->n = t->ndomains;
    d->pools = calloc(d->n, sizeof *d->pools);
    if (!d->pools) {
        rc = gm_err_set(err, GM_ENOMEM, "domain pools: out of memory");
        goto fail;
    }
    for (unsigned i = 0; i < d->n; i++) {
        if ((rc = pool_for(&d->pools[i], t, (int)i, flags, err)) != 0)
            goto fail;
        if (pin) {
            unsigned n = plan_count(t, (int)i, flags);
            cpu_set_t *sets = calloc(n, sizeof *sets);
            if (!sets) {
                rc = gm_err_set(err, GM_ENOMEM, "domain pools: out of memory");
                goto fail;
            }
            plan_slots(t, (int)i, flags, NULL, sets);
            lsets[i] = sets[0];
            free(sets);
        }
    }
    if ((rc = topo_pool_create_sets(&d->leaders, d->n, lsets, 1, -1, err)) != 0)
        goto fail;
    pid_t *tids = calloc(d->n, sizeof *tids);
    if (!tids) {
        rc = gm_err_set(err, GM_ENOMEM, "domain pools: out of memory");
        goto fail;
    }
    topo_pool_tids(d->leaders, tids);
    for (unsigned i = 0; i < d->n; i++)
        topo_pool_set_tid0(d->pools[i], tids[i]);
    free(tids);
    free(lsets);
    *out = d;
    return 0;
fail:
    free(lsets);
    topo_domains_destroy(d);
    return rc;
}

typedef struct {
    topo_domains_t *d;
    topo_unit_fn fn;
    void *arg;
} domains_job_t;

static void domains_leader(void *arg, size_t unit, unsigned w)
{
    domains_job_t *job = arg;
    job->fn(job->arg, unit, w, job->d->pools[w]);
}

void topo_domains_run(topo_domains_t *d, size_t nunits, topo_unit_fn fn, void *arg)
{
    if (!d) {
        for (size_t u = 0; u < nunits; u++)
            fn(arg, u, 0, NULL);
        return;
    }
    domains_job_t job = {d, fn, arg};
    topo_pool_run(d->leaders, nunits, domains_leader, &job);
}

unsigned topo_domains_count(const topo_domains_t *d) { return d ? d->n : 1; }

topo_pool_t *topo_domains_pool(topo_domains_t *d, unsigned i)
{
    if (!d)
        return NULL;
    GM_ASSERT(i < d->n);
    return d->pools[i];
}

const topo_pool_t *topo_domains_leaders(const topo_domains_t *d) { return d->leaders; }

const topo_pool_t *topo_domains_pool_const(const topo_domains_t *d, unsigned i)
{
    GM_ASSERT(i < d->n);
    return d->pools[i];
}
