/* cli/cmd_params.c — `grothmpi params`: parameter files by hand.
 *
 *   digest FILE                   the file's Filecoin-style digest (BLAKE2b-512,
 *                                 first 32 hex digits) and size
 *   verify FILE [--manifest M]    the digest against a manifest: the cache's
 *                                 manifest.json (default: next to FILE), or a
 *                                 Filecoin parameters.json; exit 0 only when
 *                                 FILE is listed there with its digest
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "params/params.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi params <digest|verify> FILE [--manifest M]\n\n"
               "  grothmpi params digest FILE\n"
               "      prints FILE's digest: BLAKE2b-512 of the whole file, the first 32 hex\n"
               "      digits (as Filecoin's parameters.json records it), and its size\n"
               "  grothmpi params verify FILE [--manifest M]\n"
               "      checks FILE against the entry for its file name in M (default: the\n"
               "      manifest.json next to FILE; a Filecoin parameters.json works too);\n"
               "      exit 0: listed with this digest; 1: another digest, not listed, or an error\n");
}

int cmd_params(int argc, char **argv)
{
    static const struct option opts[] = {{"manifest", required_argument, 0, 'm'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "digest") != 0 && strcmp(sub, "verify") != 0) {
        fprintf(stderr, "grothmpi: params: unknown subcommand '%s' (grothmpi params --help)\n", sub);
        return 2;
    }
    const char *manifest = NULL;
    int o;
    optind = 1;
    while ((o = getopt_long(argc - 1, argv + 1, "", opts, NULL)) != -1) {
        switch (o) {
        case 'm': manifest = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 2) {
        fprintf(stderr, "grothmpi: params %s: one parameter file expected (grothmpi params --help)\n", sub);
        return 2;
    }
    const char *file = argv[1 + optind];
    err_t err;
    gm_err_clear(&err);
    char digest[PARAMS_DIGEST_HEX + 1];
    uint64_t size = 0;
    if (params_file_digest(digest, &size, file, &err)) {
        fprintf(stderr, "grothmpi: params %s: %s\n", sub, err.msg);
        return 1;
    }
    if (!strcmp(sub, "digest")) {
        printf("%s  %llu  %s\n", digest, (unsigned long long)size, file);
        return 0;
    }
    /* dirname and basename may modify their argument: copies. */
    char dbuf[4096], bbuf[4096], mbuf[4200];
    snprintf(dbuf, sizeof dbuf, "%s", file);
    snprintf(bbuf, sizeof bbuf, "%s", file);
    const char *name = basename(bbuf);
    if (!manifest) {
        snprintf(mbuf, sizeof mbuf, "%s/%s", dirname(dbuf), PARAMS_MANIFEST_NAME);
        manifest = mbuf;
    }
    bool listed = false;
    if (params_manifest_check(&listed, manifest, name, digest, file, &err)) {
        fprintf(stderr, "grothmpi: params verify: %s\n", err.msg);
        return 1;
    }
    if (!listed) {
        fprintf(stderr, "grothmpi: params verify: %s: %s is not listed in %s (digest %s)\n", file, name, manifest,
                digest);
        return 1;
    }
    printf("params verify: %s: digest %s matches %s\n", file, digest, manifest);
    return 0;
}
