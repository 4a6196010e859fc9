/* ini-dump FILE - parse FILE with crib's INI tokenizer and print "section.key=value" lines;
 * the e2e tests use it to read `crib check --format=ini`. Exit 1 with the error on bad input. */
#include <stdio.h>

#include "base/ini.h"

int main(int argc, char **argv)
{
        struct ini_file ini;
        struct error err;
        FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
        if (!f)
                return fprintf(stderr, "usage: ini-dump FILE\n"), 2;
        if (ini_parse(f, argv[1], &ini, &err) < 0)
                return fprintf(stderr, "%s\n", err.msg), 1;
        for (size_t i = 0; i < ini.n; i++)
                if (ini.entries[i].key)
                        printf("%s.%s=%s\n", ini.entries[i].section, ini.entries[i].key,
                               ini.entries[i].value);
        ini_free(&ini);
        fclose(f);
        return 0;
}
