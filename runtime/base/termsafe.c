/* termsafe.c - text from untrusted places made safe to show on a terminal; see termsafe.h.
 *
 * Kernel features: none; the terminal's. A terminal acts on the control characters in what it
 * is given: ESC starts a sequence that can set the window's title (ESC ] 0 ; TEXT BEL), clear
 * the screen (ESC [ 2 J), move the cursor over earlier lines, hide or recolour text, and on some
 * terminals make the terminal type an answer into the input; BEL rings; CR and backspace write
 * over what is there. A terminal that honours 8-bit controls reads the byte 0x9b, or U+009B in
 * UTF-8, as ESC [ (CSI), and 0x9d as ESC ] (OSC). crib's messages quote paths, program
 * arguments, names and error texts from a spec, a config.json, an image, and a container's own
 * files and setup process, so a hostile one could do all of that to the user's terminal, or make
 * a message say something else than crib wrote. cmd/'s printer (cmd/output.c) passes each such
 * string through here; a container's own output (crib logs, the terminal relay) is not crib's
 * message and is shown raw, as docker and podman show it.
 *
 * What is kept: printable ASCII and valid UTF-8 of U+00A0 and above (names and paths in any
 * script). What becomes \xNN, byte by byte: C0 controls (0x00-0x1f, the newline too: the
 * printer writes its own line breaks, so a message cannot forge a line of its own), DEL (0x7f),
 * C1 controls (U+0080-U+009F), and every byte that does not start a valid UTF-8 sequence (a lone
 * 0x80-0xbf, 0xc0, 0xc1, 0xf5-0xff, an overlong form, a surrogate, a sequence cut short), so no
 * terminal that decodes bytes some other way sees a control either.
 *
 * Pure: no system call, no allocation; unit tested (tests/unit/test_termsafe.c).
 */
#include "termsafe.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The length (2 to 4) of the valid UTF-8 sequence of a code point from U+0080 up that starts
 * `s`, its code point in *cp; 0 when there is none (RFC 3629: the shortest form, no surrogate,
 * at most U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
        unsigned c = s[0], lo = 0x80, hi = 0xbf;
        size_t len;
        if (c >= 0xc2 && c <= 0xdf)
                len = 2;
        else if (c >= 0xe0 && c <= 0xef)
                len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
        else if (c >= 0xf0 && c <= 0xf4)
                len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
        else
                return 0;
        if (n < len)
                return 0;
        uint32_t v = c & (0x7f >> len);
        for (size_t i = 1; i < len; i++) {
                unsigned b = s[i];
                if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xbf))
                        return 0;
                v = v << 6 | (b & 0x3f);
        }
        *cp = v;
        return len;
}

size_t termsafe_char_len(const unsigned char *s, size_t n)
{
        uint32_t cp;
        if (!n || s[0] < 0x20 || s[0] == 0x7f)
                return 0;
        if (s[0] < 0x80)
                return 1;
        size_t len = utf8_len(s, n, &cp);
        return len && cp > 0x9f ? len : 0;
}

static const char hex[] = "0123456789abcdef";

size_t termsafe_escape(char *buf, size_t size, const char *s, size_t n)
{
        const unsigned char *u = (const unsigned char *)s;
        size_t out = 0;
        if (!size)
                return 0;
        for (size_t i = 0; i < n;) {
                size_t len = termsafe_char_len(u + i, n - i);
                if (len) {
                        if (out + len >= size)
                                break;
                        memcpy(buf + out, s + i, len);
                        out += len;
                        i += len;
                        continue;
                }
                if (out + 4 >= size)
                        break;
                buf[out++] = '\\';
                buf[out++] = 'x';
                buf[out++] = hex[u[i] >> 4];
                buf[out++] = hex[u[i] & 0xf];
                i++;
        }
        buf[out] = '\0';
        return out;
}

size_t termsafe_json(char *buf, size_t size, const char *json, size_t n)
{
        const unsigned char *u = (const unsigned char *)json;
        size_t out = 0;
        if (!size)
                return 0;
        for (size_t i = 0; i < n;) {
                uint32_t cp = u[i];
                size_t len = 1;
                bool bad = cp >= 0x80 && !(len = utf8_len(u + i, n - i, &cp));
                if (bad)
                        cp = 0xfffd, len = 1; /* not UTF-8: the replacement character */
                if (!bad && (cp >= 0xa0 || (cp >= 0x20 && cp < 0x7f) || cp == '\n')) {
                        if (out + len >= size)
                                break;
                        memcpy(buf + out, json + i, len);
                        out += len;
                } else {
                        if (out + 6 >= size)
                                break;
                        out += (size_t)snprintf(buf + out, size - out, "\\u%04x", (unsigned)cp);
                }
                i += len;
        }
        buf[out] = '\0';
        return out;
}
