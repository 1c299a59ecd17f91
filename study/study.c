/*
 * study/study.c — the study file, its points, the plan of each point, and
 * the run loop.
 *
 * DESIGN
 *  - The base campaign is validated once by jobs/ and kept as its normalized
 *    JSON (absolute paths); each run is that JSON with the point's values,
 *    its own output directory and no progress lines, written by rank 0 to
 *    DIR/runs/pNNN-rR.json and run by the caller's runner (in process:
 *    mpi_campaign_run; for the ranks axis: an mpirun job the cli starts).
 *    So every point runs exactly the code a campaign runs.
 *  - A run's output directory is emptied first: a leftover journal would
 *    make the campaign resume, prove nothing and report no throughput.
 *  - The numbers come back from the run's report.json (the stable, documented
 *    format), so a study can be rebuilt from the runs' reports.
 *  - Points vary in axis order (study_axis_t), the last axis fastest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/mpi.h"
#include "study/study_internal.h"
/* after ff/ff.h (via jobs/): <math.h> defines FP_ZERO_ELEM, which ff/ff.h declares */
#include <math.h>

const char *const study_axis_names[STUDY_NAXES] = {"ranks",      "domains",    "threads",       "pin",
                                                   "batch_size", "mem_budget", "pipeline_depth"};
const mpi_event_t study_events[STUDY_NEV] = {
    MPI_EVENT_INSTRUCTIONS, MPI_EVENT_CYCLES,   MPI_EVENT_BRANCHES,    MPI_EVENT_BRANCH_MISSES, MPI_EVENT_L1D_MISSES,
    MPI_EVENT_FILL_L2,      MPI_EVENT_FILL_CCX, MPI_EVENT_FILL_REMOTE, MPI_EVENT_FILL_DRAM,
};

/* ---- loading ------------------------------------------------------------------------ */

static void resolve(char *out, size_t n, const char *dir, const char *p)
{
    int k = p[0] == '/' || !dir[0] ? snprintf(out, n, "%s", p) : snprintf(out, n, "%s/%s", dir, p);
    if (k < 0 || (size_t)k >= n)
        out[0] = 0; /* too long: an empty path, which the next open names as missing */
}

static int parse_axis(study_t *s, study_axis_t a, json_t *arr, err_t *err)
{
    const char *f = s->file, *key = study_axis_names[a];
    if (!json_is_array(arr) || json_array_size(arr) == 0 || json_array_size(arr) > STUDY_MAX_VALUES)
        return gm_err_set(err, GM_EINVAL, "%s: axes.%s: not an array of 1..%d values", f, key, STUDY_MAX_VALUES);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v)
    {
        uint64_t x = 0;
        if (a == STUDY_AXIS_PIN) {
            if (!json_is_boolean(v))
                return gm_err_set(err, GM_EINVAL, "%s: axes.pin[%zu]: not true or false", f, i);
            x = json_is_true(v);
        } else if (a == STUDY_AXIS_MEM_BUDGET) {
            char what[JOBS_PATH_LEN + 64];
            snprintf(what, sizeof what, "%s: axes.mem_budget[%zu]", f, i);
            if (json_is_integer(v) && json_integer_value(v) > 0)
                x = (uint64_t)json_integer_value(v);
            else if (json_is_string(v)) {
                int rc = jobs_size_parse(&x, json_string_value(v), what, err);
                if (rc)
                    return rc;
            } else
                return gm_err_set(err, GM_EINVAL, "%s: not a byte count or a size such as \"4GiB\"", what);
        } else {
            bool batchlike = a == STUDY_AXIS_BATCH || a == STUDY_AXIS_DEPTH;
            long long lim = batchlike ? JOBS_MAX_BATCH : a == STUDY_AXIS_RANKS ? 1024 : 4096;
            long long lo = a == STUDY_AXIS_DEPTH ? 0 : 1; /* depth 0: no overlap, the baseline */
            if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > lim) {
                char *t = json_dumps(v, JSON_ENCODE_ANY);
                gm_err_set(err, GM_EINVAL, "%s: axes.%s[%zu]: %s is not an integer in %lld..%lld", f, key, i,
                           t ? t : "?", lo, lim);
                free(t);
                return GM_EINVAL;
            }
            x = (uint64_t)json_integer_value(v);
        }
        for (unsigned j = 0; j < s->nvals[a]; j++)
            if (s->vals[a][j] == x)
                return gm_err_set(err, GM_EINVAL, "%s: axes.%s[%zu]: repeats an earlier value", f, key, i);
        s->vals[a][s->nvals[a]++] = x;
    }
    return 0;
}

