/* NDEF text records on NFC Forum Type 2 tags (NTAG213/215/216), from page 4 on. */
#ifndef READER_NDEF_H
#define READER_NDEF_H
#include <stdint.h>

/* The text of the first NDEF text record in the tag memory `mem` (from page 4);
 * returns its length (0 when there is none), copies at most `cap` bytes. */
uint8_t ndef_text(const uint8_t *mem, uint8_t memlen, char *text, uint8_t cap);
/* Lays out a TLV holding one text record ("en") and the terminator; returns its length. */
uint8_t ndef_make(const uint8_t *text, uint8_t len, uint8_t *out);
/* CRC_A of ISO/IEC 14443-3 (initial 0x6363): low byte first on the air. */
uint16_t crc_a(const uint8_t *data, uint8_t len);
#endif
