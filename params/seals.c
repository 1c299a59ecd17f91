/*
 * params/seals.c — PoRep seals verified from their public data, as
 * rust-fil-proofs' verify_seal / verify_batch_seal do, against verifying
 * keys found by Filecoin's file names in a parameter directory and checked
 * against its manifest (what `grothmpi porep verify-seal` runs).
 *
 * Why here: the keys are parameter files (their names, digests and the
 * manifest are this folder's), and the work needs both groth16/ (keys,
 * proofs, the batch verifier) and synth/porep/ (configs, public inputs),
 * which sit below.
 *
 * Each seal is prepared on its own (its key loaded once per path, its
 * partition proofs decoded, every public input derived); then all
 * partitions of all prepared seals that share a key go through one batch
 * verification (one multi-pairing with random weights). A batch that fails
 * is redone per seal, so the seals that fail are named.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "params/params.h"

typedef struct {
    char path[GM_PATH_MAX];
    groth16_vk_t vk;
    groth16_pvk_t pvk;
    int status; /* 0 loaded; else the error, in msg */
    char msg[GM_ERR_MSG_LEN];
} vkey_t;

typedef struct {
    vkey_t *k;
    size_t n;
    uint64_t cap;
} keys_t;

/* The key at path, loaded once (its digest checked against manifest's entry
 * for its file name first, when manifest is not NULL). NULL only when out of
 * memory. Keys never move once loaded: the array grows before use only. */
static vkey_t *key_get(keys_t *ks, size_t max, const char *path, const char *manifest)
{
    for (size_t i = 0; i < ks->n; i++)
        if (strcmp(ks->k[i].path, path) == 0)
            return &ks->k[i];
    if (ks->n == max)
        return NULL;
    vkey_t *k = &ks->k[ks->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->path, sizeof k->path, "%s", path);
    err_t err;
    if (manifest) {
        char digest[PARAMS_DIGEST_HEX + 1];
        const char *slash = strrchr(path, '/');
        bool listed = false;
        if ((k->status = params_file_digest(digest, NULL, path, &err)) ||
            (k->status = params_manifest_check(&listed, manifest, slash ? slash + 1 : path, digest, path, &err))) {
            snprintf(k->msg, sizeof k->msg, "%s", err.msg);
            return k;
        }
        if (!listed) {
            k->status = gm_err_set(&err, GM_EVERIFY, "%s: not listed in %s (digest %s)", path, manifest, digest);
            snprintf(k->msg, sizeof k->msg, "%s", err.msg);
            return k;
        }
    }
    if ((k->status = groth16_vk_load(&k->vk, path, &err)) ||
        (k->status = groth16_pvk_prepare(&k->pvk, &k->vk, &err)))
        snprintf(k->msg, sizeof k->msg, "%s", err.msg);
    return k;
}

static void keys_free(keys_t *ks)
{
    for (size_t i = 0; i < ks->n; i++) {
        groth16_pvk_free(&ks->k[i].pvk);
        groth16_vk_free(&ks->k[i].vk);
    }
    gm_free(ks->k);
}

