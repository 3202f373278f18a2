/* readersim: runs the reader's firmware (.hex or .elf) on simavr's ATmega328P with its
 * serial port on a pseudo-terminal, paced to real time, and a simulated MFRC522 with an
 * NTAG213 on each slot's SPI chip select (mfrc522_sim.c).
 *
 *   readersim build/reader.hex        prints "PTY /dev/pts/N", then runs until killed
 *
 * Commands on standard input (each answered "ok ..." or "error ..."):
 *   tag SLOT UID14HEX [TEXT]    a tag in the field of SLOT's reader (fresh memory with TEXT)
 *   untag SLOT / retag SLOT     takes it away / puts the same tag (and memory) back
 *   text SLOT                   answers "ok text TEXT": the text in that tag's memory
 *
 * Our own small bridge on libsimavr's public API (the idea of simavr's uart_pty part, not
 * its code): the UART's output IRQ writes to the pty; bytes read from the pty go into the
 * UART at the line's pace, one per byte time, while the UART says it has room (XON). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_hex.h"

#include "mfrc522_sim.h"

static int master = -1;
static uint8_t in_q[4096];
static size_t in_head, in_tail;
static uint8_t out_q[4096];
static size_t out_n;
static int xon = 1;
static avr_irq_t *uart_in;
static avr_cycle_count_t byte_cycles;
static volatile sig_atomic_t stop;

static void on_signal(int s)
{
    (void)s;
    stop = 1;
}

static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (out_n < sizeof out_q)
        out_q[out_n++] = (uint8_t)value;
}

static void xon_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    xon = 1;
}

static void xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    xon = 0;
}

/* One received byte into the UART every byte time, while it has room. */
static avr_cycle_count_t feed_timer(struct avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr;
    (void)param;
    if (xon && in_tail != in_head) {
        avr_raise_irq(uart_in, in_q[in_tail]);
        in_tail = (in_tail + 1) % sizeof in_q;
    }
    return when + byte_cycles;
}

static void flush_out(void)
{
    size_t done = 0;
    while (done < out_n) {
        ssize_t w = write(master, out_q + done, out_n - done);
        if (w <= 0) {
            if (errno == EAGAIN || errno == EIO)
                break; /* nobody reading yet, or the reader closed: drop, as a real line */
            break;
        }
        done += (size_t)w;
    }
    out_n = 0;
}

static void pump_in(void)
{
    uint8_t buf[256];
    ssize_t r = read(master, buf, sizeof buf);
    for (ssize_t i = 0; i < r; i++) {
        size_t next = (in_head + 1) % sizeof in_q;
        if (next == in_tail)
            break;
        in_q[in_head] = buf[i];
        in_head = next;
    }
}

static char cmd_buf[512];
static size_t cmd_n;

static void run_command(char *line)
{
    char *words[3] = {0};
    int n = 0, slot;
    char *save = NULL, *w = strtok_r(line, " \t\r", &save);
    while (w && n < 3) {
        words[n++] = w;
        w = n < 2 ? strtok_r(NULL, " \t\r", &save) : strtok_r(NULL, "\r", &save);
    }
    if (n < 2 || (slot = atoi(words[1])) < 0 || slot >= SIM_SLOTS) {
        printf("error %s\n", n ? words[0] : "");
        fflush(stdout);
        return;
    }
    if (!strcmp(words[0], "tag") && n >= 3) {
        uint8_t uid[7];
        char *text = strchr(words[2], ' ');
        if (text)
            *text++ = 0;
        if (strlen(words[2]) != 14) {
            printf("error uid\n");
            fflush(stdout);
            return;
        }
        for (int i = 0; i < 7; i++) {
            unsigned v;
            sscanf(words[2] + 2 * i, "%2x", &v);
            uid[i] = (uint8_t)v;
        }
        mfrc_sim_tag(slot, uid, text ? text : "");
    } else if (!strcmp(words[0], "untag")) {
        mfrc_sim_untag(slot);
    } else if (!strcmp(words[0], "retag")) {
        mfrc_sim_retag(slot);
    } else if (!strcmp(words[0], "text")) {
        char t[128];
        mfrc_sim_text(slot, t, sizeof t);
        printf("ok text %s\n", t);
        fflush(stdout);
        return;
    } else {
        printf("error %s\n", words[0]);
        fflush(stdout);
        return;
    }
    printf("ok %s\n", words[0]);
    fflush(stdout);
}

static void pump_commands(void)
{
    char buf[256];
    ssize_t r = read(0, buf, sizeof buf);
    for (ssize_t i = 0; i < r; i++) {
        if (buf[i] == '\n') {
            cmd_buf[cmd_n] = 0;
            run_command(cmd_buf);
            cmd_n = 0;
        } else if (cmd_n < sizeof cmd_buf - 1) {
            cmd_buf[cmd_n++] = buf[i];
        }
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *path;
    avr_t *avr;
    char name[128];
    int slave;
    struct termios tio;
    double t0;
    uint32_t f_cpu = 16000000;

    if (argc != 2) {
        fprintf(stderr, "usage: %s FIRMWARE.hex|FIRMWARE.elf\n", argv[0]);
        return 2;
    }
    path = argv[1];
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) {
        fprintf(stderr, "readersim: simavr has no atmega328p\n");
        return 1;
    }
    avr_init(avr);
    avr->frequency = f_cpu;
    avr->log = 1;
    if (strlen(path) > 4 && !strcmp(path + strlen(path) - 4, ".elf")) {
        elf_firmware_t fw;
        memset(&fw, 0, sizeof fw);
        if (elf_read_firmware(path, &fw) != 0) {
            fprintf(stderr, "readersim: cannot read %s\n", path);
            return 1;
        }
        fw.frequency = f_cpu;
        avr_load_firmware(avr, &fw);
    } else {
        uint32_t size = 0, base = 0;
        uint8_t *code = read_ihex_file(path, &size, &base);
        if (!code) {
            fprintf(stderr, "readersim: cannot read %s\n", path);
            return 1;
        }
        avr_loadcode(avr, code, size, base);
        avr->pc = base;
        avr->codeend = avr->flashend;
        free(code);
    }

    if (openpty(&master, &slave, name, NULL, NULL) < 0) {
        perror("openpty");
        return 1;
    }
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio); /* raw from the start: no echo of what the host sends */
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);

    {   /* the UART: binary, not simavr's stdio dump */
        uint32_t flags = 0;
        avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
        flags &= ~AVR_UART_FLAG_STDIO;
        avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    }
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            uart_out_hook, NULL);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                            xon_hook, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            xoff_hook, NULL);
    mfrc_sim_attach(avr);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    byte_cycles = f_cpu / 11520; /* 10 bits a byte at 115200 baud */
    avr_cycle_timer_register(avr, byte_cycles, feed_timer, NULL);

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    printf("PTY %s\n", name);
    fflush(stdout);

    t0 = now_s();
    while (!stop) {
        for (int i = 0; i < 10000; i++) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "readersim: the firmware stopped (state %d)\n", state);
                return 1;
            }
        }
        flush_out();
        pump_in();
        pump_commands();
        { /* pace to real time: never run ahead of the wall clock by more than 2 ms */
            double ahead = (double)avr->cycle / f_cpu - (now_s() - t0);
            if (ahead > 0.002)
                usleep((useconds_t)(ahead * 1e6));
        }
    }
    close(slave);
    close(master);
    return 0;
}
