/* Framing of ../PROTOCOL.md §2: COBS, CRC-16/CCITT-FALSE, a resynchronising decoder. */
#include "proto.h"

#include <string.h>

uint16_t proto_crc16(const uint8_t *data, size_t len, uint16_t crc)
{
    /* Polynomial 0x1021, MSB first, no reflection, no final XOR (init 0xFFFF by the caller). */
    while (len--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t i = 0; i < 8; i++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

size_t proto_cobs_encode(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t i = 0, o = 0;
    for (;;) {
        size_t j = i;
        while (j < len && j - i < 254 && in[j] != 0)
            j++;
        out[o++] = (uint8_t)(j - i + 1);
        memcpy(out + o, in + i, j - i);
        o += j - i;
        if (j - i == 254) {
            i = j;
            if (i == len)
                break;
            continue;
        }
        if (j == len)
            break;
        i = j + 1;
    }
    return o;
}

int proto_cobs_decode(const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
    size_t i = 0, o = 0;
    if (len == 0)
        return -1;
    while (i < len) {
        uint8_t code = in[i];
        if (code == 0 || i + code > len)
            return -1;
        for (size_t k = i + 1; k < i + code; k++) {
            if (in[k] == 0 || o >= cap)
                return -1;
            out[o++] = in[k];
        }
        i += code;
        if (code < 0xFF && i < len) {
            if (o >= cap)
                return -1;
            out[o++] = 0;
        }
    }
    return (int)o;
}

void proto_decoder_init(proto_decoder_t *d)
{
    memset(d, 0, sizeof *d);
}

static int close_frame(proto_decoder_t *d, proto_frame_t *out)
{
    uint8_t body[PROTO_MAX_ENCODED];
    int n;
    d->last_drop = DROP_NONE;
    if (d->overflow) {
        d->overflow = 0;
        d->too_long++;
        d->last_drop = DROP_TOO_LONG;
        return 0;
    }
    if (d->n == 0)
        return 0; /* idle fill */
    n = proto_cobs_decode(d->buf, d->n, body, sizeof body);
    d->n = 0;
    if (n < 0) {
        d->cobs_errors++;
        d->last_drop = DROP_COBS;
        return 0;
    }
    if (n < 4 || n > PROTO_MAX_BODY) {
        d->length_errors++;
        d->last_drop = DROP_LENGTH;
        return 0;
    }
    if (proto_crc16(body, (size_t)n - 2, 0xFFFF) != (uint16_t)((body[n - 2] << 8) | body[n - 1])) {
        d->crc_errors++;
        d->last_drop = DROP_CRC;
        return 0;
    }
    out->type = body[0];
    out->seq = body[1];
    out->len = (uint8_t)(n - 4);
    memcpy(out->payload, body + 2, out->len);
    d->frames++;
    return 1;
}

int proto_decoder_push(proto_decoder_t *d, uint8_t byte, proto_frame_t *out)
{
    if (byte == 0)
        return close_frame(d, out);
    if (d->overflow)
        return 0;
    if (d->n >= PROTO_MAX_ENCODED) {
        d->overflow = 1;
        d->n = 0;
        return 0;
    }
    d->buf[d->n++] = byte;
    return 0;
}

size_t proto_encode(uint8_t type, uint8_t seq, const uint8_t *payload, size_t len, uint8_t *out)
{
    uint8_t body[PROTO_MAX_BODY];
    uint16_t crc;
    size_t n;
    if (len > PROTO_MAX_PAYLOAD)
        return 0;
    body[0] = type;
    body[1] = seq;
    if (len)
        memcpy(body + 2, payload, len);
    crc = proto_crc16(body, len + 2, 0xFFFF);
    body[len + 2] = (uint8_t)(crc >> 8);
    body[len + 3] = (uint8_t)crc;
    n = proto_cobs_encode(body, len + 4, out);
    out[n++] = 0;
    return n;
}
