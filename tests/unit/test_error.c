/* test_error.c - runtime/base/error.c: messages, context, remedies, kinds and exit statuses,
 * and what happens when each overflows its fixed-size field (the error crosses the sync socket
 * as it is, so it never grows). */
#include <errno.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/error.h"

int main(void)
{
        struct error err;

        ok(error_set(&err, ENOENT, "cannot open '%s'", "x") == -1, "error_set returns -1");
        is_str(err.msg, "cannot open 'x'", "the message");
        ok(err.errnum == ENOENT && err.kind == ERROR_SETUP && !err.hint[0],
           "errno kept, kind setup, no hint");

        error_hint(&err, "first remedy");
        error_hint(&err, "second %d", 2);
        is_str(err.hint, "first remedy\nsecond 2", "hints are lines, in order");
        error_wrap(&err, "mount %s", "/proc");
        is_str(err.msg, "mount /proc: cannot open 'x'", "wrap puts the context in front");
        ok(err.errnum == ENOENT, "wrap keeps the errno");
        is_str(err.hint, "first remedy\nsecond 2", "wrap keeps the hints");

        error_at(&err, "spec.ini", 7, "unknown key '%s'", "k");
        is_str(err.msg, "spec.ini:7: unknown key 'k'", "error_at: FILE:LINE: message");
        ok(err.errnum == 0 && !err.hint[0], "error_at: no errno, and the old hints are gone");
        error_at_errno(&err, EACCES, "spec.ini", 3, "cannot open the rootfs '%s'", "/r");
        ok(err.errnum == EACCES && !strcmp(err.msg, "spec.ini:3: cannot open the rootfs '/r'"),
           "error_at_errno: FILE:LINE: message, and the errno");
        error_at(&err, "spec.ini", 0, "empty");
        is_str(err.msg, "spec.ini: empty", "error_at without a line: FILE: message");

        /* kinds and exit statuses */
        error_set(&err, 0, "setup");
        ok(error_exit_status(&err) == EXIT_CRIB_ERROR, "a setup error exits 125");
        ok(error_kind(&err, ERROR_EXEC_NOTFOUND) == -1 && error_exit_status(&err) == 127,
           "not found exits 127");
        is_str(err.msg, "setup", "error_kind keeps the message");
        error_kind(&err, ERROR_EXEC_FAILED);
        ok(error_exit_status(&err) == 126, "cannot execute exits 126");
        error_set(&err, 0, "again");
        ok(err.kind == ERROR_SETUP, "a new error is of kind setup again");

        /* overflow: each field is cut, terminated, and nothing else is touched */
        static char big[4000];
        memset(big, 'a', sizeof big - 1);
        error_set(&err, EIO, "%s", big);
        ok(strlen(err.msg) == sizeof err.msg - 1, "a long message is cut to the field (%zu)",
           strlen(err.msg));
        error_wrap(&err, "%s", "ctx");
        ok(strncmp(err.msg, "ctx: aaa", 8) == 0 && strlen(err.msg) == sizeof err.msg - 1,
           "wrap of a full message keeps the context and cuts the end");
        error_wrap(&err, "%s", big);
        ok(strlen(err.msg) == sizeof err.msg - 1 && err.msg[sizeof err.msg - 1] == '\0',
           "a context longer than the field is cut, and the message stays terminated");
        error_clear(&err);
        for (int i = 0; i < 40; i++)
                error_hint(&err, "remedy number %d, which is long enough to fill the field soon",
                           i);
        ok(strlen(err.hint) <= sizeof err.hint - 1 && strncmp(err.hint, "remedy number 0", 15) == 0,
           "many hints are cut to the field, the first ones kept (%zu)", strlen(err.hint));
        error_at(&err, big, 3, "%s", big);
        ok(strlen(err.msg) == sizeof err.msg - 1, "error_at with a long file name is cut too");
        /* a newline in a hint's argument (a container's PATH) makes no line of its own */
        error_clear(&err);
        error_hint(&err, "crib looked in PATH=%s", "/bin\ncrib: hint: FORGED");
        error_hint(&err, "second");
        ok(!strcmp(err.hint, "crib looked in PATH=/bin\\x0acrib: hint: FORGED\nsecond"),
           "a newline inside a hint is written \\x0a; hints stay apart (%s)", err.hint);
        return tap_done();
}
