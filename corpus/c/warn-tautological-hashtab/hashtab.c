/*
 * hashtab.c - a small open-addressing string -> int hash table with
 * linear probing, tombstones, incremental statistics and a compaction pass.
 * Written for the hdd reduction corpus.
 */

typedef unsigned long size_t;
typedef unsigned int u32;
typedef unsigned long long u64;

int printf(const char *fmt, ...);
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void free(void *p);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strcpy(char *dst, const char *src);

#define HT_MIN_CAPACITY 8
#define HT_MAX_LOAD_NUM 3
#define HT_MAX_LOAD_DEN 4
#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

#define SLOT_EMPTY 0x0
#define SLOT_USED 0x1
#define SLOT_TOMB 0x2
#define SLOT_PINNED 0x4
#define SLOT_DIRTY 0x8

#define HT_OK 0
#define HT_ERR_NOMEM (-1)
#define HT_ERR_MISSING (-2)
#define HT_ERR_PINNED (-3)

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct ht_slot {
    char *key;
    int value;
    u32 hash;
    unsigned flags;
};

struct ht_stats {
    u64 lookups;
    u64 probes;
    u64 inserts;
    u64 removals;
    u64 resizes;
    u32 longest_probe;
};

struct hashtab {
    struct ht_slot *slots;
    size_t capacity;
    size_t used;
    size_t tombs;
    struct ht_stats stats;
};

static u32 fnv1a(const char *s)
{
    u32 h = FNV_OFFSET;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= FNV_PRIME;
    }
    return h;
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        strcpy(p, s);
    return p;
}

static size_t round_up_pow2(size_t n)
{
    size_t c = HT_MIN_CAPACITY;
    while (c < n)
        c <<= 1;
    return c;
}

int ht_init(struct hashtab *ht, size_t hint)
{
    size_t cap = round_up_pow2(hint);
    ht->slots = calloc(cap, sizeof(struct ht_slot));
    if (!ht->slots)
        return HT_ERR_NOMEM;
    ht->capacity = cap;
    ht->used = 0;
    ht->tombs = 0;
    ht->stats.lookups = 0;
    ht->stats.probes = 0;
    ht->stats.inserts = 0;
    ht->stats.removals = 0;
    ht->stats.resizes = 0;
    ht->stats.longest_probe = 0;
    return HT_OK;
}

void ht_destroy(struct hashtab *ht)
{
    size_t i;
    for (i = 0; i < ht->capacity; i++) {
        if (ht->slots[i].flags & SLOT_USED)
            free(ht->slots[i].key);
    }
    free(ht->slots);
    ht->slots = 0;
    ht->capacity = ht->used = ht->tombs = 0;
}

static void note_probe(struct hashtab *ht, u32 dist)
{
    ht->stats.probes += dist;
    if (dist > ht->stats.longest_probe)
        ht->stats.longest_probe = dist;
}

static struct ht_slot *find_slot(struct hashtab *ht, const char *key, u32 hash)
{
    size_t mask = ht->capacity - 1;
    size_t i = hash & mask;
    u32 dist = 0;
    ht->stats.lookups++;
    for (;;) {
        struct ht_slot *s = &ht->slots[i];
        if (s->flags == SLOT_EMPTY) {
            note_probe(ht, dist);
            return 0;
        }
        if ((s->flags & SLOT_USED) && s->hash == hash && strcmp(s->key, key) == 0) {
            note_probe(ht, dist);
            return s;
        }
        i = (i + 1) & mask;
        dist++;
    }
}

static struct ht_slot *find_free(struct hashtab *ht, u32 hash)
{
    size_t mask = ht->capacity - 1;
    size_t i = hash & mask;
    while (ht->slots[i].flags & SLOT_USED)
        i = (i + 1) & mask;
    return &ht->slots[i];
}

static int ht_resize(struct hashtab *ht, size_t new_cap)
{
    struct ht_slot *old = ht->slots;
    size_t old_cap = ht->capacity;
    size_t i;

    ht->slots = calloc(new_cap, sizeof(struct ht_slot));
    if (!ht->slots) {
        ht->slots = old;
        return HT_ERR_NOMEM;
    }
    ht->capacity = new_cap;
    ht->tombs = 0;
    for (i = 0; i < old_cap; i++) {
        if (old[i].flags & SLOT_USED) {
            struct ht_slot *dst = find_free(ht, old[i].hash);
            *dst = old[i];
            dst->flags &= ~SLOT_DIRTY;
        }
    }
    free(old);
    ht->stats.resizes++;
    return HT_OK;
}

static int needs_grow(const struct hashtab *ht)
{
    return (ht->used + ht->tombs + 1) * HT_MAX_LOAD_DEN > ht->capacity * HT_MAX_LOAD_NUM;
}

int ht_put(struct hashtab *ht, const char *key, int value)
{
    u32 h = fnv1a(key);
    struct ht_slot *s = find_slot(ht, key, h);
    if (s) {
        if (s->flags & SLOT_PINNED)
            return HT_ERR_PINNED;
        s->value = value;
        s->flags |= SLOT_DIRTY;
        return HT_OK;
    }
    if (needs_grow(ht)) {
        size_t cap = ht->capacity;
        if (ht->used * 2 >= cap)
            cap *= 2;
        if (ht_resize(ht, cap) != HT_OK)
            return HT_ERR_NOMEM;
    }
    s = find_free(ht, h);
    if (s->flags & SLOT_TOMB)
        ht->tombs--;
    s->key = dup_string(key);
    if (!s->key)
        return HT_ERR_NOMEM;
    s->hash = h;
    s->value = value;
    s->flags = SLOT_USED | SLOT_DIRTY;
    ht->used++;
    ht->stats.inserts++;
    return HT_OK;
}