int study_load(study_t **out, const char *path, err_t *err)
{
    *out = NULL;
    json_error_t je;
    json_t *root = NULL;
    char *text = NULL;
    int rc = 0;
    study_t *s = calloc(1, sizeof *s);
    if (!s)
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    snprintf(s->file, sizeof s->file, "%s", path);
    if (access(path, R_OK) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: %s", path, strerror(errno));
        goto fail;
    }
    root = json_load_file(path, 0, &je);
    if (!root) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: line %d column %d: %s", path, je.line, je.column, je.text);
        goto fail;
    }
    if (!json_is_object(root)) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: not a JSON object", path);
        goto fail;
    }
    char dir[JOBS_PATH_LEN], tmp[JOBS_PATH_LEN];
    snprintf(tmp, sizeof tmp, "%s", path);
    char *d = dirname(tmp);
    if (!realpath(d, dir))
        snprintf(dir, sizeof dir, "%s", d);
    static const char *const keys[] = {"name", "campaign", "axes", "repetitions", "output", "topology"};
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v)
    {
        bool ok = false;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            ok |= strcmp(k, keys[i]) == 0;
        if (!ok) {
            rc = gm_err_set(err, GM_EINVAL,
                            "%s: %s: unknown key (known: name, campaign, axes, repetitions, output, topology)", path, k);
            goto fail;
        }
    }
    snprintf(s->name, sizeof s->name, "study");
    if ((v = json_object_get(root, "name"))) {
        const char *n = json_is_string(v) ? json_string_value(v) : "";
        size_t len = strlen(n);
        bool good = len >= 1 && len < JOBS_ID_LEN;
        for (size_t i = 0; good && i < len; i++)
            good = (n[i] >= 'a' && n[i] <= 'z') || (n[i] >= 'A' && n[i] <= 'Z') || (n[i] >= '0' && n[i] <= '9') ||
                   n[i] == '.' || n[i] == '_' || n[i] == '-';
        if (!good) {
            rc = gm_err_set(err, GM_EINVAL, "%s: name: '%s' is not 1..63 of [A-Za-z0-9._-]", path, n);
            goto fail;
        }
        snprintf(s->name, sizeof s->name, "%s", n);
    }
    s->nreps = 3;
    if ((v = json_object_get(root, "repetitions"))) {
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > STUDY_MAX_REPS) {
            rc = gm_err_set(err, GM_EINVAL, "%s: repetitions: not an integer in 1..%d", path, STUDY_MAX_REPS);
            goto fail;
        }
        s->nreps = (unsigned)json_integer_value(v);
    }
    v = json_object_get(root, "output");
    if (!json_is_string(v) || !json_string_value(v)[0]) {
        rc = gm_err_set(err, GM_EINVAL, "%s: output: missing (a directory for the study's files)", path);
        goto fail;
    }
    resolve(s->output, sizeof s->output, dir, json_string_value(v));
    snprintf(s->topo_spec, sizeof s->topo_spec, "this");
    if ((v = json_object_get(root, "topology"))) {
        if (!json_is_string(v)) {
            rc = gm_err_set(err, GM_EINVAL, "%s: topology: not a string (this, synthetic:..., xml:FILE)", path);
            goto fail;
        }
        const char *t = json_string_value(v);
        if (strncmp(t, "xml:", 4) == 0 && t[4] != '/') {
            char p2[JOBS_PATH_LEN];
            resolve(p2, sizeof p2, dir, t + 4);
            snprintf(s->topo_spec, sizeof s->topo_spec, "xml:%s", p2);
        } else
            snprintf(s->topo_spec, sizeof s->topo_spec, "%s", t[0] ? t : "this");
    }
    if ((rc = topo_load(&s->topo, s->topo_spec, err)))
        goto fail;
    s->plan_only = !topo_is_this_system(s->topo);
    /* the base campaign */
    v = json_object_get(root, "campaign");
    if (json_is_string(v)) {
        char cp[JOBS_PATH_LEN];
        resolve(cp, sizeof cp, dir, json_string_value(v));
        rc = jobs_campaign_load(&s->base, cp, JOBS_PARSE_DEFAULT, err);
    } else if (json_is_object(v)) {
        char *ct = json_dumps(v, 0);
        char what[JOBS_PATH_LEN + 16];
        snprintf(what, sizeof what, "%s: campaign", path);
        rc = ct ? jobs_campaign_parse(&s->base, ct, what, dir, JOBS_PARSE_DEFAULT, err)
                : gm_err_set(err, GM_ENOMEM, "study: out of memory");
        free(ct);
    } else
        rc = gm_err_set(err, GM_EINVAL, "%s: campaign: missing (a campaign file name or a campaign object)", path);
    if (rc)
        goto fail;
    if (!(text = jobs_campaign_to_text(&s->base)) || !(s->base_json = json_loads(text, 0, NULL))) {
        rc = gm_err_set(err, GM_ENOMEM, "study: out of memory");
        goto fail;
    }
    if (!s->plan_only && strcmp(s->base.topology, "this") != 0 &&
        (rc = topo_load(&s->run_topo, s->base.topology, err))) {
        err_t e2 = *err;
        rc = gm_err_set(err, rc, "%s: campaign: resources.topology: %s", path, e2.msg);
        goto fail;
    }
    /* axes */
    if ((v = json_object_get(root, "axes"))) {
        if (!json_is_object(v)) {
            rc = gm_err_set(err, GM_EINVAL, "%s: axes: not an object", path);
            goto fail;
        }
        const char *ak;
        json_t *av;
        json_object_foreach(v, ak, av)
        {
            int a = -1;
            for (int i = 0; i < STUDY_NAXES; i++)
                if (strcmp(ak, study_axis_names[i]) == 0)
                    a = i;
            if (a < 0) {
                rc = gm_err_set(err, GM_EINVAL,
                                "%s: axes.%s: unknown axis (known: ranks, domains, threads, pin, batch_size, "
                                "mem_budget, pipeline_depth)",
                                path, ak);
                goto fail;
            }
            if ((rc = parse_axis(s, (study_axis_t)a, av, err)))
                goto fail;
        }
    }
    const topo_t *dt = s->run_topo ? s->run_topo : s->topo;
    for (unsigned j = 0; j < s->nvals[STUDY_AXIS_DOMAINS]; j++)
        if (s->vals[STUDY_AXIS_DOMAINS][j] > topo_l3_count(dt)) {
            rc = gm_err_set(err, GM_EINVAL, "%s: axes.domains[%u]: %llu is more than the %u L3 domains of %s%s", path,
                            j, (unsigned long long)s->vals[STUDY_AXIS_DOMAINS][j], topo_l3_count(dt),
                            topo_source(dt), s->run_topo ? " (the campaign's resources.topology)" : "");
            goto fail;
        }
    s->npoints = 1;
    for (int a = 0; a < STUDY_NAXES; a++)
        if (s->nvals[a])
            s->npoints *= s->nvals[a];
    s->points = calloc(s->npoints, sizeof *s->points);
    if (!s->points) {
        rc = gm_err_set(err, GM_ENOMEM, "study: out of memory");
        goto fail;
    }
    for (size_t p = 0; p < s->npoints; p++) {
        size_t rest = p;
        for (int a = STUDY_NAXES - 1; a >= 0; a--)
            if (s->nvals[a]) {
                s->points[p].v[a] = s->vals[a][rest % s->nvals[a]];
                rest /= s->nvals[a];
            }
        if (!(s->points[p].reps = calloc(s->nreps, sizeof(study_rep_t)))) {
            rc = gm_err_set(err, GM_ENOMEM, "study: out of memory");
            goto fail;
        }
    }
    free(text);
    json_decref(root);
    *out = s;
    return 0;
