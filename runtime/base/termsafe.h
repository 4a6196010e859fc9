/* termsafe.h - text a spec, an image or a container wrote, made safe to show on a terminal: every
 * control character (C0, DEL, C1) and every byte that is not valid UTF-8 as the visible \xNN,
 * valid printable UTF-8 kept as it is. cmd/'s printer passes each message through here; see
 * termsafe.c. */
#ifndef CRIB_TERMSAFE_H
#define CRIB_TERMSAFE_H

#include <stddef.h>

/* What termsafe_escape() may write for n bytes at most: 4 a byte, and the NUL. */
#define TERMSAFE_SIZE(n) (4 * (n) + 1)
/* What termsafe_json() may write for n bytes at most: 6 a byte (\ufffd), and the NUL. */
#define TERMSAFE_JSON_SIZE(n) (6 * (n) + 1)

/* The length (1 to 4) of the printable character that starts `s` (`n` bytes left), valid UTF-8;
 * 0 when the byte at `s` must be escaped: a control character (below 0x20, 0x7f, U+0080 to
 * U+009F), or a byte that does not start a valid sequence (a lone continuation byte such as
 * 0x9b, an overlong form, a surrogate, above U+10FFFF, cut short). */
size_t termsafe_char_len(const unsigned char *s, size_t n);

/* `n` bytes of `s`, each byte termsafe_char_len() refuses as \xNN (lowercase hex), into `buf`
 * (`size` bytes), NUL-terminated when size > 0. Stops before a character or an escape that does
 * not fit; TERMSAFE_SIZE(n) always fits. The length written. */
size_t termsafe_escape(char *buf, size_t size, const char *s, size_t n);

/* The same for JSON text as json-c writes it, which escapes only what is below 0x20: DEL and the
 * C1 controls become \u007f to \u009f (the same string, to a JSON reader), a byte that is not
 * valid UTF-8 becomes \ufffd (as Go's encoding/json, the engines', reads it anyway), any other
 * control but the newline \u00NN; the rest is kept. TERMSAFE_JSON_SIZE(n) always fits. */
size_t termsafe_json(char *buf, size_t size, const char *json, size_t n);

#endif
