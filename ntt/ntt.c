/*
 * ntt.c — the number-theoretic transform over Fr for sizes 2^1 .. 2^28:
 * forward, inverse and coset (bellperson convention) forms, in place, natural
 * order in and out, multi-threaded on a topo/ pool. The code is the template
 * ntt/ntt_shape.h, instantiated here for BLS12-381's Fr (with the 8-lane
 * paths below) and in ntt/bn_ntt.c for BN254's Fr (the same paths on its
 * own kernels).
 *
 * DESIGN
 *
 * One transform of n = R * C points (R = 2^floor(L/2) rows, C = 2^ceil(L/2)
 * columns, the array read row-major) is the four-step factorisation written
 * as the decimation-in-frequency (DIF) network it is:
 *
 *   pass 1  for every block of NTT_COLS adjacent columns: copy the block into
 *           the worker's contiguous scratch (R x NTT_COLS), run an R-point DIF
 *           on all its columns at once, copy it back. The copy avoids the
 *           power-of-two stride between rows, which maps every row of a column
 *           onto the same cache sets. (The coset forward's shift g^(iC+j)
 *           is split: its row factor g^(iC) is applied during the copy in.)
 *   pass 2  for every row p: multiply element j by w^(rev_R(p) * j) (w the
 *           n-th root; the 1/n of the inverse folded into the first factor;
 *           for the coset forward the step is w^rev_R(p) * g, which applies
 *           the column factor g^j at no cost), then a C-point DIF on the
 *           contiguous row; for the inverse coset, position q is then
 *           multiplied by g^-(R rev_C(q)) (a table), the row's g^-rev_R(p)
 *           having joined the first factor: together g^-k for the output
 *           index k of that position (pass 3). No separate scaling pass.
 *   pass 3  a blocked in-place bit-reversal permutation: the DIF network
 *           leaves element k at position rev_n(k), and rev_n(p*C + q) =
 *           rev_C(q)*R + rev_R(p) is exactly where passes 1-2 put X[k].
 *
 * Each pass streams the array once from memory; a row (C points, 128 KiB at
 * 2^24) fits in L2, a column block (R x NTT_COLS points, 1 MiB at 2^24) in
 * L2 or L3, so the butterflies of a pass run on cached data. Butterflies are
 * radix 4 (two radix-2 stages fused in registers, halving the loads and
 * stores of radix 2). Twiddles come from tables built once per domain:
 * stage tables (w_{2h}^j for j < h, every h up to C/2: C - 1 entries) and the
 * row steps w^k for k < R, each for both directions, and the C inverse
 * coset factors: O(sqrt n) memory (2.5 MiB at 2^28; 5.6 MiB with the
 * 8-lane copies below).
 *
 * On a CPU with AVX-512 IFMA (fr_x8_enabled(), ff/ff.h) the butterflies and
 * scalings run 8 at a time on ff/fr_ifma_shape.h's kernels, which hold Fr in 5
 * limbs of 52 bits only inside a call: memory keeps fr_t. Pass 1's lanes are
 * the block's NTT_COLS = 8 columns; its first DIF step reads the array and
 * its last writes it back, so the scratch is touched only in between (no
 * copies in and out). Pass 2's lanes are 8 consecutive j while a radix-4
 * step's quarter is >= 8 (one twiddle per lane, from groups of 8 prepared
 * twiddles); its last 2-4 stages are independent DIFs on blocks of 8 or 16
 * points, run with 8 blocks as the lanes. The twiddles are prepared once
 * per domain (16 w in radix 2^52, see ff.h). Rows shorter than
 * NTT_X8_ROW_MIN and column blocks narrower than 8 take the scalar code.
 * Both paths give the same values (tests/unit/test_ntt.c).
 *
 * Threads: every pass is one topo_pool_run; a task owns whole column blocks,
 * whole rows, or whole bit-reversal tiles, so no two tasks touch the same
 * element, and a worker's scratch is indexed by its worker id.
 */
#define NTT_NAME "ntt"
#define NTT_DOMAIN_STRUCT ntt_domain
#define NTT_DOMAIN_T ntt_domain_t
#define NTT_FE fr
#define NTT_FE_T fr_t
#define NTT_FE_ONE FR_ONE
#define NTT_FE_GENERATOR FR_GENERATOR
#define NTT_X8
#include "ntt/ntt_shape.h"

/* ---- the public functions of ntt/ntt.h (the shape above, by name) ------------ */

int ntt_domain_create(ntt_domain_t **out, unsigned log_n, err_t *err) { return domain_create(out, log_n, err); }
void ntt_domain_destroy(ntt_domain_t *d) { domain_destroy(d); }
size_t ntt_domain_size(const ntt_domain_t *d) { return domain_size(d); }
unsigned ntt_domain_log_size(const ntt_domain_t *d) { return domain_log_size(d); }
size_t ntt_scratch_size(const ntt_domain_t *d, unsigned nworkers) { return scratch_size(d, nworkers); }
void ntt_forward(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool) { forward(d, a, scratch, pool); }
void ntt_inverse(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool) { inverse(d, a, scratch, pool); }
void ntt_coset_forward(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool)
{
    coset_forward(d, a, scratch, pool);
}
void ntt_coset_inverse(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool)
{
    coset_inverse(d, a, scratch, pool);
}
