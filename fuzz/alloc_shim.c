/* fuzz/alloc_shim.c — jemalloc's non-standard entry points, as base/base.c
 * calls them (mallocx with MALLOCX_ALIGN / MALLOCX_ZERO, sallocx, dallocx),
 * served by the C allocator so that AddressSanitizer and LeakSanitizer see
 * every gm_alloc block. Linked into the harnesses instead of -ljemalloc.
 * The block is exactly the size asked for (no rounding up), so a read one
 * byte past a gm_alloc'd array is reported. */
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

#include <jemalloc/jemalloc.h>

void *mallocx(size_t size, int flags)
{
    size_t lg = (size_t)flags & 0x3f;     /* MALLOCX_LG_ALIGN bits */
    size_t align = lg ? (size_t)1 << lg : 16;
    if (align < sizeof(void *))
        align = sizeof(void *);
    void *p = NULL;
    if (posix_memalign(&p, align, size ? size : 1) != 0)
        return NULL;
    if (flags & MALLOCX_ZERO)
        memset(p, 0, size);
    return p;
}

size_t sallocx(const void *ptr, int flags)
{
    (void)flags;
    return malloc_usable_size((void *)ptr);
}

void dallocx(void *ptr, int flags)
{
    (void)flags;
    free(ptr);
}
