/* swap-race A B SECONDS - exchange the directories A and B with renameat2(RENAME_EXCHANGE), as
 * fast as it can, until SECONDS have passed (or it is killed); then print the number of swaps.
 * The attacker of tests/e2e/12-rootfs-devices.t: a local user who can write a rootfs's parent
 * and swaps the rootfs with a decoy while crib starts. Exit 1 when the first exchange fails. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int main(int argc, char **argv)
{
        if (argc != 4)
                return fprintf(stderr, "usage: swap-race A B SECONDS\n"), 2;
        time_t end = time(NULL) + atoi(argv[3]);
        unsigned long n = 0;
        while (time(NULL) < end) {
                for (int i = 0; i < 1000; i++, n++)
                        if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2],
                                    RENAME_EXCHANGE) < 0 &&
                            n == 0)
                                return fprintf(stderr, "swap-race: renameat2: %s\n",
                                               strerror(errno)),
                                       1;
        }
        printf("%lu\n", n);
        return 0;
}
