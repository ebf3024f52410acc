/*
 * framer.c - byte-at-a-time decoder for a small serial framing protocol:
 *
 *   SYNC(0x7E) | LEN | FLAGS | SEQ (4 bytes, little endian) | PAYLOAD | CRC16
 *
 * with byte stuffing (0x7D escapes 0x7E/0x7D by xor 0x20), a ring buffer
 * of decoded frames, sequence tracking and per-state statistics.
 * Written for the hdd reduction corpus.
 */

int printf(const char *fmt, ...);

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;

#define SYNC_BYTE 0x7E
#define ESC_BYTE 0x7D
#define ESC_XOR 0x20
#define MAX_PAYLOAD 48
#define RING_SIZE 8
#define SEQ_BYTES 4
#define SEQ_WIDTH (SEQ_BYTES * 8)

#define FLAG_ACK 0x01
#define FLAG_RETRY 0x02
#define FLAG_LAST 0x04
#define FLAG_MASK 0x07

enum rx_state {
    RX_HUNT,
    RX_LEN,
    RX_FLAGS,
    RX_SEQ,
    RX_PAYLOAD,
    RX_CRC_LO,
    RX_CRC_HI,
    RX_STATE_COUNT
};

enum rx_event {
    EV_NONE,
    EV_FRAME,
    EV_BAD_CRC,
    EV_BAD_LEN,
    EV_BAD_FLAGS,
    EV_OVERFLOW
};

struct frame {
    u8 len;
    u8 flags;
    u32 seq;
    u8 payload[MAX_PAYLOAD];
};

struct ring {
    struct frame slots[RING_SIZE];
    unsigned head;
    unsigned tail;
    unsigned dropped;
};

struct decoder {
    enum rx_state state;
    int escaped;
    struct frame cur;
    u8 seq_pos;
    u8 pos;
    u16 crc;
    u16 rx_crc;
    u32 last_seq;
    u32 seq_mask;
    int have_seq;
    unsigned gaps;
    unsigned visits[RX_STATE_COUNT];
    unsigned events[EV_OVERFLOW + 1];
    struct ring ring;
};

static const char *const state_names[RX_STATE_COUNT] = {
    "hunt", "len", "flags", "seq", "payload", "crc-lo", "crc-hi",
};

static u16 crc16_update(u16 crc, u8 byte)
{
    int i;
    crc ^= (u16)byte << 8;
    for (i = 0; i < 8; i++) {
        if (crc & 0x8000)
            crc = (u16)((crc << 1) ^ 0x1021);
        else
            crc = (u16)(crc << 1);
    }
    return crc;
}

static int ring_full(const struct ring *r)
{
    return r->head - r->tail == RING_SIZE;
}

static int ring_empty(const struct ring *r)
{
    return r->head == r->tail;
}

static void ring_push(struct ring *r, const struct frame *f)
{
    if (ring_full(r)) {
        r->tail++;
        r->dropped++;
    }
    r->slots[r->head % RING_SIZE] = *f;
    r->head++;
}

static int ring_pop(struct ring *r, struct frame *out)
{
    if (ring_empty(r))
        return 0;
    *out = r->slots[r->tail % RING_SIZE];
    r->tail++;
    return 1;
}

static void decoder_reset_frame(struct decoder *d)
{
    d->state = RX_HUNT;
    d->escaped = 0;
    d->pos = 0;
    d->seq_pos = 0;
    d->crc = 0xFFFF;
    d->cur.len = 0;
    d->cur.flags = 0;
    d->cur.seq = 0;
}

static void decoder_init(struct decoder *d)
{
    unsigned i;
    decoder_reset_frame(d);
    d->last_seq = 0;
    d->have_seq = 0;
    d->gaps = 0;
    d->seq_mask = (1u << SEQ_WIDTH) - 1;
    for (i = 0; i < RX_STATE_COUNT; i++)
        d->visits[i] = 0;
    for (i = 0; i <= EV_OVERFLOW; i++)
        d->events[i] = 0;
    d->ring.head = d->ring.tail = d->ring.dropped = 0;
}

static void track_sequence(struct decoder *d, u32 seq)
{
    if (d->have_seq) {
        u32 expected = (d->last_seq + 1) & d->seq_mask;
        if (seq != expected)
            d->gaps++;
    }
    d->last_seq = seq;
    d->have_seq = 1;
}

static enum rx_event finish_frame(struct decoder *d)
{
    if (d->crc != d->rx_crc)
        return EV_BAD_CRC;
    track_sequence(d, d->cur.seq);
    ring_push(&d->ring, &d->cur);
    return EV_FRAME;
}

