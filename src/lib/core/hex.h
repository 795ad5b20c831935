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

#endif
