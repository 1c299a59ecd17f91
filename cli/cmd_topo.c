/*
 * cli/cmd_topo.c — `grothmpi topo`: the topology map (packages, NUMA nodes,
 * L3 domains, cores, PUs, GPUs) and the thread plan (synthesis pools per L3
 * domain, the machine-wide MSM/NTT pool, the GPU feeders), as text or JSON,
 * for this machine or a synthetic/XML topology; and the counter set.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "topo/topo.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi topo [--topology SPEC] [--smt] [--pin-domain] [--json]\n"
            "                     [--counters] [--export-xml FILE]\n\n"
            "Prints the machine's topology and where grothmpi's threads go.\n"
            "  --topology SPEC   this (default), synthetic:\"DESCRIPTION\" or xml:FILE\n"
            "                    (default from GROTHMPI_TOPOLOGY); only 'this' is ever bound\n"
            "  --smt             one worker per hardware thread instead of per core\n"
            "  --pin-domain      pin workers to their L3 domain instead of their core\n"
            "  --json            the same as JSON\n"
            "  --counters        also list the counter set and whether each event works here\n"
            "                    (GROTHMPI_EVENTS=a,b,c replaces the default set)\n"
            "  --export-xml FILE write the topology as hwloc XML (for planning elsewhere)\n\n"
            "Example: grothmpi topo --topology synthetic:\"pack:1 numa:1 l3:12(size=32MiB) l2:8 core:1 "
            "pu:2(indexes=2*96:1*2)\"\n");
}

/* Appends the sorted-as-given int list as "a-b,c" ranges. */
static void int_ranges(char *buf, size_t len, const int *v, unsigned n)
{
    size_t pos = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < n;) {
        unsigned j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        int w = j > i ? snprintf(buf + pos, len - pos, "%s%d-%d", pos ? "," : "", v[i], v[j])
                      : snprintf(buf + pos, len - pos, "%s%d", pos ? "," : "", v[i]);
        if (w < 0 || (size_t)w >= len - pos) {
            if (len > 4)
                strcpy(buf + len - 4, "...");
            return;
        }
        pos += (size_t)w;
        i = j + 1;
    }
}

static const char *kind_name(topo_domain_kind_t k)
{
    switch (k) {
    case TOPO_DOMAIN_L3: return "L3";
    case TOPO_DOMAIN_L3_NUMA: return "L3/NUMA (sub-NUMA cluster)";
    case TOPO_DOMAIN_NUMA: return "NUMA node (no L3)";
    default: return "package (no L3)";
    }
}

static void slot_cpus(char *buf, size_t len, const topo_slot_t *s, unsigned n)
{
    int *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        snprintf(buf, len, "?");
        return;
    }
    for (unsigned i = 0; i < n; i++)
        v[i] = s[i].cpu;
    int_ranges(buf, len, v, n);
    free(v);
}

static const char *placement(topo_pool_flags_t f)
{
    if (f & TOPO_POOL_PIN_DOMAIN)
        return (f & TOPO_POOL_SMT) ? "one worker per PU, pinned to its L3 domain"
                                   : "one worker per core, pinned to its L3 domain";
    return (f & TOPO_POOL_SMT) ? "one worker per PU, pinned to it" : "one worker per core, pinned to the core";
}