/* Records why seal s fails (the message truncated to fit). */
static void seal_fail(porep_seal_info_t *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seal_fail(porep_seal_info_t *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->status = code;
}

/* A seal ready to verify: its key, its partition proofs and inputs. */
typedef struct {
    vkey_t *key;
    groth16_proof_t *proofs;
    fr_t *inputs;
    size_t n_in;
} prepared_t;

/* Derives everything verify_seal derives for s; on failure s->status and
 * s->msg say why. */
static void prepare(prepared_t *p, porep_seal_info_t *s, const params_seal_keys_t *o, keys_t *ks, size_t max)
{
    err_t err;
    int rc;
    porep_public_t pub;
    porep_graph_t g;
    memset(&g, 0, sizeof g);
    const porep_config_t *c = &s->cfg;
    char size[32];
    porep_sector_size_format(size, sizeof size, c->shape.sector_size);
    if (c->kind == POREP_CHAL_NI && s->proof_len != (size_t)c->partitions * GROTH16_PROOF_BYTES) {
        seal_fail(s, GM_ENOTSUP, "%s: a NonInteractivePoRep proof of %zu bytes is a SnarkPack aggregate of %u "
                  "partition proofs; verifying aggregates is not supported", s->label, s->proof_len, c->partitions);
        return;
    }
    if (s->proof_len != (size_t)c->partitions * GROTH16_PROOF_BYTES) {
        seal_fail(s, GM_EFORMAT, "%s: proof: %zu bytes; the seal's config (%s, %s) has %u partition%s of 192 bytes",
                  s->label, s->proof_len, size, porep_chal_kind_name(c->kind), c->partitions,
                  c->partitions == 1 ? "" : "s");
        return;
    }
    char vkpath[GM_PATH_MAX];
    if (o->vk)
        snprintf(vkpath, sizeof vkpath, "%s", o->vk);
    else if ((rc = porep_param_find(NULL, vkpath, sizeof vkpath, o->params_dir, c, &err))) {
        seal_fail(s, rc, "%s: %s", s->label, err.msg);
        return;
    }
    if (!(p->key = key_get(ks, max, vkpath, o->manifest))) {
        seal_fail(s, GM_ENOMEM, "%s: out of memory", s->label);
        return;
    }
    if (p->key->status) {
        seal_fail(s, p->key->status, "%s: %s", s->label, p->key->msg);
        return;
    }
    p->n_in = porep_public_input_count(c);
    if (p->key->vk.n_ic != p->n_in + 1) {
        seal_fail(s, GM_EINVAL, "%s: %s has %zu ic points (%zu public inputs); a seal of %s has %zu public inputs "
                  "per partition (3 + 18 x %u challenges): not this circuit's verifying key", s->label, vkpath,
                  p->key->vk.n_ic, p->key->vk.n_ic ? p->key->vk.n_ic - 1 : 0, size, p->n_in, c->challenges);
        return;
    }
    p->proofs = gm_alloc(c->partitions * sizeof *p->proofs);
    p->inputs = gm_alloc(c->partitions * p->n_in * sizeof *p->inputs);
    if (!p->proofs || !p->inputs) {
        seal_fail(s, GM_ENOMEM, "%s: out of memory", s->label);
        return;
    }
    if ((s->status = porep_seal_info_public(&pub, s, &err)) || (s->status = porep_config_graph(&g, c, &err))) {
        snprintf(s->msg, sizeof s->msg, "%s", err.msg);
        porep_graph_destroy(&g);
        return;
    }
    for (unsigned k = 0; k < c->partitions && !s->status; k++) {
        char what[160];
        snprintf(what, sizeof what, "%s: proof of partition %u", s->label, k);
        if ((s->status = groth16_proof_from_bytes(&p->proofs[k], s->proof + (size_t)k * GROTH16_PROOF_BYTES, what,
                                                  &err)) ||
            (s->status = porep_public_inputs(p->inputs + k * p->n_in, &pub, &g, k, &err)))
            snprintf(s->msg, sizeof s->msg, "%s", err.msg);
    }
    porep_graph_destroy(&g);
}

/* Verifies every prepared seal (status 0) that uses key: in one batch, and
 * when that fails, seal by seal. */
static void verify_key(vkey_t *key, porep_seal_info_t *seals, prepared_t *pr, size_t n)
{
    err_t err;
    size_t np = 0, ni = 0;
    for (size_t i = 0; i < n; i++)
        if (seals[i].status == 0 && pr[i].key == key)
            np += seals[i].cfg.partitions, ni = pr[i].n_in;
    if (np == 0)
        return;
    groth16_proof_t *bp = gm_alloc(np * sizeof *bp);
    fr_t *bi = gm_alloc(np * ni * sizeof *bi);
    bool batch_ok = false;
    if (bp && bi) {
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            if (seals[i].status || pr[i].key != key)
                continue;
            unsigned parts = seals[i].cfg.partitions;
            memcpy(bp + at, pr[i].proofs, parts * sizeof *bp);
            memcpy(bi + at * ni, pr[i].inputs, parts * ni * sizeof *bi);
            at += parts;
        }
        batch_ok = groth16_verify_batch(&key->pvk, bp, bi, ni, np, &err) == 0;
    }
    gm_free(bp);
    gm_free(bi);
    if (batch_ok)
        return;
    /* without the batch's memory, or after it failed: seal by seal, which names the failures */
    for (size_t i = 0; i < n; i++) {
        if (seals[i].status || pr[i].key != key)
            continue;
        int r = groth16_verify_batch(&key->pvk, pr[i].proofs, pr[i].inputs, ni, seals[i].cfg.partitions, &err);
        if (r)
            seal_fail(&seals[i], r, "%s: the proof does not verify against the public inputs derived from its "
                      "comm_r, comm_d, prover_id, sector_id, ticket, seed and config (%s)", seals[i].label,
                      key->path);
    }
}

int params_seals_verify(porep_seal_info_t *seals, size_t n, const params_seal_keys_t *keys, err_t *err)
{
    GM_ASSERT(!keys->vk != !keys->params_dir);
    /* one key per seal at most, allocated up front so pointers to keys stay valid */
    keys_t ks = {0};
    prepared_t *pr = gm_calloc(n ? n : 1, sizeof *pr);
    if (!pr || !gm_grow((void **)&ks.k, &ks.cap, n ? n : 1, sizeof *ks.k, 0)) {
        gm_free(pr);
        return gm_err_set(err, GM_ENOMEM, "out of memory for %zu seals", n);
    }
    for (size_t i = 0; i < n; i++)
        if (seals[i].status == 0)
            prepare(&pr[i], &seals[i], keys, &ks, n);
    for (size_t k = 0; k < ks.n; k++)
        verify_key(&ks.k[k], seals, pr, n);
    for (size_t i = 0; i < n; i++) {
        gm_free(pr[i].proofs);
        gm_free(pr[i].inputs);
    }
    gm_free(pr);
    keys_free(&ks);
    return 0;
}
