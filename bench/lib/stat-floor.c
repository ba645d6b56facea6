/* The least any rebuild that keeps an output folder's files can spend checking them: one fstatat per file the build
 * state lists, nothing else (no process start, no reading, no comparing), split over THREADS threads.
 *
 *   cc -O2 -pthread bench/lib/stat-floor.c -o .build/stat-floor
 *   .build/stat-floor CACHE/builds/XX/DIGEST.state OUTPUT-FOLDER 2
 *
 * BENCHMARKS.md, "W3 at 10,000 items: the floor", has what it measured. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static char **paths;
static long count;
static int threads;
static int folder;

static void *check(void *first) {
    struct stat status;
    long found = 0;
    for (long index = (long)first; index < count; index += threads) {
        if (fstatat(folder, paths[index], &status, AT_SYMLINK_NOFOLLOW) == 0) found++;
    }
    return (void *)found;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: stat-floor STATE-FILE OUTPUT-FOLDER THREADS\n");
        return 64;
    }
    FILE *state = fopen(argv[1], "r");
    folder = open(argv[2], O_RDONLY | O_DIRECTORY);
    threads = atoi(argv[3]);
    if (!state || folder < 0 || threads < 1 || threads > 64) {
        fprintf(stderr, "stat-floor: cannot read %s or %s\n", argv[1], argv[2]);
        return 66;
    }
    char line[8192];
    long capacity = 1024;
    paths = malloc(sizeof(char *) * capacity);
    while (fgets(line, sizeof line, state)) {
        /* file SIZE MTIME INODE PATH */
        if (strncmp(line, "file ", 5) != 0) continue;
        char *path = line + 5;
        for (int field = 0; field < 3 && path; field++) path = strchr(path, ' ') ? strchr(path, ' ') + 1 : NULL;
        if (!path) continue;
        path[strcspn(path, "\n")] = 0;
        if (count == capacity) paths = realloc(paths, sizeof(char *) * (capacity *= 2));
        paths[count++] = strdup(path);
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t workers[64];
    long found = 0;
    for (long index = 0; index < threads; index++) pthread_create(&workers[index], NULL, check, (void *)index);
    for (int index = 0; index < threads; index++) {
        void *part;
        pthread_join(workers[index], &part);
        found += (long)part;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
    printf("%ld files (%ld found), %d thread%s: %.1f ms\n", count, found, threads, threads == 1 ? "" : "s", ms);
    return 0;
}
