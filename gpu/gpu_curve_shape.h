/*
 * gpu/gpu_curve_shape.h — the host work of gpu.c that depends on the
 * curve's types (ff/ and ec/), written once: the NTT tables, the
 * conversion of bases to the device layout, the combination of the window
 * sums, and the injected corruptions. A template, not a header: gpu.c
 * defines the parameters, includes it once per curve and reaches the
 * functions through the gpu_curve_ops_t it defines (GC_OPS), so that the
 * rest of gpu.c is written once over untyped pointers.
 *
 * Parameters (#define before the #include; all are #undef'd at the end):
 *   GC_FR(x), GC_G1(x)   fr_x | bn_fr_x, g1_x | bn_g1_x (ff/ff.h, ec/ec.h)
 *   GC_FR_ONE, GC_FR_GEN FR_ONE | BN254_FR_ONE, FR_GENERATOR | BN254_FR_GENERATOR
 *   GC_G1_GEN            G1_GENERATOR | BN254_G1_GENERATOR
 *   GC_FN(x)             the instantiation's name of x (x_bls, x_bn)
 *   GC_OPS               the name of its gpu_curve_ops_t
 */
#ifndef GC_FN
#error "gpu_curve_shape.h is a template: define GC_FR, GC_G1, GC_FR_ONE, GC_FR_GEN, GC_G1_GEN, GC_FN, GC_OPS"
#endif

/* out[k] = base^k * s for k < count. */
static void GC_FN(powers)(GC_FR(t) *out, const GC_FR(t) *base, const GC_FR(t) *s, size_t count)
{
    GC_FR(t) x = *s;
    for (size_t k = 0; k < count; k++) {
        out[k] = x;
        GC_FR(mul)(&x, &x, base);
    }
}

/* A scale table for factor(i) = x^i * s: lo[k] = x^k s, hi[m] = x^(4096 m). */
static void GC_FN(scale_tab)(gpu_scale_t *t, GC_FR(t) *hi, GC_FR(t) *lo, const GC_FR(t) *x, const GC_FR(t) *s,
                             size_t nhi)
{
    GC_FR(t) x4096;
    uint64_t e = GPU_SCALE_NLO;
    GC_FR(pow)(&x4096, x, &e, 1);
    GC_FN(powers)(lo, x, s, GPU_SCALE_NLO);
    GC_FN(powers)(hi, &x4096, &GC_FR_ONE, nhi);
    t->hi = hi;
    t->lo = lo;
}

/* The tables of 2^log_n in mem (tabs_values(log_n) values): the twiddle
 * halves of ff/'s root of unity, the scale tables of the generator. */
static void GC_FN(tabs_fill)(gpu_ntt_tabs_t *t, void *mem, unsigned log_n)
{
    GC_FR(t) *p = mem, w, wb, g, gi, n1, one_over;
    GC_FR(root_of_unity)(&w, log_n);
    uint64_t e = t->tw_nlo;
    GC_FR(pow)(&wb, &w, &e, 1);
    GC_FN(powers)(p, &w, &GC_FR_ONE, t->tw_nlo);
    t->tw_lo = p;
    p += t->tw_nlo;
    GC_FN(powers)(p, &wb, &GC_FR_ONE, t->tw_nhi);
    t->tw_hi = p;
    p += t->tw_nhi;
    size_t shi = GPU_SCALE_NHI(log_n);
    g = GC_FR_GEN;
    GC_FR(inv)(&gi, &g);
    GC_FR(set_u64)(&n1, (uint64_t)1 << log_n);
    GC_FR(inv)(&one_over, &n1);
    GC_FN(scale_tab)(&t->g, p, p + shi, &g, &GC_FR_ONE, shi);
    p += shi + GPU_SCALE_NLO;
    GC_FN(scale_tab)(&t->gn, p, p + shi, &g, &one_over, shi);
    p += shi + GPU_SCALE_NLO;
    GC_FN(scale_tab)(&t->gin, p, p + shi, &gi, &one_over, shi);
    p += shi + GPU_SCALE_NLO;
    GC_FN(scale_tab)(&t->n1, p, p + shi, &GC_FR_ONE, &one_over, shi);
}

/* *out (GC_G1(jac_t)) = sum_w 2^(c w) wsum[w]: c doublings per window from
 * the top. */
static void GC_FN(combine)(void *out, const void *wsum, unsigned c)
{
    const GC_G1(xyzz_t) *ws = wsum;
    unsigned nwin = 255 / c + 1;
    GC_G1(xyzz_t) acc = ws[nwin - 1];
    for (unsigned w = nwin - 1; w-- > 0;) {
        for (unsigned i = 0; i < c; i++)
            GC_G1(xyzz_dbl)(&acc, &acc);
        GC_G1(xyzz_add)(&acc, &acc, &ws[w]);
    }
    GC_G1(xyzz_to_jac)(out, &acc);
}

/* Points [i0, i0 + n) of src (GC_G1(affine_t)) in the device layout at dst
 * (x, y; infinity as zeros). */
static void GC_FN(conv)(void *dst, const void *src, size_t i0, size_t n)
{
    const GC_G1(affine_t) *s = (const GC_G1(affine_t) *)src + i0;
    const size_t fb = sizeof s->x;
    uint8_t *d = dst;
    for (size_t i = 0; i < n; i++, d += 2 * fb) {
        if (s[i].inf) {
            memset(d, 0, 2 * fb);
        } else {
            memcpy(d, &s[i].x, fb);
            memcpy(d + fb, &s[i].y, fb);
        }
    }
}

static void GC_FN(jac_set_inf)(void *out) { GC_G1(jac_set_inf)(out); }

/* *out += *part (GC_G1(jac_t)). */
static void GC_FN(jac_add)(void *out, const void *part) { GC_G1(add)(out, out, part); }

/* The injected corruptions (GROTHMPI_GPU_FAULT=corrupt): an MSM's sum plus
 * the generator, a transform's first value plus one. */
static void GC_FN(spoil_msm)(void *out) { GC_G1(add_mixed)(out, out, &GC_G1_GEN); }
static void GC_FN(spoil_ntt)(void *a) { GC_FR(add)(a, a, &GC_FR_ONE); }

static const gpu_curve_ops_t GC_OPS = {
    sizeof(GC_G1(jac_t)), sizeof(GC_G1(xyzz_t)), sizeof(GC_G1(affine_t)),
    GC_FN(tabs_fill),     GC_FN(combine),        GC_FN(conv),
    GC_FN(jac_set_inf),   GC_FN(jac_add),        GC_FN(spoil_msm),
    GC_FN(spoil_ntt),
};

#undef GC_FR
#undef GC_G1
#undef GC_FR_ONE
#undef GC_FR_GEN
#undef GC_G1_GEN
#undef GC_FN
#undef GC_OPS