fail:
    free(text);
    json_decref(root);
    study_free(s);
    return rc;
}

void study_free(study_t *s)
{
    if (!s)
        return;
    if (s->points)
        for (size_t p = 0; p < s->npoints; p++)
            free(s->points[p].reps);
    free(s->points);
    json_decref(s->base_json);
    jobs_campaign_free(&s->base);
    topo_destroy(s->run_topo);
    topo_destroy(s->topo);
    free(s);
}

size_t study_point_count(const study_t *s) { return s->npoints; }
bool study_is_plan_only(const study_t *s) { return s->plan_only; }
void study_set_plan_only(study_t *s) { s->plan_only = true; }
bool study_has_ranks_axis(const study_t *s) { return s->nvals[STUDY_AXIS_RANKS] > 0; }
const char *study_output_dir(const study_t *s) { return s->output; }

/* ---- a point's resources ---------------------------------------------------------------- */

/* MSM pool threads per rank of point p (0: the runner's default). */
static unsigned point_threads(const study_t *s, const study_point_t *pt)
{
    if (s->nvals[STUDY_AXIS_THREADS])
        return (unsigned)pt->v[STUDY_AXIS_THREADS];
    return s->base.threads;
}

/* resources.domains of point p (0: every domain of the node). */
static unsigned point_domains(const study_t *s, const study_point_t *pt)
{
    return s->nvals[STUDY_AXIS_DOMAINS] ? (unsigned)pt->v[STUDY_AXIS_DOMAINS] : s->base.domains;
}

