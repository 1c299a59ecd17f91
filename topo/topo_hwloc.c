/*
 * topo/topo_hwloc.c — the hwloc backend: loading a topology (this system,
 * synthetic, XML), extracting packages, NUMA nodes, L3 domains, cores, PUs
 * and GPUs once into plain arrays, and exporting XML.
 *
 * DESIGN
 *  - Everything the rest of topo/ needs is extracted at load time into
 *    struct topo (topo_internal.h); later queries never walk hwloc objects.
 *  - L3 domains: each L3 cache object; an L3 whose cores belong to several
 *    NUMA nodes (Intel sub-NUMA clustering) is cut into one domain per NUMA
 *    node. With no L3 in the topology: NUMA nodes, else packages, else the
 *    machine. Cores that no domain covers (an odd XML) join a last domain.
 *  - Cores are numbered domain-major, so a domain's cores are contiguous.
 *  - GPUs: hwloc OS devices of type GPU or CoProc, one per PCI device; a
 *    DRM-only device counts only for NVIDIA or AMD vendors (not a server's
 *    BMC VGA). Locality: the cpuset of the first non-I/O ancestor.
 */
#include "topo/topo_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The logical index of the first NUMA node whose cpuset includes (or, when
 * none includes it, intersects) set; -1 when there is none. */
static int numa_of(hwloc_topology_t h, hwloc_const_bitmap_t set)
{
    int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE), hit = -1;
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (!o->cpuset || hwloc_bitmap_iszero(o->cpuset))
            continue;
        if (hwloc_bitmap_isincluded(set, o->cpuset))
            return (int)o->logical_index;
        if (hit < 0 && hwloc_bitmap_intersects(set, o->cpuset))
            hit = (int)o->logical_index;
    }
    return hit;
}

static unsigned package_of(hwloc_topology_t h, hwloc_const_bitmap_t set)
{
    hwloc_obj_t o = hwloc_get_obj_covering_cpuset(h, set);
    while (o && o->type != HWLOC_OBJ_PACKAGE)
        o = o->parent;
    return o ? o->logical_index : 0;
}

/* Appends a domain (takes ownership of set). */
static int add_domain(topo_t *t, unsigned *cap, hwloc_bitmap_t set, topo_domain_kind_t kind,
                      uint64_t l3_bytes)
{
    if (t->ndomains == *cap) {
        unsigned nc = *cap ? *cap * 2 : 16;
        topo_domain_t *d = realloc(t->domains, nc * sizeof *d);
        if (!d)
            return GM_ENOMEM;
        t->domains = d;
        hwloc_bitmap_t *s = realloc(t->domain_sets, nc * sizeof *s);
        if (!s)
            return GM_ENOMEM;
        t->domain_sets = s;
        *cap = nc;
    }
    topo_domain_t *d = &t->domains[t->ndomains];
    memset(d, 0, sizeof *d);
    d->index = t->ndomains;
    d->kind = kind;
    d->l3_bytes = l3_bytes;
    d->package = package_of(t->h, set);
    d->numa = numa_of(t->h, set);
    d->npus = (unsigned)hwloc_bitmap_weight(set);
    hwloc_bitmap_list_snprintf(d->cpus, sizeof d->cpus, set);
    t->domain_sets[t->ndomains++] = set;
    return 0;
}

