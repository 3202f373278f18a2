/* The token reader's wire protocol, version 1 (../PROTOCOL.md): framing only, in plain C99.
 * No allocation, no I/O: the board program and the host unit tests share this file. */
#ifndef READER_PROTO_H
#define READER_PROTO_H

#include <stdint.h>
#include <stddef.h>

#define PROTO_VERSION 1
#define PROTO_MAX_PAYLOAD 64
#define PROTO_MAX_BODY (2 + PROTO_MAX_PAYLOAD + 2)
#define PROTO_MAX_ENCODED (PROTO_MAX_BODY + 1)
#define PROTO_MAX_WIRE (PROTO_MAX_ENCODED + 1)

/* Frame types. */
enum {
    T_HELLO = 0x01, T_PLACED = 0x02, T_REMOVED = 0x03, T_PRESENCE = 0x04, T_BUTTON = 0x05,
    T_STATUS = 0x06, T_ACK = 0x7F,
    T_HELLO_REQ = 0x81, T_PING = 0x82, T_WRITE_TAG = 0x83, T_LED = 0x84, T_BEEP = 0x85,
    T_STATUS_REQ = 0x86, T_SLOT_REQ = 0x87,
    /* Test builds only (READER_INJECT): not part of the protocol, answered ACK 1 otherwise. */
    T_TEST_INJECT = 0xF0, T_TEST_EJECT = 0xF1
};

/* ACK result codes. */
enum { ACK_OK = 0, ACK_UNKNOWN_TYPE = 1, ACK_BAD_PAYLOAD = 2, ACK_WRITE_FAILED = 3, ACK_NO_TAG = 4 };

/* Why a frame was dropped (0: it was not). */
enum { DROP_NONE = 0, DROP_COBS = 1, DROP_LENGTH = 2, DROP_CRC = 3, DROP_TOO_LONG = 4 };

typedef struct {
    uint8_t type, seq, len;
    uint8_t payload[PROTO_MAX_PAYLOAD];
} proto_frame_t;

typedef struct {
    uint8_t buf[PROTO_MAX_ENCODED];
    uint8_t n;
    uint8_t overflow;
    uint16_t frames, cobs_errors, length_errors, crc_errors, too_long;
    uint8_t last_drop;
} proto_decoder_t;

uint16_t proto_crc16(const uint8_t *data, size_t len, uint16_t crc);
/* COBS: returns the encoded/decoded length; decode returns -1 on a bad encoding. */
size_t proto_cobs_encode(const uint8_t *in, size_t len, uint8_t *out);
int proto_cobs_decode(const uint8_t *in, size_t len, uint8_t *out, size_t cap);

void proto_decoder_init(proto_decoder_t *d);
/* Feed one byte; returns 1 when `out` holds a sound frame, else 0 (d->last_drop says why
 * a frame ended without one). Never fails: the next 0x00 starts a new frame. */
int proto_decoder_push(proto_decoder_t *d, uint8_t byte, proto_frame_t *out);
/* Lays out one frame on the wire (0x00 included) in `out` (PROTO_MAX_WIRE bytes);
 * returns its length, or 0 when the payload is too long. */
size_t proto_encode(uint8_t type, uint8_t seq, const uint8_t *payload, size_t len, uint8_t *out);

#endif
