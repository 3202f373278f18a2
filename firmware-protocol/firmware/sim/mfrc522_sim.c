#include "mfrc522_sim.h"

#include <stdio.h>
#include <string.h>

#include "avr_ioport.h"
#include "avr_spi.h"
#include "sim_irq.h"

enum { R_COMMAND = 0x01, R_COMIRQ = 0x04, R_ERROR = 0x06, R_FIFODATA = 0x09, R_FIFOLEVEL = 0x0A,
       R_CONTROL = 0x0C, R_BITFRAMING = 0x0D, R_TXCONTROL = 0x14, R_VERSION = 0x37 };
enum { T_IDLE, T_READY1, T_READY2, T_ACTIVE, T_HALT };

static mfrc_sim_t chips[SIM_SLOTS];
static avr_irq_t *spi_in;
/* chip selects, as board.c wires them: D10 = PB2, D8 = PB0, D7 = PD7, D4 = PD4 */
static const char cs_port[SIM_SLOTS] = {'B', 'B', 'D', 'D'};
static const int cs_pin[SIM_SLOTS] = {2, 0, 7, 4};

static uint16_t crc_a(const uint8_t *d, int n)
{
    uint16_t crc = 0x6363;
    while (n--) {
        uint8_t b = *d++;
        b ^= (uint8_t)crc;
        b ^= (uint8_t)(b << 4);
        crc = (uint16_t)((crc >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return crc;
}

static int crc_ok(const uint8_t *d, int n)
{
    uint16_t c;
    if (n < 3)
        return 0;
    c = crc_a(d, n - 2);
    return d[n - 2] == (uint8_t)c && d[n - 1] == (uint8_t)(c >> 8);
}

static void chip_reset(mfrc_sim_t *c)
{
    memset(c->regs, 0, sizeof c->regs);
    c->regs[R_COMMAND] = 0x20;
    c->regs[R_VERSION] = 0x92;
    c->regs[R_TXCONTROL] = 0x80;
    c->fifo_n = 0;
}

/* The tag's answer to a frame; returns its length in bytes (0: silence), *bits its last bits. */
static int tag_answer(mfrc_sim_t *c, const uint8_t *in, int n, int bits, uint8_t *out, int *out_bits)
{
    uint16_t crc;
    *out_bits = 0;
    if (!c->present || (c->regs[R_TXCONTROL] & 0x03) != 0x03)
        return 0;
    if (bits == 7 && n == 1 && (in[0] == 0x26 || in[0] == 0x52)) {
        if (in[0] == 0x26 && c->state == T_HALT)
            return 0;  /* REQA does not wake a halted tag; WUPA does */
        c->state = T_READY1;
        out[0] = 0x44;  /* ATQA: double-size UID */
        out[1] = 0x00;
        return 2;
    }
    if (bits != 0)
        return 0;
    if (n == 2 && in[1] == 0x20 && ((in[0] == 0x93 && c->state == T_READY1) || (in[0] == 0x95 && c->state == T_READY2))) {
        if (in[0] == 0x93) {
            out[0] = 0x88;
            memcpy(out + 1, c->uid, 3);
        } else {
            memcpy(out, c->uid + 3, 4);
        }
        out[4] = out[0] ^ out[1] ^ out[2] ^ out[3];
        return 5;
    }
    if (n == 9 && in[1] == 0x70 && crc_ok(in, 9)) {
        if (in[0] == 0x93 && c->state == T_READY1 && in[2] == 0x88 && !memcmp(in + 3, c->uid, 3)) {
            c->state = T_READY2;
            out[0] = 0x04;  /* SAK: UID not complete */
        } else if (in[0] == 0x95 && c->state == T_READY2 && !memcmp(in + 2, c->uid + 3, 4)) {
            c->state = T_ACTIVE;
            out[0] = 0x00;  /* SAK: NTAG, complete */
        } else {
            c->state = T_IDLE;
            return 0;
        }
        crc = crc_a(out, 1);
        out[1] = (uint8_t)crc;
        out[2] = (uint8_t)(crc >> 8);
        return 3;
    }
    if (c->state != T_ACTIVE)
        return 0;
    if (n == 4 && in[0] == 0x50 && in[1] == 0x00 && crc_ok(in, 4)) {
        c->state = T_HALT;
        return 0;
    }
    if (n == 4 && in[0] == 0x30 && crc_ok(in, 4)) {
        for (int i = 0; i < 16; i++)
            out[i] = c->mem[(in[1] * 4 + i) % sizeof c->mem];
        crc = crc_a(out, 16);
        out[16] = (uint8_t)crc;
        out[17] = (uint8_t)(crc >> 8);
        return 18;
    }
    if (n == 8 && in[0] == 0xA2 && crc_ok(in, 8) && in[1] >= 4 && in[1] < 40) {
        memcpy(c->mem + in[1] * 4, in + 2, 4);
        out[0] = 0x0A;  /* ACK, 4 bits */
        *out_bits = 4;
        return 1;
    }
    c->state = T_IDLE;
    return 0;
}

static void transceive(mfrc_sim_t *c)
{
    uint8_t out[64];
    int out_bits, bits = c->regs[R_BITFRAMING] & 0x07;
    int n = tag_answer(c, c->fifo, c->fifo_n, bits, out, &out_bits);
    c->fifo_n = 0;
    c->regs[R_ERROR] = 0;
    c->regs[R_COMIRQ] |= 0x40;          /* TxIRq */
    if (n == 0) {
        c->regs[R_COMIRQ] |= 0x01;      /* TimerIRq: the timer ran out, nobody answered */
        return;
    }
    memcpy(c->fifo, out, n);
    c->fifo_n = (uint8_t)n;
    c->regs[R_CONTROL] = (uint8_t)((c->regs[R_CONTROL] & ~0x07) | out_bits);
    c->regs[R_COMIRQ] |= 0x20;          /* RxIRq */
}

static void write_reg(mfrc_sim_t *c, uint8_t reg, uint8_t v)
{
    switch (reg) {
    case R_COMMAND:
        if ((v & 0x0F) == 0x0F) {
            chip_reset(c);
            return;
        }
        c->regs[R_COMMAND] = (uint8_t)(v & 0x3F);
        return;
    case R_COMIRQ:
        if (v & 0x80)
            c->regs[R_COMIRQ] |= (uint8_t)(v & 0x7F);
        else
            c->regs[R_COMIRQ] &= (uint8_t)~v;
        return;
    case R_FIFODATA:
        if (c->fifo_n < sizeof c->fifo)
            c->fifo[c->fifo_n++] = v;
        return;
    case R_FIFOLEVEL:
        if (v & 0x80)
            c->fifo_n = 0;
        return;
    case R_BITFRAMING:
        c->regs[R_BITFRAMING] = (uint8_t)(v & 0x7F);
        if ((v & 0x80) && (c->regs[R_COMMAND] & 0x0F) == 0x0C)
            transceive(c);
        return;
    case R_VERSION:
        return;
    default:
        c->regs[reg] = v;
    }
}

static uint8_t read_reg(mfrc_sim_t *c, uint8_t reg)
{
    uint8_t v;
    switch (reg) {
    case R_FIFODATA:
        if (!c->fifo_n)
            return 0;
        v = c->fifo[0];
        memmove(c->fifo, c->fifo + 1, --c->fifo_n);
        return v;
    case R_FIFOLEVEL:
        return c->fifo_n;
    default:
        return c->regs[reg];
    }
}

static void spi_out_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    uint8_t reply = 0;
    (void)irq;
    (void)param;
    for (int s = 0; s < SIM_SLOTS; s++) {
        mfrc_sim_t *c = &chips[s];
        if (!c->cs_low)
            continue;
        if (c->index == 0) {            /* address byte: MSB read, bits 6..1 the register */
            c->reading = (value & 0x80) != 0;
            c->reg = (uint8_t)((value >> 1) & 0x3F);
        } else if (c->reading) {
            reply = read_reg(c, c->reg);
        } else {
            write_reg(c, c->reg, (uint8_t)value);
        }
        c->index++;
        if (c->reading && c->index == 1)
            reply = 0;
    }
    avr_raise_irq(spi_in, reply);
}

static void cs_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    mfrc_sim_t *c = (mfrc_sim_t *)param;
    (void)irq;
    c->cs_low = value == 0;
    c->index = 0;
}

void mfrc_sim_attach(avr_t *avr)
{
    spi_in = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), spi_out_hook, NULL);
    for (int s = 0; s < SIM_SLOTS; s++) {
        chip_reset(&chips[s]);
        chips[s].regs[R_VERSION] = 0x92;
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(cs_port[s]), cs_pin[s]),
                                cs_hook, &chips[s]);
    }
}

