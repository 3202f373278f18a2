/* NXP MFRC522 driver written from the datasheet (MFRC522 rev. 3.9, §8.1.2 SPI, §9 registers,
 * §10 commands) and ISO/IEC 14443-3 type A (REQA/WUPA, anticollision, SELECT, HLTA).
 * The board provides the SPI transfer and the chip selects (board.c). */
#include "mfrc522.h"
#include "ndef.h"

#include <string.h>

/* From board.c. */
uint8_t spi_xfer(uint8_t b);
void spi_select(uint8_t slot, uint8_t on);
uint32_t hal_millis(void);

enum {
    CommandReg = 0x01, ComIrqReg = 0x04, DivIrqReg = 0x05, ErrorReg = 0x06, FIFODataReg = 0x09,
    FIFOLevelReg = 0x0A, ControlReg = 0x0C, BitFramingReg = 0x0D, CollReg = 0x0E, ModeReg = 0x11,
    TxControlReg = 0x14, TxASKReg = 0x15, TModeReg = 0x2A, TPrescalerReg = 0x2B,
    TReloadRegH = 0x2C, TReloadRegL = 0x2D, VersionReg = 0x37
};
enum { CMD_IDLE = 0x00, CMD_TRANSCEIVE = 0x0C, CMD_SOFTRESET = 0x0F };
enum { PICC_REQA = 0x26, PICC_WUPA = 0x52, PICC_CT = 0x88, PICC_READ = 0x30, PICC_WRITE = 0xA2,
       PICC_HLTA = 0x50 };
enum { R_OK = 0, R_TIMEOUT = 1, R_ERROR = 2, R_COLLISION = 3, R_FAULT = 4 };

static void wr(uint8_t slot, uint8_t reg, uint8_t v)
{
    spi_select(slot, 1);
    spi_xfer((uint8_t)((reg << 1) & 0x7E)); /* §8.1.2.3: address byte, MSB 0 = write */
    spi_xfer(v);
    spi_select(slot, 0);
}

static uint8_t rd(uint8_t slot, uint8_t reg)
{
    uint8_t v;
    spi_select(slot, 1);
    spi_xfer((uint8_t)(((reg << 1) & 0x7E) | 0x80)); /* MSB 1 = read */
    v = spi_xfer(0);
    spi_select(slot, 0);
    return v;
}

uint8_t mfrc_version(uint8_t slot)
{
    return rd(slot, VersionReg); /* 0x91 (v1.0) or 0x92 (v2.0); clones say 0x88 or 0x12 */
}

void mfrc_init(uint8_t slot)
{
    uint32_t t0;
    wr(slot, CommandReg, CMD_SOFTRESET);
    t0 = hal_millis();
    while ((rd(slot, CommandReg) & 0x10) && hal_millis() - t0 < 50) /* PowerDown bit */
        ;
    wr(slot, TModeReg, 0x80);      /* TAuto: the timer starts at the end of a transmission */
    wr(slot, TPrescalerReg, 0xA9); /* 13.56 MHz / (2*169+1) = 40 kHz: 25 us a tick */
    wr(slot, TReloadRegH, 0x01);   /* 400 ticks: 10 ms until a silent tag times out (a tag */
    wr(slot, TReloadRegL, 0x90);   /* answers REQA in 0.1 ms; an NTAG page write takes 4.1 ms) */
    wr(slot, TxASKReg, 0x40);      /* 100 % ASK modulation */
    wr(slot, ModeReg, 0x3D);       /* CRC preset 0x6363 (ISO 14443-3) */
    wr(slot, TxControlReg, (uint8_t)(rd(slot, TxControlReg) | 0x03)); /* antenna on */
}

/* Sends `n` bytes (the last with `bits` valid bits, 0 = 8) and receives the answer. */
static uint8_t transceive(uint8_t slot, const uint8_t *out, uint8_t n, uint8_t bits,
                          uint8_t *in, uint8_t *in_len, uint8_t *in_bits)
{
    uint8_t irq, err, level, cap = *in_len;
    uint32_t t0;
    wr(slot, CommandReg, CMD_IDLE);
    wr(slot, ComIrqReg, 0x7F);     /* clear every interrupt request bit */
    wr(slot, FIFOLevelReg, 0x80);  /* FlushBuffer */
    for (uint8_t i = 0; i < n; i++)
        wr(slot, FIFODataReg, out[i]);
    wr(slot, BitFramingReg, bits & 0x07);
    wr(slot, CommandReg, CMD_TRANSCEIVE);
    wr(slot, BitFramingReg, (uint8_t)(0x80 | (bits & 0x07))); /* StartSend */
    t0 = hal_millis();
    for (;;) {
        irq = rd(slot, ComIrqReg);
        if (irq & 0x30)            /* RxIRq or IdleIRq */
            break;
        if (irq & 0x01)            /* TimerIRq: no answer within 10 ms */
            return R_TIMEOUT;
        if (hal_millis() - t0 > 30)
            return R_FAULT;        /* the chip never finished: it is not there or hung */
    }
    wr(slot, BitFramingReg, 0);
    err = rd(slot, ErrorReg);
    if (err & 0x13)                /* BufferOvfl, ParityErr, ProtocolErr */
        return R_ERROR;
    if (err & 0x08)
        return R_COLLISION;
    level = rd(slot, FIFOLevelReg) & 0x7F;
    if (level > cap)
        return R_ERROR;
    for (uint8_t i = 0; i < level; i++)
        in[i] = rd(slot, FIFODataReg);
    *in_len = level;
    if (in_bits)
        *in_bits = rd(slot, ControlReg) & 0x07; /* RxLastBits */
    return R_OK;
}

