/*
 * tests/unit/test_journal.c — suite "journal": mpi_journal_status, the
 * journal reader `grothmpi campaign status` uses, on journals written here
 * by hand in the format mpi/resume.c documents (each line's check is the
 * FNV-1a 64 of the text before it, computed here independently).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/mpi.h"

static unsigned long long fnv(const char *s)
{
    unsigned long long h = 14695981039346656037ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* Appends "done <name> <64 a> <64 b> 0 <check>\n" (check + delta). */
static void done_line(FILE *f, const char *name, unsigned long long delta)
{
    char body[300];
    snprintf(body, sizeof body, "done %s %064d %064d 0", name, 0, 1);
    fprintf(f, "%s %016llx\n", body, fnv(body) + delta);
}

Test(journal, counts_distinct_units_whose_lines_check)
{
    char dir[] = "/tmp/gm-journal-XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    mpi_journal_status_t js;
    err_t err;
    cr_assert_eq(mpi_journal_status(&js, dir, &err), 0, "%s", err.msg);
    cr_expect(!js.exists && js.done == 0);

    snprintf(path, sizeof path, "%s/journal", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "grothmpi-journal 1 circuit=test-synthetic-64 vk=%064d\n", 0);
    done_line(f, "s1-p0", 0);
    done_line(f, "s1-p1", 0);
    done_line(f, "s1-p0", 0); /* proved again: counted once */
    done_line(f, "s2-p0", 1); /* its check does not hold */
    fprintf(f, "done s3-p0 %064d", 0); /* torn: no newline */
    fclose(f);
    cr_assert_eq(mpi_journal_status(&js, dir, &err), 0, "%s", err.msg);
    cr_expect(js.exists);
    cr_expect_eq(js.done, 2);
    cr_expect_eq(js.torn, 2);

    f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "done s1-p0\n");
    fclose(f);
    cr_expect_eq(mpi_journal_status(&js, dir, &err), GM_EFORMAT);
    cr_expect(strstr(err.msg, path) && strstr(err.msg, "line 1"), "%s", err.msg);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0);
}
