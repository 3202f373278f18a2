/* Debouncing, heartbeat and the answers to the host (../PROTOCOL.md §4-§5). */
#include "device.h"
#include "proto.h"

#include <string.h>

typedef struct {
    uint8_t present;                 /* a PLACED was sent and no REMOVED since */
    uint8_t uid[MAX_UID], uid_len;
    char text[MAX_TEXT];
    uint8_t text_len;
    uint8_t cand[MAX_UID], cand_len, cand_count;
    uint8_t misses;
} slot_t;

static slot_t slots[READER_SLOTS];
static proto_decoder_t dec;
static uint8_t seq;
static uint32_t last_poll, last_presence;
static uint16_t reader_faults, rx_overruns;
static uint8_t button_down;
static uint32_t button_since;

#ifdef READER_INJECT
uint8_t inject_uid[READER_SLOTS][MAX_UID], inject_uid_len[READER_SLOTS];
char inject_text[READER_SLOTS][MAX_TEXT];
uint8_t inject_text_len[READER_SLOTS];
#endif

static void send(uint8_t type, const uint8_t *payload, uint8_t len)
{
    uint8_t wire[PROTO_MAX_WIRE];
    size_t n = proto_encode(type, seq++, payload, len, wire);
    hal_write(wire, n);
}

static void send_hello(void)
{
    uint32_t id = hal_reader_id();
    uint8_t p[10] = {PROTO_VERSION, FW_MAJOR, FW_MINOR, FW_PATCH,
                     (uint8_t)(id >> 24), (uint8_t)(id >> 16), (uint8_t)(id >> 8), (uint8_t)id,
                     hal_capabilities(), READER_SLOTS};
    send(T_HELLO, p, sizeof p);
}

static void send_ack(uint8_t acked, uint8_t code)
{
    uint8_t p[2] = {acked, code};
    send(T_ACK, p, 2);
}

static void send_placed(uint8_t i)
{
    uint8_t p[PROTO_MAX_PAYLOAD], n = 0;
    p[n++] = i;
    p[n++] = slots[i].uid_len;
    memcpy(p + n, slots[i].uid, slots[i].uid_len);
    n += slots[i].uid_len;
    p[n++] = slots[i].text_len;
    memcpy(p + n, slots[i].text, slots[i].text_len);
    n += slots[i].text_len;
    send(T_PLACED, p, n);
}

static void send_removed(uint8_t i)
{
    uint8_t p[2 + MAX_UID], n = 0;
    p[n++] = i;
    p[n++] = slots[i].uid_len;
    memcpy(p + n, slots[i].uid, slots[i].uid_len);
    n += slots[i].uid_len;
    send(T_REMOVED, p, n);
}

static void send_presence(void)
{
    uint8_t p[PROTO_MAX_PAYLOAD], n = 2, count = 0;
    for (uint8_t i = 0; i < READER_SLOTS; i++) {
        if (!slots[i].present)
            continue;
        if (n + 2 + slots[i].uid_len > PROTO_MAX_PAYLOAD) {  /* full: more follows */
            p[0] = 1;
            p[1] = count;
            send(T_PRESENCE, p, n);
            n = 2;
            count = 0;
        }
        p[n++] = i;
        p[n++] = slots[i].uid_len;
        memcpy(p + n, slots[i].uid, slots[i].uid_len);
        n += slots[i].uid_len;
        count++;
    }
    p[0] = 0;
    p[1] = count;
    send(T_PRESENCE, p, n);
    last_presence = hal_millis();
}

static void send_status(void)
{
    uint32_t up = hal_millis() / 1000;
    uint16_t dropped = (uint16_t)(dec.cobs_errors + dec.length_errors + dec.crc_errors
                                  + dec.too_long + rx_overruns);
    uint8_t p[10] = {(uint8_t)(up >> 24), (uint8_t)(up >> 16), (uint8_t)(up >> 8), (uint8_t)up,
                     (uint8_t)(dec.crc_errors >> 8), (uint8_t)dec.crc_errors,
                     (uint8_t)(dropped >> 8), (uint8_t)dropped,
                     (uint8_t)(reader_faults >> 8), (uint8_t)reader_faults};
    send(T_STATUS, p, sizeof p);
}

void device_init(void)
{
    memset(slots, 0, sizeof slots);
    proto_decoder_init(&dec);
    seq = 0;
    last_poll = last_presence = hal_millis();
    send_hello();
}

void device_rx_overrun(void)
{
    rx_overruns++;
}

static int uid_len_ok(uint8_t n)
{
    return n == 4 || n == 7 || n == 10;
}

