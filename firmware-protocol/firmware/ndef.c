#include "ndef.h"

#include <string.h>

uint16_t crc_a(const uint8_t *data, uint8_t len)
{
    uint16_t crc = 0x6363;
    while (len--) {
        uint8_t b = *data++;
        b ^= (uint8_t)crc;
        b ^= (uint8_t)(b << 4);
        crc = (uint16_t)((crc >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return crc;
}

uint8_t ndef_text(const uint8_t *mem, uint8_t memlen, char *text, uint8_t cap)
{
    uint8_t i = 0;
    while (i < memlen) {
        uint8_t t = mem[i];
        if (t == 0x00) { i++; continue; }           /* NULL TLV */
        if (t == 0xFE || i + 1 >= memlen) return 0; /* terminator */
        if (t != 0x03) { i = (uint8_t)(i + 2 + mem[i + 1]); continue; }
        {
            const uint8_t *r = mem + i + 2;
            uint8_t tlv_len = mem[i + 1], hdr, type_len, pl, id_len = 0, at, lang, n;
            if (tlv_len == 0xFF || i + 2 + tlv_len > memlen || tlv_len < 4) return 0;
            hdr = r[0];
            if ((hdr & 0x07) != 0x01 || !(hdr & 0x10)) return 0; /* well-known, short record */
            type_len = r[1];
            pl = r[2];
            at = 3;
            if (hdr & 0x08) id_len = r[at++];
            if (type_len != 1 || r[at] != 'T') return 0;
            at = (uint8_t)(at + type_len + id_len);
            if (at + pl > tlv_len || pl < 1) return 0;
            lang = r[at] & 0x3F;
            if (1 + lang > pl) return 0;
            n = (uint8_t)(pl - 1 - lang);
            if (n > cap) n = cap;
            memcpy(text, r + at + 1 + lang, n);
            return n;
        }
    }
    return 0;
}

uint8_t ndef_make(const uint8_t *text, uint8_t len, uint8_t *out)
{
    uint8_t n = 0;
    out[n++] = 0x03;
    out[n++] = (uint8_t)(len + 7);
    out[n++] = 0xD1;            /* MB, ME, SR, TNF well-known */
    out[n++] = 0x01;            /* type length */
    out[n++] = (uint8_t)(len + 3);
    out[n++] = 'T';
    out[n++] = 0x02;            /* UTF-8, language code of 2 bytes */
    out[n++] = 'e';
    out[n++] = 'n';
    memcpy(out + n, text, len);
    n = (uint8_t)(n + len);
    out[n++] = 0xFE;
    return n;
}
