/* Unit tests of the escaping of untrusted text for the terminal (runtime/base/termsafe.c): what
 * a hostile spec, image or container puts in crib's messages reaches the terminal as visible
 * \xNN, never as a control character; valid printable UTF-8 is kept. */
#include <stdlib.h>

#include "base/termsafe.h"
#include "../lib/tap.h"

static char out[4096];

static const char *esc(const char *s)
{
        termsafe_escape(out, sizeof out, s, strlen(s));
        return out;
}

static const char *json(const char *s)
{
        termsafe_json(out, sizeof out, s, strlen(s));
        return out;
}

/* `got`, the escaping of the one or two bytes `in`, holds no control character: no byte below
 * 0x20, no 0x7f, and a byte from 0x80 up only as the kept input, when that is one printable
 * two-byte character (lead 0xc2-0xdf, a continuation byte, not U+0080-U+009F) */
static int clean(const char *in, const char *got)
{
        const unsigned char *u = (const unsigned char *)in;
        int high = 0;
        for (const unsigned char *g = (const unsigned char *)got; *g; g++) {
                if (*g < 0x20 || *g == 0x7f)
                        return 0;
                high |= *g >= 0x80;
        }
        if (!high)
                return 1;
        return !strcmp(in, got) && u[0] >= 0xc2 && u[0] <= 0xdf && u[1] >= 0x80 && u[1] <= 0xbf &&
               !(u[0] == 0xc2 && u[1] <= 0x9f);
}

int main(void)
{
        /* what a hostile spec's args did (tests/e2e/28-print-escapes.t) */
        is_str(esc("/bin/\x1b]0;pwned\x07x"), "/bin/\\x1b]0;pwned\\x07x", "OSC title: ESC and BEL");
        is_str(esc("\x1b[2J\x1b[H"), "\\x1b[2J\\x1b[H", "clear screen and cursor home");
        is_str(esc("a\x9b"
                   "31mb"),
               "a\\x9b31mb", "a lone 8-bit CSI byte (0x9b)");
        is_str(esc("a\xc2\x9b"
                   "31mb"),
               "a\\xc2\\x9b31mb", "U+009B (CSI) in UTF-8: both bytes");
        is_str(esc("\xc2\x80\xc2\x9f"), "\\xc2\\x80\\xc2\\x9f",
               "U+0080 and U+009F, the ends of C1");
        is_str(esc("\xc2\xa0\xc2\xbf"), "\xc2\xa0\xc2\xbf", "U+00A0 and U+00BF: printable, kept");
        is_str(esc("a\x7f"
                   "b"),
               "a\\x7fb", "DEL");
        is_str(esc("one\ntwo\rthree\tfour\b"), "one\\x0atwo\\x0dthree\\x09four\\x08",
               "newline, CR, tab and backspace: no line of its own, nothing written over");
        is_str(esc("\x01\x1f"), "\\x01\\x1f", "the rest of C0");

        /* kept as it is */
        is_str(esc("/srv/www/index.html 'quoted' \"and\" \\ back"),
               "/srv/www/index.html 'quoted' \"and\" \\ back", "printable ASCII, backslash too");
        is_str(esc("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x90\xb3 \xef\xbf\xbd"),
               "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x90\xb3 \xef\xbf\xbd",
               "valid UTF-8 of 2, 3 and 4 bytes (and U+FFFD itself)");
        is_str(esc(""), "", "empty");

        /* not UTF-8: each byte escaped, what follows is still read */
        is_str(esc("\xc0\x9b"), "\\xc0\\x9b", "an overlong ESC [ (0xc0 0x9b)");
        is_str(esc("\xc1\xbf"), "\\xc1\\xbf", "overlong two-byte form");
        is_str(esc("\xe0\x82\x9b"), "\\xe0\\x82\\x9b", "overlong three-byte CSI");
        is_str(esc("\xf0\x80\x82\x9b"), "\\xf0\\x80\\x82\\x9b", "overlong four-byte CSI");
        is_str(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80", "a surrogate (U+D800)");
        is_str(esc("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80", "above U+10FFFF");
        is_str(esc("\xf5\xff\xfe"), "\\xf5\\xff\\xfe", "bytes that never start UTF-8");
        is_str(esc("\xe6\x97"), "\\xe6\\x97", "a sequence cut short at the end");
        is_str(esc("\xe6\x97\x1b[1m"), "\\xe6\\x97\\x1b[1m",
               "a sequence cut short by ESC: the ESC is escaped too");
        is_str(esc("\xc3\xc3\xa9"), "\\xc3\xc3\xa9", "a bad lead byte, then a good character");

        /* every single byte and every two-byte pair: never a control character out */
        int all = 1;
        char in[3] = {0};
        for (int a = 1; a < 256; a++)
                for (int b = 0; b < 256; b++) {
                        in[0] = (char)a, in[1] = (char)b;
                        if (!clean(in, esc(in)))
                                all = 0;
                }
        ok(all, "no byte or pair of bytes gets a control character through");

        /* the length: what fits, never half an escape or half a character */
        char small[8];
        size_t n = termsafe_escape(small, sizeof small, "ab\x1b\x1b", 4);
        ok(n == 6 && !strcmp(small, "ab\\x1b"), "a full buffer stops before an escape: '%s'",
           small);
        n = termsafe_escape(small, sizeof small, "abcdef\xc3\xa9", 8);
        ok(n == 6 && !strcmp(small, "abcdef"), "and before a character that does not fit: '%s'",
           small);
        ok(termsafe_escape(small, 0, "x", 1) == 0, "size 0 writes nothing");
        char *big = malloc(TERMSAFE_SIZE(256));
        char worst[256];
        memset(worst, 0x1b, sizeof worst);
        ok(big && termsafe_escape(big, TERMSAFE_SIZE(256), worst, 256) == 1024,
           "TERMSAFE_SIZE holds the worst case");
        free(big);
        ok(termsafe_char_len((const unsigned char *)"\xe6\x97\xa5", 3) == 3 &&
                   termsafe_char_len((const unsigned char *)"\xe6\x97\xa5", 2) == 0 &&
                   termsafe_char_len((const unsigned char *)"a", 1) == 1 &&
                   termsafe_char_len((const unsigned char *)"\xc2\x85", 2) == 0,
           "termsafe_char_len: 3-byte character, cut short, ASCII, NEL (U+0085)");

        /* JSON as json-c writes it: C0 already \u00NN, the rest made the same */
        is_str(json("{\"args\": \"\\u001b]0;x\\u0007\x7f\xc2\x9b\x9b\"}"),
               "{\"args\": \"\\u001b]0;x\\u0007\\u007f\\u009b\\ufffd\"}",
               "JSON: DEL, U+009B and a lone 0x9b byte");
        is_str(json("[\n  \"caf\xc3\xa9 \xf0\x9f\x90\xb3\"\n]"),
               "[\n  \"caf\xc3\xa9 \xf0\x9f\x90\xb3\"\n]",
               "JSON: newlines of the pretty form and valid UTF-8 kept");
        is_str(json("\"\xc0\x9b\""), "\"\\ufffd\\ufffd\"", "JSON: overlong form, each byte");
        all = 1;
        for (int a = 1; a < 256; a++)
                for (int b = 0; b < 256; b++) {
                        in[0] = (char)a, in[1] = (char)b;
                        if (b != '\n' && a != '\n' && !clean(in, json(in)))
                                all = 0;
                }
        ok(all, "JSON: no byte or pair of bytes gets a control character through");
        return tap_done();
}
