/* The decode floor for scripts/bench.sh: reads every sample of every file named on the command
 * line through libsndfile, in 4096-frame chunks, and does nothing else. */
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

int main(int argc, char **argv) {
    static float buffer[4096 * 8];
    long long frames = 0;
    int count;
    char **paths = read_paths(argc, argv, &count);
    for (int i = 0; i < count; i++) {
        SF_INFO info = {0};
        SNDFILE *file = sf_open(paths[i], SFM_READ, &info);
        if (!file) { fprintf(stderr, "%s: %s\n", paths[i], sf_strerror(NULL)); return 1; }
        sf_count_t n;
        while ((n = sf_readf_float(file, buffer, 4096)) > 0) frames += n;
        sf_close(file);
    }
    printf("%d files, %lld frames\n", count, frames);
    return 0;
}
