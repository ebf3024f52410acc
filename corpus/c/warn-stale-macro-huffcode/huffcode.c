/* Canonical Huffman code tables for a block-sorting compressor.
 *
 * The decoder keeps, per code length, the lowest and highest code value
 * (band_lo / band_hi) and a base offset into the permutation table, so that
 * a symbol is decoded by growing the code bit by bit until it falls into
 * its length's band.
 */
#include <stddef.h>
#include <string.h>

#define MAX_ALPHA   258
#define MAX_CODELEN 20
#define MIN_CODELEN 1
#define N_TABLES    6

#define BAND_WIDTH (nextHi[az] - nextLo[az])
#define IS_EMPTY_BAND(n) ((n) < 0)
#define CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

typedef unsigned char  u8;
typedef unsigned short u16;
typedef int            i32;

struct code_table {
    u8  len[MAX_ALPHA];
    i32 limit[MAX_CODELEN + 1];
    i32 base[MAX_CODELEN + 1];
    i32 perm[MAX_ALPHA];
    i32 min_len;
    i32 max_len;
    i32 alpha_size;
};

static i32 band_lo[MAX_CODELEN + 2];
static u16 band_hi[MAX_CODELEN + 2];
static i32 band_count[MAX_CODELEN + 2];

static i32 table_min_len(const struct code_table *t)
{
    i32 i, m = MAX_CODELEN;
    for (i = 0; i < t->alpha_size; i++) {
        if (t->len[i] < m) {
            m = t->len[i];
        }
    }
    return m;
}

static i32 table_max_len(const struct code_table *t)
{
    i32 i, m = 0;
    for (i = 0; i < t->alpha_size; i++) {
        if (t->len[i] > m) {
            m = t->len[i];
        }
    }
    return m;
}

static void build_perm(struct code_table *t)
{
    i32 pp = 0, i, j;
    for (i = t->min_len; i <= t->max_len; i++) {
        for (j = 0; j < t->alpha_size; j++) {
            if (t->len[j] == i) {
                t->perm[pp] = j;
                pp++;
            }
        }
    }
}

static void build_bands(const struct code_table *t)
{
    i32 az, vec = 0;
    memset(band_count, 0, sizeof band_count);
    for (az = 0; az < t->alpha_size; az++) {
        band_count[t->len[az]]++;
    }
    for (az = t->min_len; az <= t->max_len; az++) {
        band_lo[az] = vec;
        vec += band_count[az];
        band_hi[az] = (u16)(vec - 1);
        vec <<= 1;
    }
}

static void build_limits(struct code_table *t)
{
    i32 az;
    for (az = 0; az <= MAX_CODELEN; az++) {
        t->limit[az] = -1;
        t->base[az] = 0;
    }
    for (az = t->min_len; az <= t->max_len; az++) {
        i32 width = band_hi[az] - band_lo[az];
        if (IS_EMPTY_BAND(width)) {
            continue;
        }
        t->limit[az] = band_hi[az];
        t->base[az] = band_lo[az];
    }
    for (az = t->min_len + 1; az <= t->max_len; az++) {
        t->base[az] = ((t->limit[az - 1] + 1) << 1) - t->base[az];
    }
}

int code_table_init(struct code_table *t, const u8 *lengths, i32 alpha_size)
{
    i32 i;
    if (alpha_size < 2 || alpha_size > MAX_ALPHA) {
        return -1;
    }
    t->alpha_size = alpha_size;
    for (i = 0; i < alpha_size; i++) {
        if (lengths[i] < MIN_CODELEN || lengths[i] > MAX_CODELEN) {
            return -2;
        }
        t->len[i] = lengths[i];
    }
    t->min_len = table_min_len(t);
    t->max_len = table_max_len(t);
    build_perm(t);
    build_bands(t);
    build_limits(t);
    return 0;
}

int code_table_decode(const struct code_table *t, const u8 *bits, size_t nbits,
                      size_t *pos)
{
    i32 zn = t->min_len, zvec = 0;
    size_t i;
    for (i = 0; i < (size_t)zn; i++) {
        if (*pos >= nbits) {
            return -1;
        }
        zvec = (zvec << 1) | bits[(*pos)++];
    }
    while (zn <= t->max_len && zvec > t->limit[zn]) {
        if (*pos >= nbits) {
            return -1;
        }
        zn++;
        zvec = (zvec << 1) | bits[(*pos)++];
    }
    if (zn > t->max_len) {
        return -3;
    }
    return t->perm[CLAMP(zvec - t->base[zn], 0, t->alpha_size - 1)];
}

i32 code_table_widest_band(void)
{
    i32 az, best = 0;
    for (az = MIN_CODELEN; az <= MAX_CODELEN; az++) {
        if (band_hi[az] > best) {
            best = band_hi[az];
        }
    }
    return best;
}

void code_tables_init_all(struct code_table tables[N_TABLES], const u8 *lens)
{
    i32 t;
    for (t = 0; t < N_TABLES; t++) {
        code_table_init(&tables[t], lens + t * MAX_ALPHA, MAX_ALPHA);
    }
}
