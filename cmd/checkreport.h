/* checkreport.h - crib check's report for a bug report, and the comparison of two. */
#ifndef CRIB_CHECKREPORT_H
#define CRIB_CHECKREPORT_H

#include <stddef.h>

#include "base/error.h"
#include "check/check.h"

/* The report, as Markdown or as JSON, to stdout; `code` is crib check's exit status */
void check_report_markdown(const struct check_machine *m, const struct check_row *rows, size_t n,
                           int code);
void check_report_json(const struct check_machine *m, const struct check_row *rows, size_t n,
                       int code);
/* What changed from the JSON report `a` to `b`, as Markdown to stdout: 0 when no feature's
 * status changed, 1 when one did, -1 with `err` set for a file that is no such report */
int check_compare(const char *a, const char *b, struct error *err);

#endif
