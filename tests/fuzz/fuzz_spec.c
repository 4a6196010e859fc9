/* fuzz_spec - libFuzzer target: the INI tokenizer and the spec table (runtime/base/ini.c, spec/).
 *
 * The input is a crib.ini(5) file. spec_load() must either accept it or refuse it with a
 * FILE:LINE: message, never crash, leak or read out of bounds (the fuzz build runs under ASan
 * and UBSan). Every accepted spec is freed again, so a leak in either path shows. Seeds:
 * tests/data/invalid/, cmd/example.ini (copied by tests/fuzz/run).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct spec s;
        struct error err;
        if (size == 0)
                return 0; /* fmemopen refuses a zero-size buffer */
        FILE *f = fmemopen((void *)data, size, "r");
        if (!f)
                return 0;
        /* both modes: the command line may supply the args, or the spec must */
        bool from_cli = data[size - 1] & 1;
        if (spec_load("fuzz.ini", f, from_cli, &s, &err) == 0) {
                /* the getters walk the same tables: exercise them on what was accepted */
                char where[512];
                for (size_t i = 0; i < SPEC_NKEYS; i++) {
                        (void)spec_line(&s, (enum spec_key)i);
                        spec_origin_text(&s, (enum spec_key)i, where, sizeof where);
                }
                spec_free(&s);
        } else if (strncmp(err.msg, "fuzz.ini:", 9)) {
                /* bad input is refused with FILE:LINE: first (crib.ini(5), issue 11) */
                fprintf(stderr, "refusal without 'fuzz.ini:LINE:': %s\n", err.msg);
                abort();
        }
        fclose(f);
        return 0;
}