static void print_text(const topo_t *t, const topo_plan_t *p)
{
    char cpus[4096];
    int here = topo_is_this_system(t);
    printf("topology: %s (%s)\n", topo_source(t),
           here ? "this system: pools are pinned as planned" : "not this system: plan only, nothing is bound");
    unsigned np = topo_package_count(t), nn = topo_numa_count(t), nd = topo_l3_count(t);
    unsigned nc = topo_core_count(t), npu = topo_pu_count(t), ng = topo_gpu_count(t);
    printf("machine: %u package%s, %u NUMA node%s, %u L3 domain%s, %u cores, %u PUs, %u GPU%s\n", np,
           np == 1 ? "" : "s", nn, nn == 1 ? "" : "s", nd, nd == 1 ? "" : "s", nc, npu, ng, ng == 1 ? "" : "s");
    printf("\nL3 domains:\n");
    for (unsigned d = 0; d < nd; d++) {
        topo_domain_t dom;
        topo_domain_get(t, d, &dom);
        char size[32] = "";
        if (dom.l3_bytes)
            snprintf(size, sizeof size, " %llu MiB", (unsigned long long)(dom.l3_bytes >> 20));
        char numa[16] = "-";
        if (dom.numa >= 0)
            snprintf(numa, sizeof numa, "%d", dom.numa);
        printf("  domain %-3u %s%s, package %u, NUMA %s: %u cores, %u PUs, cpus %s\n", d, kind_name(dom.kind), size,
               dom.package, numa, dom.ncores, dom.npus, dom.cpus);
    }
    printf("\nGPUs:%s\n", ng ? "" : " none");
    for (unsigned g = 0; g < ng; g++) {
        topo_gpu_t gpu;
        topo_gpu_get(t, g, &gpu);
        printf("  gpu %u: %s%s%s%s%s%s, NUMA %d, local cpus %s\n", g, gpu.name, gpu.model[0] ? " (" : "",
               gpu.model, gpu.model[0] ? ")" : "", gpu.pci[0] ? ", pci " : "", gpu.pci, gpu.numa, gpu.cpus);
    }
    printf("\nplan (%s):\n", placement(p->flags));
    printf("  synthesis: %u domain pool%s, a pool of pools hands each work unit to one domain\n", p->ndomains,
           p->ndomains == 1 ? "" : "s");
    for (unsigned d = 0; d < p->ndomains; d++) {
        unsigned a = p->domain_first[d], b = p->domain_first[d + 1];
        slot_cpus(cpus, sizeof cpus, p->synth + a, b - a);
        printf("    domain %-3u %3u workers on cpus %s (leader on cpu %d)\n", d, b - a, cpus, p->synth[a].cpu);
    }
    slot_cpus(cpus, sizeof cpus, p->msm, p->nmsm);
    printf("  msm/ntt: 1 machine-wide pool of %u workers on cpus %s\n", p->nmsm, cpus);
    if (p->ngpus == 0)
        printf("  gpu feeder: none (no GPU)\n");
    for (unsigned g = 0; g < p->ngpus; g++)
        printf("  gpu feeder %u: cpu %d (core %u, domain %u, near the GPU's NUMA node)\n", g,
               p->gpu_feeder[g].cpu, p->gpu_feeder[g].core, p->gpu_feeder[g].domain);
}

static json_t *slots_json(const topo_slot_t *s, unsigned n)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:i, s:i, s:i, s:s}", "domain", (int)s[i].domain, "core",
                                           (int)s[i].core, "cpu", s[i].cpu, "bind", s[i].cpus));
    return a;
}

static json_t *topo_json(const topo_t *t, const topo_plan_t *p)
{
    json_t *root = json_object();
    json_object_set_new(root, "topology", json_string(topo_source(t)));
    json_object_set_new(root, "this_system", json_boolean(topo_is_this_system(t)));
    json_object_set_new(root, "packages", json_integer(topo_package_count(t)));
    json_object_set_new(root, "numa_nodes", json_integer(topo_numa_count(t)));
    json_object_set_new(root, "cores", json_integer(topo_core_count(t)));
    json_object_set_new(root, "pus", json_integer(topo_pu_count(t)));
    json_t *doms = json_array();
    for (unsigned d = 0; d < topo_l3_count(t); d++) {
        topo_domain_t dom;
        topo_domain_get(t, d, &dom);
        json_array_append_new(doms, json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:I, s:s}", "index", (int)d, "kind",
                                              kind_name(dom.kind), "package", (int)dom.package, "numa", dom.numa,
                                              "cores", (int)dom.ncores, "pus", (int)dom.npus, "l3_bytes",
                                              (json_int_t)dom.l3_bytes, "cpus", dom.cpus));
    }
    json_object_set_new(root, "l3_domains", doms);
    json_t *gpus = json_array();
    for (unsigned g = 0; g < topo_gpu_count(t); g++) {
        topo_gpu_t gpu;
        topo_gpu_get(t, g, &gpu);
        json_array_append_new(gpus, json_pack("{s:s, s:s, s:s, s:i, s:i, s:s}", "name", gpu.name, "model",
                                              gpu.model, "pci", gpu.pci, "numa", gpu.numa, "domain",
                                              (int)gpu.domain, "cpus", gpu.cpus));
    }
    json_object_set_new(root, "gpus", gpus);
    json_t *plan = json_object();
    json_object_set_new(plan, "placement", json_string(placement(p->flags)));
    json_object_set_new(plan, "binds_here", json_boolean(topo_is_this_system(t)));
    json_t *synth = json_array();
    for (unsigned d = 0; d < p->ndomains; d++)
        json_array_append_new(synth, slots_json(p->synth + p->domain_first[d], p->domain_first[d + 1] - p->domain_first[d]));
    json_object_set_new(plan, "synthesis", synth);
    json_object_set_new(plan, "msm_ntt", slots_json(p->msm, p->nmsm));
    json_object_set_new(plan, "gpu_feeders", slots_json(p->gpu_feeder, p->ngpus));
    json_object_set_new(root, "plan", plan);
    return root;
}

