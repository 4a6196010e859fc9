/* capname.h - capability names, one way everywhere: "NET_RAW" for people, and any of NET_RAW,
 * CAP_NET_RAW or net_raw read back (capabilities(7); a capability newer than crib's table is
 * named by its number). */
#ifndef CRIB_CAPNAME_H
#define CRIB_CAPNAME_H

#include <stddef.h>
#include <stdint.h>

/* The capability number of `word` (NET_RAW, CAP_NET_RAW, net_raw, any case), or -1. */
int capname_parse(const char *word);
/* "NET_RAW" for 13: upper case, without CAP_; "41" for a number the table has no name for;
 * NULL outside 0..63. */
const char *capname_of(int cap);
/* "NET_RAW SYS_ADMIN" for a set (in number order, separated by `sep`), "none" when empty; cut
 * short at a whole name when `buf` is full. */
void capname_list(uint64_t caps, const char *sep, char *buf, size_t len);

#endif
