/*
 * csim: the floor for juice-run. Memory-maps an order script and replays it
 * against the canonical book (recipes/), hard-coded below: its 5 fruits with
 * their opening stock and its 7 menu items with their needs. Every order takes
 * all of its fruit or none; `restock FRUIT N` adds, `set FRUIT N` sets,
 * `stock` shows nothing here; `#` comments, blank lines, CRLF and a UTF-8 BOM
 * are skipped. A line it cannot read is counted as skipped.
 *
 *     cc -O2 csim.c -o csim
 *     csim SCRIPT     # prints {"orders":N,"served":N,"refused":N,"skipped":N,"stock":{...}}
 *
 * If recipes/ changes, change the tables here: the bench checks csim's totals
 * against juice-run's on every run.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { STRAWBERRY, BANANA, PINEAPPLE, KIWI, MANGO, FRUITS };

static const char *const fruit_ids[FRUITS] = {"strawberry", "banana", "pineapple", "kiwi", "mango"};
static int64_t stock[FRUITS] = {10, 10, 10, 10, 10};

struct menu_item {
    const char *id;
    size_t length;
    int64_t need[FRUITS];
};

#define ITEM(name, ...) {name, sizeof(name) - 1, __VA_ARGS__}
static const struct menu_item menu[] = {
    ITEM("strawberry-juice", {[STRAWBERRY] = 16}),
    ITEM("banana-juice", {[BANANA] = 2}),
    ITEM("kiwi-juice", {[KIWI] = 3}),
    ITEM("pineapple-juice", {[PINEAPPLE] = 2}),
    ITEM("strawberry-banana-juice", {[STRAWBERRY] = 10, [BANANA] = 1}),
    ITEM("mango-juice", {[MANGO] = 3}),
    ITEM("mango-kiwi-juice", {[MANGO] = 2, [KIWI] = 1}),
};
enum { MENU_ITEMS = sizeof menu / sizeof menu[0] };

static uint64_t orders, served, refused, skipped;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next whitespace-separated token of [*p, end), or length 0 at the end. */
static size_t token(const char **p, const char *end, const char **start) {
    const char *s = *p;
    while (s < end && is_space(*s)) s++;
    const char *e = s;
    while (e < end && !is_space(*e)) e++;
    *start = s;
    *p = e;
    return (size_t)(e - s);
}

/* A whole decimal number with no sign, or -1. */
static int64_t number(const char *s, size_t n) {
    if (n == 0 || n > 18) return -1;
    int64_t value = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        value = value * 10 + (s[i] - '0');
    }
    return value;
}

static int fruit_index(const char *s, size_t n) {
    for (int f = 0; f < FRUITS; f++)
        if (strlen(fruit_ids[f]) == n && memcmp(fruit_ids[f], s, n) == 0) return f;
    return -1;
}

static void order(const struct menu_item *item) {
    orders++;
    for (int f = 0; f < FRUITS; f++) {
        if (stock[f] < item->need[f]) {
            refused++;
            return;
        }
    }
    for (int f = 0; f < FRUITS; f++) stock[f] -= item->need[f];
    served++;
}

static void line(const char *s, const char *end) {
    const char *hash = memchr(s, '#', (size_t)(end - s));
    if (hash) end = hash;
    const char *word;
    size_t n = token(&s, end, &word);
    if (n == 0) return;

    for (int m = 0; m < MENU_ITEMS; m++) {
        if (menu[m].length != n || memcmp(menu[m].id, word, n) != 0) continue;
        int64_t times = 1;
        const char *arg;
        size_t k = token(&s, end, &arg);
        if (k > 0) {
            times = (arg[0] == 'x') ? number(arg + 1, k - 1) : -1;
            if (times < 1 || times > 1000000) { skipped++; return; }
        }
        const char *extra;
        if (token(&s, end, &extra) > 0) { skipped++; return; }
        for (int64_t i = 0; i < times; i++) order(&menu[m]);
        return;
    }

    int is_restock = n == 7 && memcmp(word, "restock", 7) == 0;
    int is_set = n == 3 && memcmp(word, "set", 3) == 0;
    if (is_restock || is_set) {
        const char *name, *amount, *extra;
        size_t nn = token(&s, end, &name);
        size_t na = token(&s, end, &amount);
        int f = fruit_index(name, nn);
        int64_t value = number(amount, na);
        if (f < 0 || value < (is_restock ? 1 : 0) || token(&s, end, &extra) > 0) { skipped++; return; }
        if (is_restock) {
            if (stock[f] > INT64_MAX - value) { skipped++; return; }
            stock[f] += value;
        } else {
            stock[f] = value;
        }
        return;
    }
    if (n == 5 && memcmp(word, "stock", 5) == 0) {
        const char *extra;
        if (token(&s, end, &extra) > 0) skipped++;
        return;
    }
    skipped++;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: csim SCRIPT\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) {
        perror(argv[1]);
        return 2;
    }
    size_t size = (size_t)info.st_size;
    const char *data = "";
    if (size > 0) {
        data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            perror("mmap");
            return 2;
        }
        madvise((void *)data, size, MADV_SEQUENTIAL);
    }
    const char *p = data, *end = data + size;
    if (size >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    while (p < end) {
        const char *newline = memchr(p, '\n', (size_t)(end - p));
        const char *stop = newline ? newline : end;
        line(p, stop);
        p = newline ? newline + 1 : end;
    }
    printf("{\"orders\":%llu,\"served\":%llu,\"refused\":%llu,\"skipped\":%llu,\"stock\":{",
           (unsigned long long)orders, (unsigned long long)served, (unsigned long long)refused,
           (unsigned long long)skipped);
    for (int f = 0; f < FRUITS; f++)
        printf("%s\"%s\":%lld", f ? "," : "", fruit_ids[f], (long long)stock[f]);
    printf("}}\n");
    return skipped ? 1 : 0;
}