int ht_get(struct hashtab *ht, const char *key, int *out)
{
    struct ht_slot *s = find_slot(ht, key, fnv1a(key));
    if (!s)
        return HT_ERR_MISSING;
    *out = s->value;
    return HT_OK;
}

int ht_pin(struct hashtab *ht, const char *key)
{
    struct ht_slot *s = find_slot(ht, key, fnv1a(key));
    if (!s)
        return HT_ERR_MISSING;
    s->flags |= SLOT_PINNED;
    return HT_OK;
}

int ht_remove(struct hashtab *ht, const char *key)
{
    struct ht_slot *s = find_slot(ht, key, fnv1a(key));
    if (!s)
        return HT_ERR_MISSING;
    if (s->flags & SLOT_PINNED)
        return HT_ERR_PINNED;
    free(s->key);
    s->key = 0;
    s->flags = SLOT_TOMB;
    ht->used--;
    ht->tombs++;
    ht->stats.removals++;
    return HT_OK;
}

/* Rebuild the table in place when tombstones dominate, and count how many
 * entries were written since the last compaction. */
size_t ht_compact(struct hashtab *ht)
{
    size_t i, dirty = 0, pinned = 0;
    for (i = 0; i < ht->capacity; i++) {
        struct ht_slot *s = &ht->slots[i];
        if (!(s->flags & SLOT_USED))
            continue;
        if (s->flags & SLOT_DIRTY)
            dirty++;
        if ((s->flags & SLOT_PINNED) == SLOT_DIRTY)
            pinned++;
    }
    if (ht->tombs * 2 > ht->used)
        ht_resize(ht, ht->capacity);
    return dirty + pinned;
}

typedef void (*ht_visit_fn)(const char *key, int value, void *ctx);

void ht_foreach(const struct hashtab *ht, ht_visit_fn fn, void *ctx)
{
    size_t i;
    for (i = 0; i < ht->capacity; i++) {
        const struct ht_slot *s = &ht->slots[i];
        if (s->flags & SLOT_USED)
            fn(s->key, s->value, ctx);
    }
}

struct sum_ctx {
    long total;
    int count;
    int max;
};

static void sum_visit(const char *key, int value, void *ctx)
{
    struct sum_ctx *c = ctx;
    (void)key;
    c->total += value;
    c->count++;
    if (value > c->max)
        c->max = value;
}

void ht_print_stats(const struct hashtab *ht)
{
    double avg = 0.0;
    if (ht->stats.lookups)
        avg = (double)ht->stats.probes / (double)ht->stats.lookups;
    printf("capacity=%lu used=%lu tombs=%lu\n", ht->capacity, ht->used, ht->tombs);
    printf("lookups=%llu avg_probe=%.2f longest=%u\n", ht->stats.lookups, avg,
           ht->stats.longest_probe);
    printf("inserts=%llu removals=%llu resizes=%llu\n", ht->stats.inserts,
           ht->stats.removals, ht->stats.resizes);
}

static const char *const sample_words[] = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    "hotel", "india", "juliet", "kilo", "lima", "mike", "november",
    "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
    "victor", "whiskey", "xray", "yankee", "zulu",
};

static void make_key(char *buf, const char *word, int n)
{
    int i = 0;
    while (word[i]) {
        buf[i] = word[i];
        i++;
    }
    buf[i++] = '-';
    if (n >= 10)
        buf[i++] = (char)('0' + n / 10 % 10);
    buf[i++] = (char)('0' + n % 10);
    buf[i] = '\0';
}

int main(void)
{
    struct hashtab ht;
    struct sum_ctx sc = {0, 0, 0};
    char key[64];
    size_t w;
    int round, v, missing = 0;

    if (ht_init(&ht, 4) != HT_OK)
        return 1;
    for (round = 0; round < 20; round++) {
        for (w = 0; w < ARRAY_LEN(sample_words); w++) {
            make_key(key, sample_words[w], round);
            if (ht_put(&ht, key, round * 100 + (int)w) != HT_OK)
                return 2;
        }
    }
    ht_pin(&ht, "alpha-3");
    for (round = 0; round < 20; round += 2) {
        for (w = 0; w < ARRAY_LEN(sample_words); w += 3) {
            make_key(key, sample_words[w], round);
            ht_remove(&ht, key);
        }
    }
    for (round = 0; round < 20; round++) {
        make_key(key, "delta", round);
        if (ht_get(&ht, key, &v) != HT_OK)
            missing++;
    }
    printf("compacted: %lu dirty entries\n", ht_compact(&ht));
    ht_foreach(&ht, sum_visit, &sc);
    printf("count=%d total=%ld max=%d missing=%d\n", sc.count, sc.total, sc.max, missing);
    ht_print_stats(&ht);
    ht_destroy(&ht);
    return 0;
}