static void handle(const proto_frame_t *f)
{
    const uint8_t *p = f->payload;
    if (f->type < 0x80)
        return; /* device-to-host types: not for us (an echoing line must not loop) */
    switch (f->type) {
    case T_HELLO_REQ:
        send_hello();
        send_ack(f->seq, ACK_OK);
        return;
    case T_PING:
        send_ack(f->seq, ACK_OK);
        return;
    case T_STATUS_REQ:
        send_status();
        send_ack(f->seq, ACK_OK);
        return;
    case T_SLOT_REQ:
        if (f->len < 1 || p[0] >= READER_SLOTS) {
            send_ack(f->seq, f->len < 1 ? ACK_BAD_PAYLOAD : ACK_NO_TAG);
        } else if (!slots[p[0]].present) {
            send_ack(f->seq, ACK_NO_TAG);
        } else {
            send_placed(p[0]);
            send_ack(f->seq, ACK_OK);
        }
        return;
    case T_LED:
        if (f->len < 3) {
            send_ack(f->seq, ACK_BAD_PAYLOAD);
            return;
        }
        hal_led(p[0], p[1], p[2]);
        send_ack(f->seq, ACK_OK);
        return;
    case T_BEEP:
        if (f->len < 2) {
            send_ack(f->seq, ACK_BAD_PAYLOAD);
            return;
        }
        hal_beep((uint16_t)((p[0] << 8) | p[1]));
        send_ack(f->seq, ACK_OK);
        return;
    case T_WRITE_TAG: {
        uint8_t slot, len;
        if (f->len < 2 || f->len < 2 + p[1]) {
            send_ack(f->seq, ACK_BAD_PAYLOAD);
            return;
        }
        slot = p[0];
        len = p[1];
        if (len > MAX_TEXT) {  /* more than a PLACED could ever report back */
            send_ack(f->seq, ACK_BAD_PAYLOAD);
            return;
        }
        if (slot >= READER_SLOTS || !slots[slot].present) {
            send_ack(f->seq, ACK_NO_TAG);
            return;
        }
        if (hal_write_text(slot, p + 2, len) != 0) {
            send_ack(f->seq, ACK_WRITE_FAILED);
            return;
        }
        slots[slot].text_len = len;
        memcpy(slots[slot].text, p + 2, len);
        send_ack(f->seq, ACK_OK);
        return;
    }
#ifdef READER_INJECT
    case T_TEST_INJECT: {  /* slot, uid len, uid, text len, text */
        uint8_t slot = p[0], ul = p[1], tl;
        if (f->len < 3 || slot >= READER_SLOTS || !uid_len_ok(ul) || f->len < 3 + ul
            || f->len < 3 + ul + p[2 + ul] || p[2 + ul] > MAX_TEXT) {
            send_ack(f->seq, ACK_BAD_PAYLOAD);
            return;
        }
        tl = p[2 + ul];
        memcpy(inject_uid[slot], p + 2, ul);
        inject_uid_len[slot] = ul;
        memcpy(inject_text[slot], p + 3 + ul, tl);
        inject_text_len[slot] = tl;
        send_ack(f->seq, ACK_OK);
        return;
    }
    case T_TEST_EJECT:
        if (f->len < 1 || p[0] >= READER_SLOTS) {
            send_ack(f->seq, ACK_BAD_PAYLOAD);
            return;
        }
        inject_uid_len[p[0]] = 0;
        send_ack(f->seq, ACK_OK);
        return;
#endif
    default:
        send_ack(f->seq, ACK_UNKNOWN_TYPE);
        return;
    }
}

void device_rx(uint8_t byte)
{
    proto_frame_t f;
    if (proto_decoder_push(&dec, byte, &f))
        handle(&f);
}

static void scan_slot(uint8_t i)
{
    slot_t *s = &slots[i];
    uint8_t uid[MAX_UID], len = 0;
    int r = hal_scan(i, uid, &len);
    if (r < 0) {
        reader_faults++;
        return; /* a fault is neither a presence nor an absence */
    }
    if (r > 0 && !uid_len_ok(len))
        r = 0;
    if (r > 0) {
        if (s->present && len == s->uid_len && !memcmp(uid, s->uid, len)) {
            s->misses = 0;
            s->cand_count = 0;
            return;
        }
        if (s->cand_count && len == s->cand_len && !memcmp(uid, s->cand, len)) {
            s->cand_count++;
        } else {
            memcpy(s->cand, uid, len);
            s->cand_len = len;
            s->cand_count = 1;
        }
        if (s->cand_count >= PLACE_POLLS) {
            if (s->present) {        /* another token took its place */
                send_removed(i);
                s->present = 0;
            }
            memcpy(s->uid, uid, len);
            s->uid_len = len;
            s->text_len = hal_read_text(i, s->text, MAX_TEXT);
            s->present = 1;
            s->misses = 0;
            s->cand_count = 0;
            send_placed(i);
            send_presence();
        }
        return;
    }
    s->cand_count = 0;
    if (s->present && ++s->misses >= REMOVE_POLLS) {
        send_removed(i);
        s->present = 0;
        s->misses = 0;
        send_presence();
    }
}

static void poll_button(uint32_t now)
{
    uint8_t down = hal_button();
    if (down && !button_down) {
        button_since = now;
    } else if (!down && button_down) {
        uint32_t held = now - button_since;
        if (held >= 30) { /* shorter: contact bounce */
            uint8_t p[2] = {0, held >= LONG_PRESS_MS ? 2 : 1};
            send(T_BUTTON, p, 2);
        }
    }
    button_down = down;
}

void device_poll(void)
{
    uint32_t now = hal_millis();
    if (now - last_poll >= POLL_MS) {
        last_poll = now;
        for (uint8_t i = 0; i < READER_SLOTS; i++)
            scan_slot(i);
        poll_button(now);
    }
    if (hal_millis() - last_presence >= PRESENCE_MS)
        send_presence();
}
