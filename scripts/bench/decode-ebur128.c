/* The measuring floor for scripts/bench.sh: decodes every file named on the command line with
 * libsndfile and measures its momentary loudness with libebur128 (400 ms windows every 100 ms,
 * 400 ms of silence after it), on as many threads as there are cores, and nothing else: no
 * rules, no hashing, no catalog. What a minimal C validator costs. */
#include <ebur128.h>
#include <pthread.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"

static char **files;
static int count;
static int next_file;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;


static void *work(void *unused) {
    (void)unused;
    static __thread float buffer[4096 * 8];
    for (;;) {
        pthread_mutex_lock(&lock);
        int i = next_file++;
        pthread_mutex_unlock(&lock);
        if (i >= count) return NULL;
        SF_INFO info = {0};
        SNDFILE *file = sf_open(files[i], SFM_READ, &info);
        if (!file) { fprintf(stderr, "%s: %s\n", files[i], sf_strerror(NULL)); exit(1); }
        ebur128_state *state = ebur128_init((unsigned)info.channels, (unsigned long)info.samplerate, EBUR128_MODE_M);
        long step = info.samplerate / 10, until = step;
        double loudest = -1e9, value;
        sf_count_t n;
        while ((n = sf_readf_float(file, buffer, 4096)) > 0) {
            sf_count_t done = 0;
            while (done < n) {
                sf_count_t take = n - done < until ? n - done : until;
                ebur128_add_frames_float(state, buffer + done * info.channels, (size_t)take);
                done += take; until -= take;
                if (until == 0) { if (ebur128_loudness_momentary(state, &value) == EBUR128_SUCCESS && value > loudest) loudest = value; until = step; }
            }
        }
        static __thread float silence[48000 * 8];
        ebur128_add_frames_float(state, silence, (size_t)(4 * step));
        if (ebur128_loudness_momentary(state, &value) == EBUR128_SUCCESS && value > loudest) loudest = value;
        ebur128_destroy(&state);
        sf_close(file);
    }
}

int main(int argc, char **argv) {
    files = read_paths(argc, argv, &count);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    pthread_t threads[64];
    for (long t = 0; t < cores && t < 64; t++) pthread_create(&threads[t], NULL, work, NULL);
    for (long t = 0; t < cores && t < 64; t++) pthread_join(threads[t], NULL);
    printf("%d files measured\n", count);
    return 0;
}