void mfrc_sim_tag(int slot, const uint8_t *uid7, const char *text)
{
    mfrc_sim_t *c = &chips[slot];
    uint8_t *m = c->mem;
    memcpy(c->uid, uid7, 7);
    if (text) {
        size_t len = strlen(text);
        memset(m, 0, sizeof c->mem);
        m[0] = uid7[0]; m[1] = uid7[1]; m[2] = uid7[2]; m[3] = 0x88 ^ uid7[0] ^ uid7[1] ^ uid7[2];
        memcpy(m + 4, uid7 + 3, 4);
        m[8] = uid7[3] ^ uid7[4] ^ uid7[5] ^ uid7[6];
        m[12] = 0xE1; m[13] = 0x10; m[14] = 0x12; m[15] = 0x00;  /* capability container */
        if (len > 120)
            len = 120;
        m[16] = 0x03; m[17] = (uint8_t)(len + 7);
        m[18] = 0xD1; m[19] = 0x01; m[20] = (uint8_t)(len + 3); m[21] = 'T';
        m[22] = 0x02; m[23] = 'e'; m[24] = 'n';
        memcpy(m + 25, text, len);
        m[25 + len] = 0xFE;
    }
    c->present = 1;
    c->state = T_IDLE;
}

void mfrc_sim_untag(int slot)
{
    chips[slot].present = 0;
    chips[slot].state = T_IDLE;
}

void mfrc_sim_retag(int slot)
{
    chips[slot].present = 1;
    chips[slot].state = T_IDLE;
}

int mfrc_sim_text(int slot, char *out, int cap)
{
    const uint8_t *m = chips[slot].mem + 16;
    int pl, lang, n;
    if (m[0] != 0x03 || m[2] != 0xD1 || m[5] != 'T')
        return 0;
    pl = m[4];
    lang = m[6] & 0x3F;
    n = pl - 1 - lang;
    if (n < 0 || n >= cap)
        return 0;
    memcpy(out, m + 7 + lang, n);
    out[n] = 0;
    return n;
}