static int find_domains(topo_t *t)
{
    hwloc_topology_t h = t->h;
    unsigned cap = 0;
    int nl3 = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_L3CACHE);
    int nnuma = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
    int rc;
    for (int i = 0; i < nl3; i++) {
        hwloc_obj_t l3 = hwloc_get_obj_by_type(h, HWLOC_OBJ_L3CACHE, (unsigned)i);
        uint64_t bytes = l3->attr ? l3->attr->cache.size : 0;
        /* NUMA nodes strictly inside this L3: sub-NUMA clusters. */
        int inside = 0;
        for (int j = 0; j < nnuma; j++) {
            hwloc_obj_t nd = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)j);
            if (nd->cpuset && !hwloc_bitmap_iszero(nd->cpuset) && hwloc_bitmap_isincluded(nd->cpuset, l3->cpuset) &&
                !hwloc_bitmap_isequal(nd->cpuset, l3->cpuset))
                inside++;
        }
        if (inside >= 2) {
            for (int j = 0; j < nnuma; j++) {
                hwloc_obj_t nd = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)j);
                if (!nd->cpuset || !hwloc_bitmap_intersects(nd->cpuset, l3->cpuset))
                    continue;
                hwloc_bitmap_t s = hwloc_bitmap_alloc();
                if (!s)
                    return GM_ENOMEM;
                hwloc_bitmap_and(s, nd->cpuset, l3->cpuset);
                if ((rc = add_domain(t, &cap, s, TOPO_DOMAIN_L3_NUMA, bytes)) != 0) {
                    hwloc_bitmap_free(s);
                    return rc;
                }
            }
        } else {
            hwloc_bitmap_t s = hwloc_bitmap_dup(l3->cpuset);
            if (!s)
                return GM_ENOMEM;
            if ((rc = add_domain(t, &cap, s, TOPO_DOMAIN_L3, bytes)) != 0) {
                hwloc_bitmap_free(s);
                return rc;
            }
        }
    }
    if (t->ndomains == 0) {
        hwloc_obj_type_t type = nnuma > 0 ? HWLOC_OBJ_NUMANODE : HWLOC_OBJ_PACKAGE;
        topo_domain_kind_t kind = nnuma > 0 ? TOPO_DOMAIN_NUMA : TOPO_DOMAIN_PACKAGE;
        int n = hwloc_get_nbobjs_by_type(h, type);
        for (int i = 0; i < n; i++) {
            hwloc_obj_t o = hwloc_get_obj_by_type(h, type, (unsigned)i);
            if (!o->cpuset || hwloc_bitmap_iszero(o->cpuset))
                continue;
            hwloc_bitmap_t s = hwloc_bitmap_dup(o->cpuset);
            if (!s)
                return GM_ENOMEM;
            if ((rc = add_domain(t, &cap, s, kind, 0)) != 0) {
                hwloc_bitmap_free(s);
                return rc;
            }
        }
    }
    /* Whatever no domain covers (or the whole machine when nothing matched). */
    hwloc_bitmap_t rest = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(h));
    if (!rest)
        return GM_ENOMEM;
    for (unsigned d = 0; d < t->ndomains; d++)
        hwloc_bitmap_andnot(rest, rest, t->domain_sets[d]);
    if (!hwloc_bitmap_iszero(rest)) {
        if ((rc = add_domain(t, &cap, rest, TOPO_DOMAIN_PACKAGE, 0)) != 0) {
            hwloc_bitmap_free(rest);
            return rc;
        }
    } else {
        hwloc_bitmap_free(rest);
    }
    return 0;
}

static int find_cores(topo_t *t)
{
    hwloc_topology_t h = t->h;
    int ncores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
    hwloc_obj_type_t ctype = HWLOC_OBJ_CORE;
    if (ncores <= 0) { /* a topology without Core objects: each PU is a core */
        ctype = HWLOC_OBJ_PU;
        ncores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
    }
    if (ncores <= 0)
        return GM_EFORMAT;
    t->cores = calloc((size_t)ncores, sizeof *t->cores);
    t->core_sets = calloc((size_t)ncores, sizeof *t->core_sets);
    if (!t->cores || !t->core_sets)
        return GM_ENOMEM;
    unsigned k = 0;
    for (unsigned d = 0; d < t->ndomains; d++) {
        topo_domain_t *dom = &t->domains[d];
        dom->first_core = k;
        hwloc_obj_t c = NULL;
        while ((c = hwloc_get_next_obj_inside_cpuset_by_type(h, t->domain_sets[d], ctype, c)) != NULL) {
            if (k == (unsigned)ncores)
                break;
            topo_core_t *core = &t->cores[k];
            core->index = k;
            core->domain = d;
            core->numa = numa_of(h, c->cpuset);
            core->npus = (unsigned)hwloc_bitmap_weight(c->cpuset);
            core->first_cpu = hwloc_bitmap_first(c->cpuset);
            hwloc_bitmap_list_snprintf(core->cpus, sizeof core->cpus, c->cpuset);
            t->core_sets[k] = hwloc_bitmap_dup(c->cpuset);
            if (!t->core_sets[k])
                return GM_ENOMEM;
            k++;
        }
        dom->ncores = k - dom->first_core;
    }
    t->ncores = k;
    return k > 0 ? 0 : GM_EFORMAT;
}

static hwloc_obj_t pci_ancestor(hwloc_obj_t o)
{
    for (; o; o = o->parent)
        if (o->type == HWLOC_OBJ_PCI_DEVICE)
            return o;
    return NULL;
}