static bool point_pin(const study_t *s, const study_point_t *pt)
{
    return s->nvals[STUDY_AXIS_PIN] ? pt->v[STUDY_AXIS_PIN] != 0 : s->base.pin;
}

void study_axis_value_text(char *buf, size_t n, study_axis_t a, uint64_t v)
{
    if (a == STUDY_AXIS_PIN)
        snprintf(buf, n, "%s", v ? "true" : "false");
    else
        snprintf(buf, n, "%llu", (unsigned long long)v);
}

static void point_label(char *buf, size_t n, const study_t *s, const study_point_t *pt)
{
    size_t o = 0;
    buf[0] = 0;
    for (int a = 0; a < STUDY_NAXES && o < n; a++)
        if (s->nvals[a]) {
            char t[32];
            study_axis_value_text(t, sizeof t, (study_axis_t)a, pt->v[a]);
            o += (size_t)snprintf(buf + o, n - o, "%s%s=%s", o ? " " : "", study_axis_names[a], t);
        }
    if (!o)
        snprintf(buf, n, "(base campaign)");
}

/* Appends the OS CPU numbers of slots [0, n) as ranges ("0-7,96-103"). */
static void cpu_ranges(char *buf, size_t len, const int *cpu, unsigned n)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < n && o < len;) {
        unsigned j = i;
        while (j + 1 < n && cpu[j + 1] == cpu[j] + 1)
            j++;
        if (j > i)
            o += (size_t)snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", cpu[i], cpu[j]);
        else
            o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", cpu[i]);
        i = j + 1;
    }
}

