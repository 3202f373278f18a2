/* The reader's behaviour (../PROTOCOL.md §4-§5), independent of the board: debouncing,
 * the heartbeat, answers to the host. The board supplies the hal_* functions below. */
#ifndef READER_DEVICE_H
#define READER_DEVICE_H

#include <stdint.h>
#include <stddef.h>

#define FW_MAJOR 1
#define FW_MINOR 0
#define FW_PATCH 0

#ifndef READER_SLOTS
#define READER_SLOTS 1
#endif
#define MAX_UID 10
#define MAX_TEXT 51           /* what fits a PLACED frame with a 10-byte UID */

#define POLL_MS 50            /* each slot is scanned every 50 ms */
#define PLACE_POLLS 3         /* seen in 3 scans in a row (100-150 ms): PLACED */
#define REMOVE_POLLS 8        /* missing in 8 scans in a row (350-400 ms): REMOVED */
#define PRESENCE_MS 500       /* heartbeat: PRESENCE at least every 500 ms */
#define LONG_PRESS_MS 600

/* Board interface. */
void hal_write(const uint8_t *buf, size_t n);
uint32_t hal_millis(void);
uint32_t hal_reader_id(void);
uint8_t hal_capabilities(void);
/* 1 and the UID when a tag answers on `slot`, 0 when none, -1 when the reader failed. */
int hal_scan(uint8_t slot, uint8_t *uid, uint8_t *uid_len);
/* The tag's text (NDEF text record) into `text`; its length, 0 when it has none. */
uint8_t hal_read_text(uint8_t slot, char *text, uint8_t cap);
/* 0 written, -1 failed. */
int hal_write_text(uint8_t slot, const uint8_t *text, uint8_t len);
void hal_led(uint8_t r, uint8_t g, uint8_t b);
void hal_beep(uint16_t ms);
/* 1 while the button is held. */
uint8_t hal_button(void);

void device_init(void);
void device_rx(uint8_t byte);  /* each byte received from the host */
void device_poll(void);        /* as often as possible from the main loop */
void device_rx_overrun(void);  /* the board lost received bytes */

#ifdef READER_INJECT
/* Test builds: the tag that hal_scan reports on a slot (len 0: none). */
extern uint8_t inject_uid[READER_SLOTS][MAX_UID], inject_uid_len[READER_SLOTS];
extern char inject_text[READER_SLOTS][MAX_TEXT];
extern uint8_t inject_text_len[READER_SLOTS];
#endif

#endif