static int find_gpus(topo_t *t)
{
    hwloc_topology_t h = t->h;
    uint64_t cap = 0, pcap = 0;
    hwloc_obj_t *pcis = NULL;
    hwloc_obj_t o = NULL;
    while ((o = hwloc_get_next_osdev(h, o)) != NULL) {
        hwloc_obj_osdev_type_t ot = o->attr->osdev.type;
        if (ot != HWLOC_OBJ_OSDEV_GPU && ot != HWLOC_OBJ_OSDEV_COPROC)
            continue;
        hwloc_obj_t pci = pci_ancestor(o);
        unsigned same = t->ngpus;
        for (unsigned i = 0; pci && i < t->ngpus; i++)
            if (pcis[i] == pci)
                same = i;
        if (same < t->ngpus) { /* prefer the CUDA/NVML name for a device seen already */
            if (ot == HWLOC_OBJ_OSDEV_COPROC && strncmp(t->gpus[same].name, "cuda", 4) != 0) {
                snprintf(t->gpus[same].name, sizeof t->gpus[same].name, "%s", o->name ? o->name : "?");
                const char *m = hwloc_obj_get_info_by_name(o, "GPUModel");
                if (m)
                    snprintf(t->gpus[same].model, sizeof t->gpus[same].model, "%s", m);
            }
            continue;
        }
        if (ot == HWLOC_OBJ_OSDEV_GPU && pci) {
            unsigned vendor = pci->attr->pcidev.vendor_id;
            if (vendor != 0x10de && vendor != 0x1002)
                continue;
        }
        if (!gm_grow((void **)&t->gpus, &cap, t->ngpus + 1, sizeof *t->gpus, 8) ||
            !gm_grow((void **)&pcis, &pcap, t->ngpus + 1, sizeof *pcis, 8)) {
            gm_free(pcis);
            return GM_ENOMEM;
        }
        topo_gpu_t *g = &t->gpus[t->ngpus];
        memset(g, 0, sizeof *g);
        g->index = t->ngpus;
        snprintf(g->name, sizeof g->name, "%s", o->name ? o->name : "?");
        const char *model = hwloc_obj_get_info_by_name(o, "GPUModel");
        if (!model)
            model = hwloc_obj_get_info_by_name(o, "CoProcModel");
        if (!model && pci)
            model = hwloc_obj_get_info_by_name(pci, "PCIDevice");
        snprintf(g->model, sizeof g->model, "%s", model ? model : "");
        if (pci)
            snprintf(g->pci, sizeof g->pci, "%04x:%02x:%02x.%01x", pci->attr->pcidev.domain,
                     pci->attr->pcidev.bus, pci->attr->pcidev.dev, pci->attr->pcidev.func);
        hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(h, o);
        hwloc_const_bitmap_t set = anc && anc->cpuset ? anc->cpuset : hwloc_topology_get_topology_cpuset(h);
        g->numa = numa_of(h, set);
        hwloc_bitmap_list_snprintf(g->cpus, sizeof g->cpus, set);
        g->domain = 0;
        for (unsigned d = 0; d < t->ndomains; d++)
            if (hwloc_bitmap_intersects(t->domain_sets[d], set)) {
                g->domain = d;
                break;
            }
        pcis[t->ngpus++] = pci;
    }
    gm_free(pcis);
    return 0;
}

static int fail_load(topo_t *t, topo_t **out, err_t *err, int code, const char *spec, const char *what)
{
    int e = errno;
    topo_destroy(t);
    *out = NULL;
    if (code == GM_ENOMEM)
        return gm_err_set(err, code, "topology '%s': out of memory", spec);
    return gm_err_set(err, code, "topology '%s': %s%s%s", spec, what, e ? ": " : "", e ? strerror(e) : "");
}