static void append_crc(uint8_t *buf, uint8_t n)
{
    uint16_t c = crc_a(buf, n);
    buf[n] = (uint8_t)c;
    buf[n + 1] = (uint8_t)(c >> 8);
}

static int crc_ok(const uint8_t *buf, uint8_t n)
{
    uint16_t c;
    if (n < 3)
        return 0;
    c = crc_a(buf, (uint8_t)(n - 2));
    return buf[n - 2] == (uint8_t)c && buf[n - 1] == (uint8_t)(c >> 8);
}

int mfrc_scan(uint8_t slot, uint8_t *uid, uint8_t *uid_len, uint8_t *sak)
{
    static const uint8_t levels[3] = {0x93, 0x95, 0x97};
    uint8_t cmd[9], in[18], n, r, v = mfrc_version(slot);
    if (v == 0x00 || v == 0xFF)
        return -1;
    wr(slot, CollReg, 0x80);       /* ValuesAfterColl: received bits after a collision cleared */
    cmd[0] = PICC_WUPA;            /* WUPA, not REQA: a token that stays is seen again */
    n = sizeof in;
    r = transceive(slot, cmd, 1, 7, in, &n, 0);
    if (r == R_FAULT)
        return -1;
    if (r != R_OK || n != 2)
        return 0;
    *uid_len = 0;
    for (uint8_t lv = 0; lv < 3; lv++) {
        cmd[0] = levels[lv];
        cmd[1] = 0x20;             /* anticollision: NVB = 2 bytes, no UID bits known */
        n = sizeof in;
        r = transceive(slot, cmd, 2, 0, in, &n, 0);
        if (r == R_FAULT)
            return -1;
        if (r != R_OK || n != 5 || (in[0] ^ in[1] ^ in[2] ^ in[3]) != in[4])
            return 0;              /* two tokens on one slot, or noise: nothing read */
        cmd[1] = 0x70;             /* SELECT: NVB = 7 bytes */
        memcpy(cmd + 2, in, 5);
        append_crc(cmd, 7);
        n = sizeof in;
        r = transceive(slot, cmd, 9, 0, in + 5, &n, 0);
        if (r == R_FAULT)
            return -1;
        if (r != R_OK || n != 3 || !crc_ok(in + 5, 3))
            return 0;
        *sak = in[5];
        if (cmd[2] == PICC_CT) {   /* cascade tag: 3 UID bytes here, more at the next level */
            memcpy(uid + *uid_len, cmd + 3, 3);
            *uid_len = (uint8_t)(*uid_len + 3);
        } else {
            memcpy(uid + *uid_len, cmd + 2, 4);
            *uid_len = (uint8_t)(*uid_len + 4);
        }
        if (!(*sak & 0x04))        /* UID complete */
            return (*uid_len == 4 || *uid_len == 7 || *uid_len == 10) ? 1 : 0;
    }
    return 0;
}

int mfrc_read_pages(uint8_t slot, uint8_t page, uint8_t *out16)
{
    uint8_t cmd[4] = {PICC_READ, page}, in[18], n = sizeof in;
    append_crc(cmd, 2);
    if (transceive(slot, cmd, 4, 0, in, &n, 0) != R_OK || n != 18 || !crc_ok(in, 18))
        return -1;
    memcpy(out16, in, 16);
    return 0;
}

int mfrc_write_page(uint8_t slot, uint8_t page, const uint8_t *data4)
{
    uint8_t cmd[8] = {PICC_WRITE, page}, in[2], n = sizeof in, bits = 0;
    memcpy(cmd + 2, data4, 4);
    append_crc(cmd, 6);
    if (transceive(slot, cmd, 8, 0, in, &n, &bits) != R_OK)
        return -1;
    return (n == 1 && bits == 4 && (in[0] & 0x0F) == 0x0A) ? 0 : -1; /* 4-bit ACK */
}

void mfrc_halt(uint8_t slot)
{
    uint8_t cmd[4] = {PICC_HLTA, 0}, in[2], n = sizeof in;
    append_crc(cmd, 2);
    transceive(slot, cmd, 4, 0, in, &n, 0); /* a halted tag does not answer: timeout is success */
}
