/* The decode floor for scripts/bench.sh: reads every sample of every file named on the command
 * line through libsndfile, in 4096-frame chunks, and does nothing else. */
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths from the command line, or one per line from FILE with `--list FILE` (thousands of paths
 * do not fit in one argument of the command line a benchmark tool passes on). */
static char **read_paths(int argc, char **argv, int *n) {
    if (argc == 3 && strcmp(argv[1], "--list") == 0) {
        FILE *list = fopen(argv[2], "r");
        if (!list) { perror(argv[2]); exit(1); }
        int capacity = 1024, count = 0;
        char **paths = malloc(sizeof(char *) * capacity), line[4096];
        while (fgets(line, sizeof line, list)) {
            line[strcspn(line, "\n")] = 0;
            if (!*line) continue;
            if (count == capacity) paths = realloc(paths, sizeof(char *) * (capacity *= 2));
            paths[count++] = strdup(line);
        }
        fclose(list);
        *n = count;
        return paths;
    }
    *n = argc - 1;
    return argv + 1;
}

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