static int load_spec(topo_t **out, const char *spec, err_t *err)
{
    topo_t *t = calloc(1, sizeof *t);
    if (!t)
        return gm_err_set(err, GM_ENOMEM, "topology '%s': out of memory", spec);
    t->source = dup_str(spec);
    if (!t->source)
        return fail_load(t, out, err, GM_ENOMEM, spec, "");
    if (hwloc_topology_init(&t->h) != 0) {
        t->h = NULL;
        return fail_load(t, out, err, GM_ESYS, spec, "hwloc_topology_init failed");
    }
    hwloc_topology_set_io_types_filter(t->h, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    /* PCI devices come from Linux sysfs; the libpciaccess-based "pci"
     * component adds nothing for GPUs and leaks at exit; "gl" needs X. */
    hwloc_topology_set_components(t->h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
    hwloc_topology_set_components(t->h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
    int is_file = 0;
    errno = 0;
    if (strncmp(spec, "synthetic:", 10) == 0) {
        if (hwloc_topology_set_synthetic(t->h, spec + 10) != 0) {
            errno = 0;
            return fail_load(t, out, err, GM_EFORMAT, spec,
                             "hwloc rejects the synthetic description (e.g. 'pack:1 l3:2 core:4 pu:1')");
        }
    } else if (strncmp(spec, "xml:", 4) == 0) {
        const char *path = spec + 4;
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            return fail_load(t, out, err, GM_EIO, spec, "cannot open the XML file");
        close(fd);
        /* hwloc's own XML importer, not its libxml2 plugin: the plugin leaks
         * on a file declaring an unknown encoding (fuzz finding F6,
         * '<?xml version="1.0" encoding="UTFe"?>'), and the built-in one
         * reads everything hwloc exports. hwloc reads this variable in
         * set_xml; a value the user set is kept. Topologies are loaded at
         * set-up, before any other thread reads the environment. */
        setenv("HWLOC_LIBXML_IMPORT", "0", 0);
        errno = 0;
        if (hwloc_topology_set_xml(t->h, path) != 0)
            return fail_load(t, out, err, GM_EFORMAT, spec, "hwloc cannot read it as a topology XML");
        is_file = 1;
    } else if (strcmp(spec, "this") != 0) {
        errno = 0;
        return fail_load(t, out, err, GM_EINVAL, spec,
                         "unknown form (use 'this', 'synthetic:DESCRIPTION' or 'xml:FILE')");
    }
    errno = 0;
    if (hwloc_topology_load(t->h) != 0) {
        if (is_file)
            return fail_load(t, out, err, GM_EFORMAT, spec, "hwloc cannot load it as a topology XML");
        return fail_load(t, out, err, GM_ESYS, spec, "hwloc_topology_load failed");
    }
    t->thissystem = hwloc_topology_is_thissystem(t->h);
    t->npackages = (unsigned)hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PACKAGE);
    t->nnuma = (unsigned)hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_NUMANODE);
    int rc = find_domains(t);
    if (rc == 0)
        rc = find_cores(t);
    /* PUs as the cores count them (their cpusets), not hwloc's PU objects:
     * an XML whose PU objects disagree with the cpusets (a torn PU element,
     * fuzz finding F5) would otherwise report fewer PUs than its cores hold. */
    for (unsigned c = 0; rc == 0 && c < t->ncores; c++)
        t->npus += t->cores[c].npus;
    if (rc == 0)
        rc = find_gpus(t);
    errno = 0;
    if (rc != 0)
        return fail_load(t, out, err, rc, spec, "it has no core or PU");
    *out = t;
    return 0;
}

/* hwloc 2.9's XML import does not check the sets of the objects it reads
 * and dereferences missing ones later (fuzz finding F4: SIGSEGV in
 * hwloc_bitmap_compare_first inside hwloc_topology_load). So an XML file is
 * loaded, and everything extracted from it, first in a child process; only
 * when the child gets through does this process load it. The child sends
 * load_spec's err_t through a pipe (a refusal is reported from it), so a
 * crash, an abort or a sanitizer's exit all read as EOF. Costs one fork and a second parse
 * (milliseconds for a machine-sized XML); "this" and synthetic specs are not
 * probed. */
#define XML_PROBE_TIMEOUT_MS 60000

static int probe_xml(const char *spec, err_t *err)
{
    int fds[2];
    if (pipe(fds) != 0)
        return gm_err_set(err, GM_ESYS, "topology '%s': pipe: %s", spec, strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return gm_err_set(err, GM_ESYS, "topology '%s': fork: %s", spec, strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        /* The parent reloads and reports; keep hwloc's and a sanitizer's
         * output of a crash off the caller's stderr. */
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDERR_FILENO);
            close(devnull);
        }
        /* A crash kills the child by its signal: no core file, and none of
         * the handlers a sanitizer or libFuzzer installed in the parent (they
         * would report the parent's input as a crash from the child). */
        struct rlimit nocore = {0, 0};
        (void)setrlimit(RLIMIT_CORE, &nocore);
        static const int deadly[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
        for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++)
            (void)signal(deadly[i], SIG_DFL);
        topo_t *t = NULL;
        err_t e;
        memset(&e, 0, sizeof e);
        /* The whole err_t goes back: a refusal is reported from here, so the
         * parent never runs hwloc's importer on a file it refuses (hwloc
         * leaks the objects of a half-imported file: fuzz finding F8). */
        e.code = load_spec(&t, spec, &e);
        ssize_t w = write(fds[1], &e, sizeof e);
        _exit(w == (ssize_t)sizeof e ? 0 : 1); /* no atexit handlers, no leak check of t */
    }
    close(fds[1]);
    struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
    int pr;
    do
        pr = poll(&pfd, 1, XML_PROBE_TIMEOUT_MS);
    while (pr < 0 && errno == EINTR);
    err_t child;
    ssize_t n = 0;
    if (pr > 0) {
        do
            n = read(fds[0], &child, sizeof child);
        while (n < 0 && errno == EINTR);
    }
    close(fds[0]);
    if (pr == 0)
        kill(pid, SIGKILL);
    int status = 0;
    pid_t w;
    do
        w = waitpid(pid, &status, 0);
    while (w < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof child) {
        if (child.code == 0)
            return 0; /* it loads: the caller loads it again in this process */
        child.msg[sizeof child.msg - 1] = 0;
        return gm_err_set(err, child.code, "%s", child.msg);
    }
    if (pr == 0)
        return gm_err_set(err, GM_EFORMAT, "topology '%s': hwloc could not load it (no answer in %d s)", spec,
                          XML_PROBE_TIMEOUT_MS / 1000);
    if (w == pid && WIFSIGNALED(status))
        return gm_err_set(err, GM_EFORMAT, "topology '%s': hwloc could not load it (crashed: signal %d, %s)", spec,
                          WTERMSIG(status), strsignal(WTERMSIG(status)));
    return gm_err_set(err, GM_EFORMAT, "topology '%s': hwloc could not load it (crashed: exit status %d)", spec,
                      w == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int topo_load(topo_t **out, const char *spec, err_t *err)
{
    GM_ASSERT(out != NULL);
    *out = NULL;
    if (!spec || !*spec)
        spec = "this";
    if (strncmp(spec, "xml:", 4) == 0) {
        /* An unreadable file is GM_EIO from load_spec, without a child. */
        int fd = open(spec + 4, O_RDONLY);
        if (fd >= 0) {
            close(fd);
            int rc = probe_xml(spec, err);
            if (rc)
                return rc;
        }
    }
    return load_spec(out, spec, err);
}

void topo_destroy(topo_t *t)
{
    if (!t)
        return;
    for (unsigned i = 0; t->domain_sets && i < t->ndomains; i++)
        hwloc_bitmap_free(t->domain_sets[i]);
    for (unsigned i = 0; t->core_sets && i < t->ncores; i++)
        hwloc_bitmap_free(t->core_sets[i]);
    free(t->domain_sets);
    free(t->domains);
    free(t->core_sets);
    free(t->cores);
    gm_free(t->gpus);
    free(t->source);
    if (t->h)
        hwloc_topology_destroy(t->h);
    free(t);
}

int topo_export_xml(const topo_t *t, const char *path, err_t *err)
{
    char *buf = NULL;
    int len = 0;
    if (hwloc_topology_export_xmlbuffer(t->h, &buf, &len, 0) != 0)
        return gm_err_set(err, GM_ESYS, "%s: hwloc cannot export the topology as XML", path);
    size_t n = len > 0 ? (size_t)len - 1 : 0; /* len counts the final NUL */
    int rc = gm_file_write(path, buf, n, err);
    hwloc_free_xmlbuffer(t->h, buf);
    return rc;
}

int topo_is_this_system(const topo_t *t) { return t->thissystem; }
const char *topo_source(const topo_t *t) { return t->source; }
unsigned topo_package_count(const topo_t *t) { return t->npackages; }
unsigned topo_numa_count(const topo_t *t) { return t->nnuma; }
unsigned topo_l3_count(const topo_t *t) { return t->ndomains; }
unsigned topo_core_count(const topo_t *t) { return t->ncores; }
unsigned topo_pu_count(const topo_t *t) { return t->npus; }
unsigned topo_gpu_count(const topo_t *t) { return t->ngpus; }

void topo_domain_get(const topo_t *t, unsigned i, topo_domain_t *out)
{
    GM_ASSERT(i < t->ndomains);
    *out = t->domains[i];
}

void topo_core_get(const topo_t *t, unsigned i, topo_core_t *out)
{
    GM_ASSERT(i < t->ncores);
    *out = t->cores[i];
}

void topo_gpu_get(const topo_t *t, unsigned i, topo_gpu_t *out)
{
    GM_ASSERT(i < t->ngpus);
    *out = t->gpus[i];
}
