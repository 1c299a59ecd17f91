/*
 * gpu/gpu_stub.c — gpu_cuda.cu's entry points in a build without nvcc:
 * gpuc_create says "built without CUDA" (GM_ENOTSUP), so gpu_init fails and
 * no other entry point is reachable with a context; they return GM_ENOTSUP
 * all the same. Empty when GM_HAVE_CUDA is defined.
 */
#include "gpu/gpu_internal.h"

#ifndef GM_HAVE_CUDA

int gpuc_create(gpuc_t **out, int device, err_t *err)
{
    (void)device;
    *out = NULL;
    return gm_err_set(err, GM_ENOTSUP, "gpu: built without CUDA (no nvcc at build time): proving on the CPU");
}

int gpuc_device_count(int *n, err_t *err)
{
    *n = 0;
    return gm_err_set(err, GM_ENOTSUP, "gpu: built without CUDA (no nvcc at build time)");
}

void gpuc_destroy(gpuc_t *g) { (void)g; }

void gpuc_info(gpuc_info_t *out, gpuc_t *g)
{
    (void)g;
    *out = (gpuc_info_t){.device = -1};
}

static int nocuda(err_t *err) { return gm_err_set(err, GM_ENOTSUP, "gpu: built without CUDA"); }

int gpuc_malloc(gpuc_t *g, void **p, size_t bytes, const char *what, err_t *err)
{
    (void)g, (void)bytes, (void)what;
    *p = NULL;
    return nocuda(err);
}

void gpuc_free(gpuc_t *g, void *p) { (void)g, (void)p; }

int gpuc_host_alloc(gpuc_t *g, void **p, size_t bytes, const char *what, err_t *err)
{
    (void)g, (void)bytes, (void)what;
    *p = NULL;
    return nocuda(err);
}

void gpuc_host_free(gpuc_t *g, void *p) { (void)g, (void)p; }

int gpuc_h2d(gpuc_t *g, void *dst, const void *src, size_t bytes, err_t *err)
{
    (void)g, (void)dst, (void)src, (void)bytes;
    return nocuda(err);
}

int gpuc_arena(gpuc_t *g, size_t bytes, err_t *err)
{
    (void)g, (void)bytes;
    return nocuda(err);
}

void *gpuc_arena_ptr(gpuc_t *g)
{
    (void)g;
    return NULL;
}

int gpuc_msm_bytes(gpuc_t *g, gpu_curve_t k, size_t n, unsigned c, size_t max_items, unsigned nbuf, size_t *bytes,
                   err_t *err)
{
    (void)g, (void)k, (void)n, (void)c, (void)max_items, (void)nbuf;
    *bytes = 0;
    return nocuda(err);
}

int gpuc_msm_g1(gpuc_t *g, gpu_curve_t kc, void *wsum, const void *dev_bases, size_t n, unsigned c, size_t k,
                size_t max_items, unsigned nbuf, size_t arena_off, gpuc_pack_fn pack, void *pack_arg, err_t *err)
{
    (void)g, (void)kc, (void)wsum, (void)dev_bases, (void)n, (void)c, (void)k, (void)max_items, (void)nbuf;
    (void)arena_off, (void)pack, (void)pack_arg;
    return nocuda(err);
}

int gpuc_ntt(gpuc_t *g, gpu_curve_t k, void *a, const gpu_ntt_tabs_t *t, int dir, err_t *err)
{
    (void)g, (void)k, (void)a, (void)t, (void)dir;
    return nocuda(err);
}

int gpuc_h(gpuc_t *g, fr_t *a, const fr_t *b, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z, err_t *err)
{
    (void)g, (void)a, (void)b, (void)c, (void)t, (void)z;
    return nocuda(err);
}

double gpuc_last_ms(gpuc_t *g)
{
    (void)g;
    return 0;
}

#else
typedef int gpu_stub_empty_t; /* ISO C forbids an empty translation unit */
#endif
