/*
 * rawparse: the floor for juice-lint. Runs libyaml's event parser over every
 * file given and does nothing else: no composing, no validation, no output but
 * a count. Directories are searched recursively for *.yaml and *.yml files,
 * skipping hidden entries, as juice-lint does; a file named explicitly is read
 * whatever its extension. Each file is read whole into memory first, as
 * juice-lint reads it, and handed to yaml_parser_set_input_string.
 *
 *     cc -O2 rawparse.c $(pkg-config --cflags --libs yaml-0.1) -o rawparse
 *     rawparse PATH ...      # prints "files: N, events: N"; exit 1 on a YAML error
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

static unsigned long files_parsed;
static unsigned long events_seen;
static int failed;

static unsigned char *buffer;
static size_t buffer_capacity;

static int read_whole(const char *path, size_t *length) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    size_t used = 0;
    for (;;) {
        if (buffer_capacity - used < 65536) {
            size_t capacity = buffer_capacity ? buffer_capacity * 2 : 1 << 20;
            unsigned char *grown = realloc(buffer, capacity);
            if (!grown) { close(fd); return -1; }
            buffer = grown;
            buffer_capacity = capacity;
        }
        ssize_t n = read(fd, buffer + used, buffer_capacity - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            close(fd);
            return -1;
        }
        if (n == 0) break;
        used += (size_t)n;
    }
    close(fd);
    *length = used;
    return 0;
}

static void parse_file(const char *path) {
    size_t length;
    if (read_whole(path, &length) != 0) {
        fprintf(stderr, "rawparse: cannot read '%s': %s\n", path, strerror(errno));
        failed = 1;
        return;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fprintf(stderr, "rawparse: out of memory\n");
        exit(3);
    }
    yaml_parser_set_input_string(&parser, buffer, length);
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s:%lu:%lu: error: %s\n", path, (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "parse error");
            failed = 1;
            break;
        }
        yaml_event_type_t type = event.type;
        yaml_event_delete(&event);
        events_seen++;
        if (type == YAML_STREAM_END_EVENT) break;
    }
    yaml_parser_delete(&parser);
    files_parsed++;
}

static int is_recipe(const char *name) {
    size_t n = strlen(name);
    return (n >= 5 && strcmp(name + n - 5, ".yaml") == 0) || (n >= 4 && strcmp(name + n - 4, ".yml") == 0);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted paths under `directory`, depth first, like juice-lint's sorted path order. */
static void walk(const char *directory) {
    DIR *dir = opendir(directory);
    if (!dir) {
        fprintf(stderr, "rawparse: cannot list '%s'\n", directory);
        failed = 1;
        return;
    }
    char **names = NULL;
    size_t count = 0, capacity = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            names = realloc(names, capacity * sizeof *names);
            if (!names) exit(3);
        }
        names[count++] = strdup(entry->d_name);
    }
    closedir(dir);
    qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; i < count; i++) {
        size_t length = strlen(directory) + strlen(names[i]) + 2;
        char *path = malloc(length);
        if (!path) exit(3);
        snprintf(path, length, "%s/%s", directory, names[i]);
        struct stat info;
        if (stat(path, &info) == 0) {
            if (S_ISDIR(info.st_mode)) walk(path);
            else if (is_recipe(names[i])) parse_file(path);
        }
        free(path);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: rawparse PATH ...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            fprintf(stderr, "rawparse: no such file or directory: '%s'\n", argv[i]);
            return 2;
        }
        if (S_ISDIR(info.st_mode)) walk(argv[i]);
        else parse_file(argv[i]);
    }
    printf("files: %lu, events: %lu\n", files_parsed, events_seen);
    free(buffer);
    return failed;
}