/* The counter set on the calling thread: which events work here. */
static int counters_report(json_t *root, err_t *err)
{
    topo_evset_t *es = NULL;
    topo_counters_t *c = NULL;
    int rc = topo_evset_create(&es, NULL, err);
    if (rc == 0)
        rc = topo_counters_open_self(&c, es, err);
    if (rc != 0) {
        topo_evset_destroy(es);
        return rc;
    }
    if (root) {
        json_t *a = json_array();
        for (unsigned e = 0; e < topo_evset_count(es); e++)
            json_array_append_new(a, json_pack("{s:s, s:b}", "event", topo_evset_name(es, e), "available",
                                               topo_counters_available(c, e)));
        json_t *o = json_pack("{s:s, s:o}", "model", topo_evset_model(es), "events", a);
        json_object_set_new(root, "counters", o);
    } else {
        printf("\ncounters (default set for model '%s'%s):\n", topo_evset_model(es),
               getenv("GROTHMPI_EVENTS") && *getenv("GROTHMPI_EVENTS") ? ", replaced by GROTHMPI_EVENTS" : "");
        for (unsigned e = 0; e < topo_evset_count(es); e++)
            printf("  %-40s %s\n", topo_evset_name(es, e), topo_counters_available(c, e) ? "available" : "not available");
    }
    topo_counters_destroy(c);
    topo_evset_destroy(es);
    return 0;
}

int cmd_topo(int argc, char **argv)
{
    const char *spec = getenv("GROTHMPI_TOPOLOGY");
    const char *spec_from = "GROTHMPI_TOPOLOGY";
    const char *xml_out = NULL;
    int json = 0, counters = 0;
    topo_pool_flags_t flags = TOPO_POOL_PIN;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--topology") == 0 && i + 1 < argc) {
            spec = argv[++i];
            spec_from = "--topology";
        } else if (strncmp(a, "--topology=", 11) == 0) {
            spec = a + 11;
            spec_from = "--topology";
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--smt") == 0) {
            flags |= TOPO_POOL_SMT;
        } else if (strcmp(a, "--pin-domain") == 0) {
            flags |= TOPO_POOL_PIN_DOMAIN;
        } else if (strcmp(a, "--counters") == 0) {
            counters = 1;
        } else if (strcmp(a, "--export-xml") == 0 && i + 1 < argc) {
            xml_out = argv[++i];
        } else {
            fprintf(stderr, "grothmpi topo: unknown or incomplete option '%s' (grothmpi topo --help)\n", a);
            return 2;
        }
    }
    err_t err;
    gm_err_clear(&err);
    topo_t *t = NULL;
    if (topo_load(&t, spec, &err) != 0) {
        fprintf(stderr, "grothmpi topo: %s: %s\n", spec_from, err.msg);
        return 1;
    }
    int status = 0;
    topo_plan_t plan;
    if (topo_plan_make(&plan, t, flags, &err) != 0) {
        fprintf(stderr, "grothmpi topo: %s\n", err.msg);
        topo_destroy(t);
        return 1;
    }
    if (json) {
        json_t *root = topo_json(t, &plan);
        if (counters && counters_report(root, &err) != 0) {
            fprintf(stderr, "grothmpi topo: %s\n", err.msg);
            status = 1;
        }
        char *s = json_dumps(root, JSON_INDENT(2));
        if (s)
            printf("%s\n", s);
        free(s);
        json_decref(root);
    } else {
        print_text(t, &plan);
        if (counters && counters_report(NULL, &err) != 0) {
            fprintf(stderr, "grothmpi topo: %s\n", err.msg);
            status = 1;
        }
    }
    if (xml_out && status == 0) {
        if (topo_export_xml(t, xml_out, &err) != 0) {
            fprintf(stderr, "grothmpi topo: --export-xml: %s\n", err.msg);
            status = 1;
        } else if (!json) {
            printf("\nwrote %s\n", xml_out);
        }
    }
    topo_plan_free(&plan);
    topo_destroy(t);
    return status;
}
