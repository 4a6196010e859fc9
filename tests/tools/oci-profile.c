/* oci-profile CONFIG.json - print the seccomp profile, in crib's format, that crib's OCI front
 * end (runtime/oci/) makes of a config.json's linux.seccomp; tests/seccomp/oci-podman.t
 * compiles it and holds it to the rules the config itself states. Exit 1 with the error on bad
 * input, 3 when the config has no filter. */
#include <stdio.h>

#include "oci/oci.h"

int main(int argc, char **argv)
{
        struct oci_config c;
        struct error err;
        FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
        if (!f)
                return fprintf(stderr, "usage: oci-profile CONFIG.json\n"), 2;
        if (oci_load(argv[1], f, &c, &err) < 0)
                return fprintf(stderr, "%s\n", err.msg), 1;
        fclose(f);
        int r = c.spec.seccomp_text ? 0 : 3;
        if (c.spec.seccomp_text)
                fputs(c.spec.seccomp_text, stdout);
        oci_free(&c);
        return r;
}
