/* fuzz/fuzz_shape.c — the shape cache file (cs_shape_load, synth/synth.h).
 * Input: the file. It is written to <tmpdir>/<id>.shape, where <id> is the
 * circuit id the file's header names when that is a valid id (so seeds of any
 * circuit load), else "fuzz".
 * Properties: a loaded shape satisfies what cs_shape_t promises (n_rows =
 * n_constraints + n_inputs, row pointers from 0 to nnz and non-decreasing,
 * columns below n_inputs + n_aux, sorted and without duplicates in a row,
 * coefficient indices in the table, coefficients 0 and 1 are 1 and -1);
 * saving it again gives the same bytes; the density counts and the a/b/c
 * product run on it (small shapes); a refusal is documented, with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "synth/synth.h"

FUZZ_INIT_FF_ONLY()

static void id_of(char id[101], const uint8_t *data, size_t size)
{
    strcpy(id, "fuzz");
    if (size < 12)
        return;
    uint32_t n;
    memcpy(&n, data + 8, 4);
    if (n == 0 || n > 100 || size < 12 + (size_t)n || data[12] == '.')
        return;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t ch = data[12 + i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
              ch == '_' || ch == '-'))
            return;
    }
    memcpy(id, data + 12, n);
    id[n] = '\0';
}

static void check_shape(const cs_shape_t *sh, const uint8_t *data, size_t size, const char *id)
{
    FUZZ_CHECK(sh->n_rows == sh->n_constraints + sh->n_inputs, "rows != constraints + inputs");
    uint64_t ncols = sh->n_inputs + sh->n_aux;
    FUZZ_CHECK(sh->n_coeffs >= 2, "coefficient table shorter than 2");
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    FUZZ_CHECK(fr_is_one(&sh->coeffs[0]), "coefficient 0 is not 1");
    FUZZ_CHECK(fr_eq(&sh->coeffs[1], &minus_one), "coefficient 1 is not -1");
    for (int m = 0; m < 3; m++) {
        const cs_matrix_t *mx = &sh->m[m];
        FUZZ_CHECK(mx->row_ptr[0] == 0, "row_ptr[0] != 0");
        for (uint64_t r = 0; r < sh->n_rows; r++) {
            FUZZ_CHECK(mx->row_ptr[r] <= mx->row_ptr[r + 1], "row pointers decrease");
            for (uint64_t k = mx->row_ptr[r]; k < mx->row_ptr[r + 1]; k++) {
                FUZZ_CHECK(mx->col[k] < ncols, "column out of range");
                FUZZ_CHECK(mx->coeff[k] < sh->n_coeffs, "coefficient index out of range");
                FUZZ_CHECK(k == mx->row_ptr[r] || mx->col[k - 1] < mx->col[k],
                           "columns of a row not increasing (unsorted or duplicate)");
            }
        }
    }
    /* Saving it again reproduces the file. */
    err_t err;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/save", fuzz_tmpdir());
    (void)mkdir(dir, 0700);
    FUZZ_CHECK(cs_shape_save(sh, dir, id, &err) == 0, err.msg);
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.shape", dir, id);
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL, "saved shape missing");
    uint8_t *back = malloc(size + 1);
    size_t got = fread(back, 1, size + 1, f);
    fclose(f);
    remove(path);
    FUZZ_CHECK(got == size && memcmp(back, data, size) == 0, "shape does not round-trip through cs_shape_save");
    free(back);
    /* Consumers: density counts and, for small shapes, a/b/c on z = (1, 0...). */
    groth16_counts_t counts;
    (void)groth16_shape_counts(&counts, sh, &err);
    if (sh->n_rows <= (1u << 14) && ncols <= (1u << 14)) {
        fr_t *z = calloc(ncols + 3 * sh->n_rows + 1, sizeof(fr_t));
        FUZZ_CHECK(z != NULL, "out of memory");
        z[0] = FR_ONE;
        fr_t *a = z + ncols, *b = a + sh->n_rows, *c = b + sh->n_rows;
        cs_shape_abc(sh, z, z + sh->n_inputs, a, b, c, NULL);
        free(z);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char id[101];
    id_of(id, data, size);
    char name[128];
    snprintf(name, sizeof name, "%s.shape", id);
    fuzz_write(name, data, size);
    cs_shape_t *sh = (cs_shape_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = cs_shape_load(&sh, fuzz_tmpdir(), id, &err);
    if (rc) {
        FUZZ_CHECK(sh == NULL, "*out not NULL after a failure");
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENOMEM, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    check_shape(sh, data, size, id);
    cs_shape_free(sh);
    return 0;
}
