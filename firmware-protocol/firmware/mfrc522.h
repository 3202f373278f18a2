/* NXP MFRC522 on SPI, from its datasheet (rev. 3.9): just what a token reader needs. */
#ifndef READER_MFRC522_H
#define READER_MFRC522_H
#include <stdint.h>

void mfrc_init(uint8_t slot);
/* 1 and the UID when one ISO 14443-A tag answers, 0 when none, -1 when the chip fails. */
int mfrc_scan(uint8_t slot, uint8_t *uid, uint8_t *uid_len, uint8_t *sak);
/* Reads 16 bytes (4 pages) from page `page` of a Type 2 tag; 0 on success. */
int mfrc_read_pages(uint8_t slot, uint8_t page, uint8_t *out16);
/* Writes one 4-byte page of a Type 2 tag; 0 on success. */
int mfrc_write_page(uint8_t slot, uint8_t page, const uint8_t *data4);
void mfrc_halt(uint8_t slot);
uint8_t mfrc_version(uint8_t slot);
#endif
