/*
 * Hexadecimal digits, as JSON's \u escapes (four of them), YAML's \x escapes
 * (two) and URL %-escapes (two) write them.
 */
#ifndef ANANKE_CORE_HEX_H
#define ANANKE_CORE_HEX_H

/* The value of one hex digit (either case), or -1 when c is not one. */
static inline int an_hex_digit(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The value of the four hex digits at s (a JSON \u escape's), or -1 when
 * one of them is not a hex digit. */
static inline long an_hex4(const unsigned char *s)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = an_hex_digit(s[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

#endif
