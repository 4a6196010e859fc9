/* sealed.c - run crib from a sealed copy of itself, where a container could reach its binary.
 *
 * Kernel features: memfd_create(2) with MFD_ALLOW_SEALING, fcntl(2) F_ADD_SEALS, fexecve(3).
 *
 * crib's init stays in the container as crib itself, so /proc/1/exe is crib's binary. In a
 * user namespace no container process can open it (init is not dumpable, and the capability
 * that would pass that check, CAP_SYS_PTRACE in the host's user namespace, is never the
 * container's: see init.c). `user = no` with SYS_PTRACE is the one configuration where a
 * container holds it: it can open /proc/1/exe, and although the file cannot be written while
 * crib runs (ETXTBSY), a descriptor passed to a process that outlives every crib could write
 * it later. There, and only there (the copy costs a millisecond or two), crib first re-executes
 * itself from a sealed in-memory copy, as runc does for every container: /proc/1/exe is then a
 * file no one can write, and the binary on disk is no longer in any container's reach.
 */
#define _GNU_SOURCE
#include "sealed.h"

#include <errno.h>
#include <linux/capability.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif
#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

bool sealed_running(void)
{
        _cleanup_close_ int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
        return fd >= 0 && fcntl(fd, F_GET_SEALS) == SEALS;
}

bool sealed_needed(const struct plan *p)
{
        return !p->userns && (p->cap_bounding & (1ULL << CAP_SYS_PTRACE)) && !sealed_running();
}

int sealed_reexec(char **argv, char **envp, struct error *err)
{
        _cleanup_close_ int self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (self < 0 || fstat(self, &st) < 0)
                return error_set(err, errno, "cannot read crib's own binary");
        /* MFD_EXEC: where vm.memfd_noexec asks for it (Linux 6.3); older kernels refuse it */
        _cleanup_close_ int fd = memfd_create("crib", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
        if (fd < 0 && errno == EINVAL)
                fd = memfd_create("crib", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (fd < 0)
                return error_set(err, errno, "cannot make a sealed copy of crib");
        for (off_t done = 0; done < st.st_size;) {
                ssize_t n = sendfile(fd, self, NULL, (size_t)(st.st_size - done));
                if (n <= 0)
                        return error_set(err, n < 0 ? errno : EIO, "cannot copy crib's binary");
                done += n;
        }
        if (fcntl(fd, F_ADD_SEALS, SEALS) < 0 || fchmod(fd, 0555) < 0)
                return error_set(err, errno, "cannot seal the copy of crib");
        fexecve(fd, argv, envp);
        return error_set(err, errno, "cannot run the sealed copy of crib");
}
