/* The limit for the companion's first audible sample: libespeak-ng called from C, in one
 * thread, with the companion's settings and the companion's silence trim
 * (companion/outputs/speech/trim.py), timed as bench/speech_latency.py's probe times it.
 *
 * bench/speech_latency.py compiles and runs it (gcc speech_limit.c -lespeak-ng). Input, one
 * sentence a line: VOICE \t RATE \t CUT_MS \t TEXT. For each line it answers one line: the
 * milliseconds from just before espeak_Synth() to the time the first sample louder than the
 * audible threshold is heard ("nan" when none is), then goes on synthesising until CUT_MS of
 * audio after that sample and aborts (the companion's sentence is cut as long after it).
 *
 * The probe (ProbeSink) is a device with a one-block buffer: a block handed at time w is
 * heard from max(w, end of the block before). Here a chunk is "handed" when the callback
 * has it, after the trim: the samples before the first one louder than -50 dBFS are dropped,
 * but 1 ms before it is kept (trim.py's THRESHOLD_DB and PREROLL_MS).
 *
 *   argv[1]: audible threshold (full scale 1.0; default 0.01, -40 dBFS)
 */
#include <espeak-ng/speak_lib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUFFER_MS 20       /* espeak_lib.py's BUFFER_MS */
#define TRIM_DB (-50.0)    /* trim.py's THRESHOLD_DB */
#define PREROLL_MS 1.0     /* trim.py's PREROLL_MS */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int rate_hz;
static double audible, trim;     /* in 16-bit units */
static long preroll;             /* samples */

/* one utterance */
static long seen;                /* samples the library gave so far */
static long start = -1;          /* first sample handed on after the trim (absolute) */
static double clock_end;         /* the probe's clock: when what was handed ends */
static double heard = -1;        /* when the first audible sample is heard */
static long heard_at;            /* its absolute index */
static long cut_samples;

static int on_audio(short *wav, int n, espeak_EVENT *events) {
    (void)events;
    if (wav == NULL || n <= 0)
        return 0;
    double t = now();
    long from = 0;               /* first sample of this chunk handed on */
    if (start < 0) {
        long i;
        for (i = 0; i < n && fabs((double)wav[i]) <= trim; i++)
            ;
        if (i == n) {            /* silence: held back (none of it is heard before the onset) */
            seen += n;
            return 0;
        }
        start = seen + i - preroll;
        if (start < 0)
            start = 0;
        from = start - seen;     /* negative when the pre-roll reaches into held chunks */
        clock_end = t;
    }
    /* the chunk [from, n) is handed now: heard from max(t, clock_end) */
    double begin = t > clock_end ? t : clock_end;
    if (heard < 0) {
        for (long i = from < 0 ? 0 : from; i < n; i++) {
            if (fabs((double)wav[i]) > audible) {
                heard = begin + (double)(i - from) / rate_hz;
                heard_at = seen + i;
                break;
            }
        }
    }
    clock_end = begin + (double)(n - from) / rate_hz;
    seen += n;
    if (heard >= 0 && seen - heard_at >= cut_samples)
        return 1;                /* cut, as interrupt() cuts the companion's sentence */
    return 0;
}

int main(int argc, char **argv) {
    double threshold = argc > 1 ? atof(argv[1]) : 0.01;
    rate_hz = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, BUFFER_MS, NULL, espeakINITIALIZE_DONT_EXIT);
    if (rate_hz <= 0) {
        fprintf(stderr, "libespeak-ng found no voice data\n");
        return 2;
    }
    audible = threshold * 32768.0;
    trim = pow(10.0, TRIM_DB / 20.0) * 32768.0;
    preroll = lround(rate_hz * PREROLL_MS / 1000.0);
    espeak_SetSynthCallback(on_audio);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("ready %d\n", rate_hz);

    static char line[65536];
    char voice[256] = "";
    int rate = -1;
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\n")] = 0;
        char *v = strtok(line, "\t"), *r = strtok(NULL, "\t"), *c = strtok(NULL, "\t"), *text = strtok(NULL, "");
        if (v == NULL || r == NULL || c == NULL || text == NULL) {
            printf("error bad line\n");
            continue;
        }
        if (strcmp(v, voice) != 0) {  /* as espeak_lib.py: a new voice resets the rate */
            if (espeak_SetVoiceByName(v) != EE_OK) {
                printf("error no voice %s\n", v);
                voice[0] = 0;
                continue;
            }
            snprintf(voice, sizeof voice, "%s", v);
            rate = -1;
        }
        if (atoi(r) != rate) {
            rate = atoi(r);
            espeak_SetParameter(espeakRATE, rate, 0);
        }
        cut_samples = (long)(atof(c) * rate_hz / 1000.0);
        seen = 0;
        start = -1;
        heard = -1;
        size_t size = strlen(text) + 1;
        double t0 = now();
        espeak_Synth(text, size, 0, POS_CHARACTER, 0, espeakCHARS_UTF8 | espeakENDPAUSE, NULL, NULL);
        if (heard < 0)
            printf("nan\n");
        else
            printf("%.4f\n", (heard - t0) * 1000.0);
    }
    return 0;
}
