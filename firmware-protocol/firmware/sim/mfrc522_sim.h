/* A register-level MFRC522 with an NTAG213 in its field, on simavr's SPI: enough of the chip
 * (datasheet §9 registers, §10 commands) and of ISO/IEC 14443-3 type A and NTAG213's READ and
 * WRITE for the production firmware to read and write simulated tags. Our own code. */
#ifndef MFRC522_SIM_H
#define MFRC522_SIM_H
#include <stdint.h>

#include "sim_avr.h"

#define SIM_SLOTS 4

typedef struct {
    /* the chip */
    uint8_t regs[64];
    uint8_t fifo[64], fifo_n;
    uint8_t cs_low, index, reg, reading;
    /* the tag in its field */
    uint8_t present, state;
    uint8_t uid[7];
    uint8_t mem[180];   /* NTAG213: 45 pages of 4 bytes */
} mfrc_sim_t;

void mfrc_sim_attach(avr_t *avr);
/* Puts a tag with this UID (7 bytes) and NDEF text on `slot`; text NULL keeps its memory. */
void mfrc_sim_tag(int slot, const uint8_t *uid7, const char *text);
void mfrc_sim_untag(int slot);
void mfrc_sim_retag(int slot);
/* The tag's NDEF text as stored in its memory (for checks), into out (cap bytes). */
int mfrc_sim_text(int slot, char *out, int cap);

#endif
