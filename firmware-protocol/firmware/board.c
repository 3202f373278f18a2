/* The board: an ATmega328P at 16 MHz (Arduino Uno or Nano) with up to 4 MFRC522 on SPI.
 * Pins (Arduino names): D13 SCK, D12 MISO, D11 MOSI, D9 RST of every MFRC522; chip selects
 * D10 (slot 0), D8 (slot 1), D7 (slot 2), D4 (slot 3); button D2 to GND; LED D3 (red),
 * D5 (green), D6 (blue); passive buzzer A0. Serial 115200 8N1 on D0/D1 (the USB bridge). */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include <util/delay.h>

#include "device.h"
#include "mfrc522.h"
#include "ndef.h"

#ifdef SIMAVR
#include "avr_mcu_section.h"
AVR_MCU(F_CPU, "atmega328p");
#endif

/* --- time: Timer1 in CTC mode, 1 kHz ------------------------------------------------------ */
static volatile uint32_t millis_now;
static volatile uint16_t beep_left;

ISR(TIMER1_COMPA_vect)
{
    millis_now++;
    if (beep_left) {
        beep_left--;
        PORTC ^= _BV(PC0);          /* 500 Hz square wave on the buzzer */
    } else {
        PORTC &= (uint8_t)~_BV(PC0);
    }
}

uint32_t hal_millis(void)
{
    uint32_t t;
    uint8_t s = SREG;
    cli();
    t = millis_now;
    SREG = s;
    return t;
}

/* --- serial: received bytes into a ring by interrupt, sent by polling --------------------- */
#define RX_SIZE 128
static volatile uint8_t rx_buf[RX_SIZE], rx_head, rx_tail, rx_lost;

ISR(USART_RX_vect)
{
    uint8_t b = UDR0, next = (uint8_t)((rx_head + 1) % RX_SIZE);
    if (next == rx_tail) {
        rx_lost = 1;
        return;
    }
    rx_buf[rx_head] = b;
    rx_head = next;
}

void hal_write(const uint8_t *buf, size_t n)
{
    while (n--) {
        while (!(UCSR0A & _BV(UDRE0)))
            ;
        UDR0 = *buf++;
    }
}

