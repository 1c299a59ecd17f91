/* fuzz/fuzz_topo.c — topology specs (topo_load, topo/topo.h): hwloc
 * synthetic strings and XML files, then everything topo/ extracts from them.
 * Input: byte 0 selects the form (even: "synthetic:" + the rest as a
 * string; odd: the rest is an XML file in the temporary directory, loaded as
 * "xml:PATH").
 * Properties: a loaded topology has >= 1 domain and >= 1 core; domains'
 * cores are contiguous and cover every core once; every getter and the
 * thread plan (all flag combinations) work on it; a refusal is a documented
 * status with a message and leaves *out NULL. */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "topo/topo.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gm_log_set_level(GM_LOG_ERROR);
    return 0;
}

static void check_topo(const topo_t *t)
{
    unsigned nd = topo_l3_count(t), nc = topo_core_count(t), ng = topo_gpu_count(t);
    FUZZ_CHECK(nd >= 1, "no L3 domain");
    FUZZ_CHECK(nc >= 1, "no core");
    /* Not checked: topo_pu_count >= nc. hwloc accepts XML whose PU objects
     * and cpusets disagree (docs/reliability.md), and topo_pu_count counts
     * the objects while cores and domains count cpusets. */
    (void)topo_pu_count(t);
    (void)topo_package_count(t);
    (void)topo_numa_count(t);
    (void)topo_source(t);
    (void)topo_is_this_system(t);
    unsigned next = 0;
    for (unsigned i = 0; i < nd; i++) {
        topo_domain_t d;
        topo_domain_get(t, i, &d);
        FUZZ_CHECK(d.index == i, "domain index");
        FUZZ_CHECK(d.first_core == next, "domains' cores not contiguous");
        FUZZ_CHECK(memchr(d.cpus, '\0', sizeof d.cpus) != NULL, "domain cpus not terminated");
        next += d.ncores;
    }
    FUZZ_CHECK(next == nc, "domains do not cover the cores");
    for (unsigned i = 0; i < nc; i++) {
        topo_core_t c;
        topo_core_get(t, i, &c);
        FUZZ_CHECK(c.index == i && c.domain < nd, "core index or domain");
        FUZZ_CHECK(memchr(c.cpus, '\0', sizeof c.cpus) != NULL, "core cpus not terminated");
    }
    for (unsigned i = 0; i < ng; i++) {
        topo_gpu_t g;
        topo_gpu_get(t, i, &g);
        FUZZ_CHECK(g.domain < nd, "gpu domain");
    }
    for (unsigned f = 0; f < 8; f++) {
        topo_plan_t plan;
        err_t err;
        int rc = topo_plan_make(&plan, t, (topo_pool_flags_t)f, &err);
        FUZZ_CHECK(rc == 0 || rc == GM_ENOMEM, "topo_plan_make: undocumented status");
        if (rc)
            continue;
        FUZZ_CHECK(plan.ndomains == nd, "plan domains");
        FUZZ_CHECK(plan.domain_first[nd] == plan.nsynth, "plan offsets");
        for (unsigned i = 0; i < plan.nsynth; i++)
            FUZZ_CHECK(plan.synth[i].domain < nd && plan.synth[i].core < nc, "plan slot out of range");
        for (unsigned i = 0; i < plan.nmsm; i++)
            FUZZ_CHECK(plan.msm[i].domain < nd && plan.msm[i].core < nc, "msm slot out of range");
        topo_plan_free(&plan);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *spec;
    if (data[0] % 2 == 0) {
        char *s = fuzz_strndup(data + 1, size - 1);
        spec = malloc(strlen(s) + 16);
        FUZZ_CHECK(spec != NULL, "out of memory");
        strcpy(spec, "synthetic:");
        strcat(spec, s);
        free(s);
    } else {
        const char *path = fuzz_write("fuzz.xml", data + 1, size - 1);
        spec = malloc(strlen(path) + 8);
        FUZZ_CHECK(spec != NULL, "out of memory");
        strcpy(spec, "xml:");
        strcat(spec, path);
    }
    topo_t *t = (topo_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = topo_load(&t, spec, &err);
    free(spec);
    if (rc) {
        FUZZ_CHECK(t == NULL, "*out not NULL after a failure");
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_EINVAL || rc == GM_EIO || rc == GM_ENOMEM,
                   "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    check_topo(t);
    topo_destroy(t);
    return 0;
}