int study_print_plan(const study_t *s, FILE *f, err_t *err)
{
    /* The topology the ranks plan on: the campaign's description when the
     * study runs here and the campaign describes the machine otherwise. */
    const topo_t *t = s->run_topo ? s->run_topo : s->topo;
    unsigned nd = topo_l3_count(t), ncores = topo_core_count(t);
    fprintf(f, "study %s: %zu point%s x %u repetition%s, plan only (nothing runs)\n", s->name, s->npoints,
            s->npoints == 1 ? "" : "s", s->nreps, s->nreps == 1 ? "" : "s");
    fprintf(f, "topology: %s (%s)\n", topo_source(t),
            topo_is_this_system(t) ? "this system"
            : s->run_topo          ? "the campaign's resources.topology: runs here, unpinned"
                                   : "not this system: plan only, nothing is bound");
    fprintf(f, "machine: %u package%s, %u NUMA node%s, %u L3 domain%s, %u cores, %u PUs, %u GPUs\n",
            topo_package_count(t), topo_package_count(t) == 1 ? "" : "s", topo_numa_count(t),
            topo_numa_count(t) == 1 ? "" : "s", nd, nd == 1 ? "" : "s", ncores, topo_pu_count(t),
            topo_gpu_count(t));
    fprintf(f, "campaign: %s, circuit %s, %zu units, batch_size %u, threads %u%s\n", s->base.name,
            s->base.circuit.id, jobs_unit_count(&s->base), s->base.batch_size, s->base.threads,
            s->base.threads ? "" : " (the node's cores over its ranks)");
    fprintf(f, "L3 domains:\n");
    for (unsigned d = 0; d < nd; d++) {
        topo_domain_t dd;
        topo_domain_get(t, d, &dd);
        fprintf(f, "  domain %-3u %u cores, %u PUs, cpus %s\n", d, dd.ncores, dd.npus, dd.cpus);
    }
    int *cpus = malloc(sizeof(int) * (ncores ? ncores : 1));
    if (!cpus)
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    int rc = 0;
    for (size_t p = 0; p < s->npoints && !rc; p++) {
        const study_point_t *pt = &s->points[p];
        char label[256];
        point_label(label, sizeof label, s, pt);
        unsigned th = point_threads(s, pt);
        unsigned ranks = s->nvals[STUDY_AXIS_RANKS] ? (unsigned)pt->v[STUDY_AXIS_RANKS] : 1;
        unsigned per_rank = th ? th : ncores / ranks;
        if (!per_rank)
            per_rank = 1;
        bool pin = point_pin(s, pt);
        fprintf(f, "point %zu: %s\n", p, label);
        if (per_rank > ncores) {
            rc = gm_err_set(err, GM_EINVAL, "%s: point %zu (%s): %u threads per rank, but %s has %u cores", s->file,
                            p, label, per_rank, topo_source(t), ncores);
            break;
        }
        topo_plan_t plan;
        if ((rc = topo_plan_make(&plan, t, pin ? TOPO_POOL_PIN : TOPO_POOL_DEFAULT, err)))
            break;
        bool full = per_rank == plan.nmsm;
        fprintf(f, "  %u rank%s x %u MSM thread%s, batch_size %u, %s\n", ranks, ranks == 1 ? "" : "s", per_rank,
                per_rank == 1 ? "" : "s",
                s->nvals[STUDY_AXIS_BATCH] ? (unsigned)pt->v[STUDY_AXIS_BATCH] : s->base.batch_size,
                !pin   ? "not pinned"
                : full ? "pinned one worker per core"
                       : "pin asked, but the runner pins only a whole-machine pool: not pinned");
        /* The MSM pool takes cores in domain order: the first per_rank
         * cores of the machine-wide plan (rank 0 of the node). */
        for (unsigned d = 0; d < plan.ndomains; d++) {
            unsigned n = 0;
            for (unsigned i = 0; i < per_rank && i < plan.nmsm; i++)
                if (plan.msm[i].domain == d)
                    cpus[n++] = plan.msm[i].cpu;
            if (!n)
                continue;
            char cl[TOPO_CPULIST_LEN];
            cpu_ranges(cl, sizeof cl, cpus, n);
            if (pin && full)
                fprintf(f, "    domain %-3u %u worker%s on cpus %s\n", d, n, n == 1 ? "" : "s", cl);
            else
                fprintf(f, "    domain %-3u %u worker%s' worth of cores (cpus %s; threads not bound)\n", d, n,
                        n == 1 ? "" : "s", cl);
        }
        /* The prepare pools: one per domain used (resources.domains), each
         * the domain's cores, one unit prepared at a time in each
         * (mpi/pipeline.c); pinned per core whenever pin is asked. */
        unsigned want = point_domains(s, pt), used = want ? want : plan.ndomains;
        if (want > plan.ndomains) {
            rc = gm_err_set(err, GM_EINVAL, "%s: point %zu (%s): resources.domains %u, but %s has %u L3 domains",
                            s->file, p, label, want, topo_source(t), plan.ndomains);
            topo_plan_free(&plan);
            break;
        }
        fprintf(f, "  prepare: %u of %u L3 domains, one unit at a time in each\n", used, plan.ndomains);
        for (unsigned d = 0; d < used; d++) {
            unsigned n = 0;
            for (unsigned i = plan.domain_first[d]; i < plan.domain_first[d + 1]; i++)
                cpus[n++] = plan.synth[i].cpu;
            char cl[TOPO_CPULIST_LEN];
            cpu_ranges(cl, sizeof cl, cpus, n);
            fprintf(f, "    domain %-3u %u worker%s %s cpus %s\n", d, n, n == 1 ? "" : "s",
                    pin ? "pinned, on" : "not bound, in", cl);
        }
        topo_plan_free(&plan);
    }
    free(cpus);
    return rc;
}

/* ---- running ------------------------------------------------------------------------ */

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p) == 0 || errno == ENOENT ? 0 : -1;
}

static int mkdirs(const char *path, err_t *err)
{
    char tmp[JOBS_PATH_LEN + 128];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s", path) >= sizeof tmp)
        return gm_err_set(err, GM_EIO, "%.200s...: path too long", path);
    for (char *q = tmp + 1; *q; q++)
        if (*q == '/') {
            *q = 0;
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return gm_err_set(err, GM_EIO, "%s: cannot create: %s", tmp, strerror(errno));
            *q = '/';
        }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    return 0;
}