static void uart_init(void)
{
    UCSR0A = _BV(U2X0);             /* 16 MHz / (8 * (16 + 1)) = 117647 baud: 2.1 % off 115200 */
    UBRR0 = 16;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* --- SPI and chip selects ------------------------------------------------------------------ */
static const uint8_t cs_bit[4] = {_BV(PB2), _BV(PB0), _BV(PD7), _BV(PD4)};

void spi_select(uint8_t slot, uint8_t on)
{
    volatile uint8_t *port = slot < 2 ? &PORTB : &PORTD;
    if (on)
        *port &= (uint8_t)~cs_bit[slot];
    else
        *port |= cs_bit[slot];
}

uint8_t spi_xfer(uint8_t b)
{
    SPDR = b;
    while (!(SPSR & _BV(SPIF)))
        ;
    return SPDR;
}

static void spi_init(void)
{
    DDRB |= _BV(PB3) | _BV(PB5) | _BV(PB2) | _BV(PB0) | _BV(PB1); /* MOSI, SCK, CS0, CS1, RST */
    DDRD |= _BV(PD7) | _BV(PD4);
    for (uint8_t i = 0; i < 4; i++)
        spi_select(i, 0);
    SPCR = _BV(SPE) | _BV(MSTR);    /* mode 0, MSB first */
    SPSR = _BV(SPI2X);              /* F_CPU / 2 = 8 MHz: the MFRC522 takes up to 10 MHz */
    PORTB |= _BV(PB1);              /* RST high: the MFRC522s run */
}

/* --- the reader ------------------------------------------------------------------------------ */
static uint8_t selected[READER_SLOTS], sak_of[READER_SLOTS];

#ifndef READER_INJECT
int hal_scan(uint8_t slot, uint8_t *uid, uint8_t *uid_len)
{
    int r;
    if (selected[slot])
        mfrc_halt(slot);            /* the last scan's tag goes to HALT; WUPA wakes it */
    r = mfrc_scan(slot, uid, uid_len, &sak_of[slot]);
    selected[slot] = r > 0;
    if (r < 0)
        mfrc_init(slot);            /* a fault: reset that reader */
    return r;
}

uint8_t hal_read_text(uint8_t slot, char *text, uint8_t cap)
{
    uint8_t mem[64];
    if (!selected[slot] || (sak_of[slot] & 0x18))  /* MIFARE Classic: UID only */
        return 0;
    for (uint8_t k = 0; k < 4; k++)
        if (mfrc_read_pages(slot, (uint8_t)(4 + 4 * k), mem + 16 * k) != 0)
            return 0;
    return ndef_text(mem, sizeof mem, text, cap);
}

int hal_write_text(uint8_t slot, const uint8_t *text, uint8_t len)
{
    uint8_t tlv[80], n, uid[MAX_UID], ul;
    if (len > 62)
        return -1;
    if (selected[slot])
        mfrc_halt(slot);
    if (mfrc_scan(slot, uid, &ul, &sak_of[slot]) <= 0 || (sak_of[slot] & 0x18))
        return -1;
    selected[slot] = 1;
    n = ndef_make(text, len, tlv);
    while (n % 4)
        tlv[n++] = 0;
    for (uint8_t i = 0; i < n; i += 4)
        if (mfrc_write_page(slot, (uint8_t)(4 + i / 4), tlv + i) != 0)
            return -1;
    return 0;
}
#else
/* Test build: the tags are those the host injected (T_TEST_INJECT frames). */
int hal_scan(uint8_t slot, uint8_t *uid, uint8_t *uid_len)
{
    (void)selected;
    (void)sak_of;
    if (!inject_uid_len[slot])
        return 0;
    for (uint8_t i = 0; i < inject_uid_len[slot]; i++)
        uid[i] = inject_uid[slot][i];
    *uid_len = inject_uid_len[slot];
    return 1;
}

uint8_t hal_read_text(uint8_t slot, char *text, uint8_t cap)
{
    uint8_t n = inject_text_len[slot] < cap ? inject_text_len[slot] : cap;
    for (uint8_t i = 0; i < n; i++)
        text[i] = inject_text[slot][i];
    return n;
}

int hal_write_text(uint8_t slot, const uint8_t *text, uint8_t len)
{
    if (len > MAX_TEXT)
        return -1;
    for (uint8_t i = 0; i < len; i++)
        inject_text[slot][i] = (char)text[i];
    inject_text_len[slot] = len;
    return 0;
}
#endif

/* --- the rest of the board ------------------------------------------------------------------ */
uint32_t hal_reader_id(void)
{
    uint32_t id = eeprom_read_dword((uint32_t *)0);
    if (id == 0xFFFFFFFFUL || id == 0) {
        /* Blank EEPROM: make an id up once from the noise of the temperature sensor's last
         * bits (internal 1.1 V reference, ADC channel 8), and keep it. */
        ADMUX = _BV(REFS1) | _BV(REFS0) | 8;
        ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
        for (uint8_t i = 0; i < 64; i++) {
            ADCSRA |= _BV(ADSC);
            while (ADCSRA & _BV(ADSC))
                ;
            id = (id << 1 | id >> 31) ^ ADCL ^ ((uint32_t)ADCH << 8) ^ TCNT1;
            id *= 2654435761UL;
        }
        ADCSRA = 0;
        if (id == 0xFFFFFFFFUL || id == 0)
            id = 0x52440001UL;
        eeprom_update_dword((uint32_t *)0, id);
    }
    return id;
}

uint8_t hal_capabilities(void)
{
    return 0x01 | 0x02 | 0x04 | 0x08; /* writes tags, button, LED, buzzer */
}

void hal_led(uint8_t r, uint8_t g, uint8_t b)
{
    PORTD = (uint8_t)((PORTD & ~(_BV(PD3) | _BV(PD5) | _BV(PD6))) | (r ? _BV(PD3) : 0)
                      | (g ? _BV(PD5) : 0) | (b ? _BV(PD6) : 0));
}

void hal_beep(uint16_t ms)
{
    uint8_t s = SREG;
    cli();
    beep_left = ms;
    SREG = s;
}

uint8_t hal_button(void)
{
    return !(PIND & _BV(PD2));
}

int main(void)
{
    MCUSR = 0;                      /* after a watchdog reset: stop it before it fires again */
    wdt_disable();
    DDRD |= _BV(PD3) | _BV(PD5) | _BV(PD6);
    PORTD |= _BV(PD2);              /* button pull-up */
    DDRC |= _BV(PC0);
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11) | _BV(CS10); /* CTC, F_CPU / 64 */
    OCR1A = F_CPU / 64 / 1000 - 1;
    TIMSK1 = _BV(OCIE1A);
    uart_init();
    spi_init();
    sei();
#ifndef READER_INJECT
    _delay_ms(50);                  /* MFRC522 oscillator start-up */
    for (uint8_t i = 0; i < READER_SLOTS; i++)
        mfrc_init(i);
#endif
    device_init();
    wdt_enable(WDTO_1S);            /* a hung bus or chip restarts the board (HELLO says so) */
    for (;;) {
        uint8_t lost;
        wdt_reset();
        while (rx_tail != rx_head) {
            uint8_t b = rx_buf[rx_tail];
            rx_tail = (uint8_t)((rx_tail + 1) % RX_SIZE);
            device_rx(b);
        }
        cli();
        lost = rx_lost;
        rx_lost = 0;
        sei();
        if (lost)
            device_rx_overrun();
        device_poll();
    }
}
