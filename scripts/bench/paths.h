/* The file list both bench programs read: paths from the command line, or one per line from
 * FILE with `--list FILE`. */
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thousands of paths do not fit in one argument of the command line a benchmark tool passes on. */
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