/* Reads the numbers of one run from its report.json. */
static int read_report(study_rep_t *r, const char *path, err_t *err)
{
    mpi_report_t *rep = NULL;
    int rc = mpi_report_load(&rep, path, err);
    if (rc)
        return rc;
    r->wall_s = rep->run.wall_s;
    r->proofs_per_hour = rep->run.proofs_per_hour;
    r->ranks = (unsigned)rep->run.ranks;
    r->threads = rep->ranks[0].threads;
    /* the depth the rank used (the campaign's, or less when the budget is short) */
    r->depth = rep->ranks[0].pipeline_depth;
    for (int i = 0; i < MPI_NSTAGES; i++)
        r->stage_s[i] = rep->totals.stages[i].wall_s;
    for (int c = 0; c < MPI_NCSTAGES; c++)
        for (int e = 0; e < STUDY_NEV; e++)
            r->ev[c][e] = mpi_report_event(rep, (mpi_cstage_t)c, study_events[e]);
    snprintf(r->report, sizeof r->report, "%s", path);
    mpi_report_free(rep);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of n values; STUDY_NAN when any is STUDY_NAN (a counter a run did not have). */
static double median(const double *v, unsigned n)
{
    double t[STUDY_MAX_REPS];
    for (unsigned i = 0; i < n; i++) {
        if (__builtin_isnan(v[i]))
            return STUDY_NAN;
        t[i] = v[i];
    }
    qsort(t, n, sizeof t[0], cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static void summarize(study_point_t *pt, unsigned n)
{
    double v[STUDY_MAX_REPS];
    study_summary_t *m = &pt->sum;
    for (unsigned i = 0; i < n; i++)
        v[i] = pt->reps[i].proofs_per_hour;
    m->pph_median = median(v, n);
    m->pph_min = m->pph_max = v[0];
    for (unsigned i = 1; i < n; i++) {
        m->pph_min = __builtin_fmin(m->pph_min, v[i]);
        m->pph_max = __builtin_fmax(m->pph_max, v[i]);
    }
    m->spread_pct = m->pph_median > 0 ? (m->pph_max - m->pph_min) / m->pph_median * 100.0 : STUDY_NAN;
    for (unsigned i = 0; i < n; i++)
        v[i] = pt->reps[i].wall_s;
    m->wall_median = median(v, n);
    for (int st = 0; st < MPI_NSTAGES; st++) {
        for (unsigned i = 0; i < n; i++)
            v[i] = pt->reps[i].stage_s[st];
        m->stage_median[st] = median(v, n);
    }
    for (int c = 0; c < MPI_NCSTAGES; c++) {
        for (int e = 0; e < STUDY_NEV; e++) {
            for (unsigned i = 0; i < n; i++)
                v[i] = pt->reps[i].ev[c][e];
            m->ev_median[c][e] = median(v, n);
        }
        const double *ev = m->ev_median[c];
        m->ipc[c] = ev[STUDY_EV_CYCLES] > 0 ? ev[STUDY_EV_INSTRUCTIONS] / ev[STUDY_EV_CYCLES] : STUDY_NAN;
        double fills = ev[STUDY_EV_FILL_L2] + ev[STUDY_EV_FILL_CCX] + ev[STUDY_EV_FILL_REMOTE] + ev[STUDY_EV_FILL_DRAM];
        for (int k = 0; k < 4; k++)
            m->fill_pct[c][k] = fills > 0 ? ev[STUDY_EV_FILL_L2 + k] / fills * 100.0 : STUDY_NAN;
    }
}

int study_run_inprocess(void *arg, const char *campaign_path, unsigned ranks, int *rank, char *report_path,
                        size_t report_len, err_t *err)
{
    (void)arg;
    if (ranks)
        return gm_err_set(err, GM_ENOTSUP, "study: the in-process runner cannot start %u ranks", ranks);
    mpi_result_t res;
    memset(&res, 0, sizeof res);
    int rc = mpi_campaign_run(campaign_path, NULL, NULL, NULL, &res, err);
    *rank = res.rank;
    snprintf(report_path, report_len, "%s", res.report_json);
    mpi_report_free(res.report);
    return rc;
}

/* Writes the campaign of point p, repetition r, and empties its output. */
static int write_campaign(const study_t *s, size_t p, unsigned r, const char *cpath, const char *odir, err_t *err)
{
    const study_point_t *pt = &s->points[p];
    json_t *c = json_deep_copy(s->base_json);
    if (!c)
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    char name[JOBS_ID_LEN];
    if ((size_t)snprintf(name, sizeof name, "%.40s-p%zu-r%u", s->name, p, r) >= sizeof name)
        name[sizeof name - 1] = 0;
    json_object_set_new(c, "name", json_string(name));
    json_object_set_new(c, "output", json_string(odir));
    json_object_set_new(c, "progress_interval", json_integer(0));
    if (s->nvals[STUDY_AXIS_BATCH])
        json_object_set_new(c, "batch_size", json_integer((json_int_t)pt->v[STUDY_AXIS_BATCH]));
    if (s->nvals[STUDY_AXIS_DEPTH])
        json_object_set_new(c, "pipeline_depth", json_integer((json_int_t)pt->v[STUDY_AXIS_DEPTH]));
    json_t *res = json_object_get(c, "resources");
    json_object_set_new(res, "threads", json_integer(point_threads(s, pt)));
    json_object_set_new(res, "pin", json_boolean(point_pin(s, pt)));
    json_object_set_new(res, "domains", json_integer(point_domains(s, pt)));
    if (s->nvals[STUDY_AXIS_MEM_BUDGET])
        json_object_set_new(res, "mem_budget", json_integer((json_int_t)pt->v[STUDY_AXIS_MEM_BUDGET]));
    char *text = json_dumps(c, JSON_INDENT(2));
    json_decref(c);
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    int rc = 0;
    if (nftw(odir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
        rc = gm_err_set(err, GM_EIO, "%s: cannot empty: %s", odir, strerror(errno));
    if (!rc)
        rc = gm_file_write(cpath, text, strlen(text), err);
    free(text);
    return rc;
}

int study_run(study_t *s, int rank, study_run_fn run, void *run_arg, study_progress_fn progress, void *parg, err_t *err)
{
    if (s->plan_only)
        return gm_err_set(err, GM_ESTATE, "%s: plan only (topology %s): nothing to run", s->file, s->topo_spec);
    char runs[JOBS_PATH_LEN + 16];
    snprintf(runs, sizeof runs, "%s/runs", s->output);
    int rc;
    /* Every rank walks the same points; rank 0 alone touches files (the
     * others only pass the campaign's path, which mpi_campaign_run reads on
     * rank 0 alone). */
    for (size_t p = 0; p < s->npoints; p++) {
        study_point_t *pt = &s->points[p];
        unsigned ranks = s->nvals[STUDY_AXIS_RANKS] ? (unsigned)pt->v[STUDY_AXIS_RANKS] : 0;
        for (unsigned r = 0; r < s->nreps; r++) {
            char cpath[JOBS_PATH_LEN + 64], odir[JOBS_PATH_LEN + 64], rep[JOBS_PATH_LEN + 96];
            snprintf(cpath, sizeof cpath, "%s/p%03zu-r%u.json", runs, p, r);
            snprintf(odir, sizeof odir, "%s/p%03zu-r%u", runs, p, r);
            if (rank == 0) {
                if ((rc = mkdirs(runs, err)) || (rc = write_campaign(s, p, r, cpath, odir, err)))
                    return rc;
                if (progress)
                    progress(parg, p, s->npoints, r, s->nreps, false, 0);
            }
            rep[0] = 0;
            err_t e;
            gm_err_clear(&e);
            int rrank = rank;
            rc = run(run_arg, cpath, ranks, &rrank, rep, sizeof rep, &e);
            if (rc) {
                char label[256];
                point_label(label, sizeof label, s, pt);
                return gm_err_set(err, rc, "point %zu (%s) repetition %u: %s", p, label, r, e.msg);
            }
            if (rank != 0)
                continue;
            if (!rep[0])
                snprintf(rep, sizeof rep, "%s/report.json", odir);
            if ((rc = read_report(&pt->reps[r], rep, err)))
                return rc;
            pt->done = r + 1;
            if (progress)
                progress(parg, p, s->npoints, r, s->nreps, true, pt->reps[r].proofs_per_hour);
        }
        if (rank == 0)
            summarize(pt, s->nreps);
    }
    if (rank != 0)
        return 0;
    return study_write_outputs(s, err);
}