/* Feed one already-unstuffed byte to the state machine. */
static enum rx_event step(struct decoder *d, u8 b)
{
    enum rx_event ev = EV_NONE;
    d->visits[d->state]++;
    switch (d->state) {
    case RX_HUNT:
        break;
    case RX_LEN:
        if (b == 0 || b > MAX_PAYLOAD) {
            ev = EV_BAD_LEN;
            decoder_reset_frame(d);
            break;
        }
        d->cur.len = b;
        d->crc = crc16_update(d->crc, b);
        d->state = RX_FLAGS;
        break;
    case RX_FLAGS:
        if (b & ~FLAG_MASK) {
            ev = EV_BAD_FLAGS;
            decoder_reset_frame(d);
            break;
        }
        d->cur.flags = b;
        d->crc = crc16_update(d->crc, b);
        d->state = RX_SEQ;
        break;
    case RX_SEQ:
        d->cur.seq |= (u32)b << (8 * d->seq_pos);
        d->crc = crc16_update(d->crc, b);
        if (++d->seq_pos == SEQ_BYTES)
            d->state = RX_PAYLOAD;
        break;
    case RX_PAYLOAD:
        d->cur.payload[d->pos++] = b;
        d->crc = crc16_update(d->crc, b);
        if (d->pos == d->cur.len)
            d->state = RX_CRC_LO;
        break;
    case RX_CRC_LO:
        d->rx_crc = b;
        d->state = RX_CRC_HI;
        break;
    case RX_CRC_HI:
        d->rx_crc |= (u16)(b << 8);
        ev = finish_frame(d);
        decoder_reset_frame(d);
        break;
    default:
        decoder_reset_frame(d);
        break;
    }
    return ev;
}

/* Feed one raw line byte: handles sync and byte stuffing. */
static enum rx_event decoder_feed(struct decoder *d, u8 raw)
{
    enum rx_event ev;
    if (raw == SYNC_BYTE) {
        int mid_frame = d->state != RX_HUNT && d->state != RX_LEN;
        decoder_reset_frame(d);
        d->state = RX_LEN;
        ev = mid_frame ? EV_OVERFLOW : EV_NONE;
        d->events[ev]++;
        return ev;
    }
    if (d->state == RX_HUNT)
        return EV_NONE;
    if (raw == ESC_BYTE) {
        d->escaped = 1;
        return EV_NONE;
    }
    if (d->escaped) {
        raw ^= ESC_XOR;
        d->escaped = 0;
    }
    ev = step(d, raw);
    d->events[ev]++;
    return ev;
}

/* Encoder used to produce test traffic. */
static unsigned put_stuffed(u8 *out, unsigned n, u8 b)
{
    if (b == SYNC_BYTE || b == ESC_BYTE) {
        out[n++] = ESC_BYTE;
        out[n++] = b ^ ESC_XOR;
    } else {
        out[n++] = b;
    }
    return n;
}

static unsigned encode_frame(u8 *out, u8 flags, u32 seq, const u8 *payload, u8 len)
{
    unsigned n = 0, i;
    u16 crc = 0xFFFF;
    u8 hdr[2 + SEQ_BYTES];
    hdr[0] = len;
    hdr[1] = flags;
    for (i = 0; i < SEQ_BYTES; i++)
        hdr[2 + i] = (u8)(seq >> (8 * i));
    out[n++] = SYNC_BYTE;
    for (i = 0; i < sizeof(hdr); i++) {
        crc = crc16_update(crc, hdr[i]);
        n = put_stuffed(out, n, hdr[i]);
    }
    for (i = 0; i < len; i++) {
        crc = crc16_update(crc, payload[i]);
        n = put_stuffed(out, n, payload[i]);
    }
    n = put_stuffed(out, n, (u8)(crc & 0xFF));
    n = put_stuffed(out, n, (u8)(crc >> 8));
    return n;
}

static void dump_stats(const struct decoder *d)
{
    int i;
    for (i = 0; i < RX_STATE_COUNT; i++)
        printf("  %-8s %u\n", state_names[i], d->visits[i]);
    printf("frames=%u bad_crc=%u bad_len=%u bad_flags=%u overflow=%u\n",
           d->events[EV_FRAME], d->events[EV_BAD_CRC], d->events[EV_BAD_LEN],
           d->events[EV_BAD_FLAGS], d->events[EV_OVERFLOW]);
    printf("gaps=%u dropped=%u\n", d->gaps, d->ring.dropped);
}

int main(void)
{
    static struct decoder dec;
    u8 wire[1024];
    u8 payload[MAX_PAYLOAD];
    unsigned n = 0, i, k;
    struct frame f;

    for (i = 0; i < MAX_PAYLOAD; i++)
        payload[i] = (u8)(i * 37 + 0x7C);
    for (k = 0; k < 10; k++) {
        u32 seq = k == 6 ? 100 : k;
        u8 len = (u8)(4 + k * 3);
        n += encode_frame(wire + n, (u8)(k & FLAG_MASK), seq, payload, len);
        if (k == 3)
            wire[n - 1] ^= 0x01;
    }
    decoder_init(&dec);
    for (i = 0; i < n; i++)
        decoder_feed(&dec, wire[i]);
    decoder_feed(&dec, SYNC_BYTE);
    while (ring_pop(&dec.ring, &f))
        printf("seq=%u len=%u flags=%x%s\n", f.seq, f.len, f.flags,
               (f.flags & FLAG_LAST) ? " last" : "");
    dump_stats(&dec);
    return 0;
}
