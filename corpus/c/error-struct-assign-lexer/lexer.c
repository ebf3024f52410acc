/*
 * lexer.c - tokenizer and precedence-climbing evaluator for a tiny
 * calculator language:  let x = 3 * (y + 2); print x;
 * Written for the hdd reduction corpus.
 */

int printf(const char *fmt, ...);
int puts(const char *s);

#define MAX_VARS 32
#define MAX_NAME 16
#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define IS_ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || (c) == '_')
#define IS_SPACE(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r')

enum tok_kind {
    TOK_EOF,
    TOK_NUMBER,
    TOK_IDENT,
    TOK_LET,
    TOK_PRINT,
    TOK_PLUS,
    TOK_MINUS,
    TOK_STAR,
    TOK_SLASH,
    TOK_PERCENT,
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_ASSIGN,
    TOK_SEMI,
    TOK_ERROR
};

struct token {
    enum tok_kind kind;
    const char *start;
    int len;
    long value;
    int line;
};

struct lexer {
    const char *src;
    const char *pos;
    int line;
    struct token cur;
    int errors;
};

struct var {
    char name[MAX_NAME];
    long value;
    int defined;
};

struct interp {
    struct lexer lx;
    struct var vars[MAX_VARS];
    int nvars;
    int depth;
    int max_depth;
};

static const char *const kind_names[] = {
    "eof", "number", "ident", "let", "print", "+", "-", "*", "/", "%",
    "(", ")", "=", ";", "error",
};

static const char *tok_name(enum tok_kind k)
{
    if ((unsigned)k < sizeof(kind_names) / sizeof(kind_names[0]))
        return kind_names[k];
    return "?";
}

static int same_word(const char *a, int alen, const char *b)
{
    int i;
    for (i = 0; i < alen; i++) {
        if (b[i] == '\0' || a[i] != b[i])
            return 0;
    }
    return b[alen] == '\0';
}

static void skip_space_and_comments(struct lexer *lx)
{
    for (;;) {
        while (IS_SPACE(*lx->pos)) {
            if (*lx->pos == '\n')
                lx->line++;
            lx->pos++;
        }
        if (lx->pos[0] == '#') {
            while (*lx->pos && *lx->pos != '\n')
                lx->pos++;
            continue;
        }
        break;
    }
}

static void lex_number(struct lexer *lx, struct token *t)
{
    long v = 0;
    if (lx->pos[0] == '0' && (lx->pos[1] == 'x' || lx->pos[1] == 'X')) {
        lx->pos += 2;
        for (;;) {
            char c = *lx->pos;
            if (IS_DIGIT(c))
                v = v * 16 + (c - '0');
            else if (c >= 'a' && c <= 'f')
                v = v * 16 + (c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v = v * 16 + (c - 'A' + 10);
            else
                break;
            lx->pos++;
        }
    } else {
        while (IS_DIGIT(*lx->pos))
            v = v * 10 + (*lx->pos++ - '0');
    }
    t->kind = TOK_NUMBER;
    t->value = v;
}

static void lex_ident(struct lexer *lx, struct token *t)
{
    while (IS_ALPHA(*lx->pos) || IS_DIGIT(*lx->pos))
        lx->pos++;
    t->len = (int)(lx->pos - t->start);
    if (same_word(t->start, t->len, "let"))
        t->kind = TOK_LET;
    else if (same_word(t->start, t->len, "print"))
        t->kind = TOK_PRINT;
    else
        t->kind = TOK_IDENT;
}

static void next_token(struct lexer *lx)
{
    struct token *t = &lx->cur;
    char c;

    skip_space_and_comments(lx);
    t->start = lx->pos;
    t->line = lx->line;
    t->value = 0;
    c = *lx->pos;
    if (c == '\0') {
        t->kind = TOK_EOF;
        t->len = 0;
        return;
    }
    if (IS_DIGIT(c)) {
        lex_number(lx, t);
        t->len = (int)(lx->pos - t->start);
        return;
    }
    if (IS_ALPHA(c)) {
        lex_ident(lx, t);
        return;
    }
    lx->pos++;
    t->len = 1;
    switch (c) {
    case '+': t->kind = TOK_PLUS; break;
    case '-': t->kind = TOK_MINUS; break;
    case '*': t->kind = TOK_STAR; break;
    case '/': t->kind = TOK_SLASH; break;
    case '%': t->kind = TOK_PERCENT; break;
    case '(': t->kind = TOK_LPAREN; break;
    case ')': t->kind = TOK_RPAREN; break;
    case '=': t->kind = TOK_ASSIGN; break;
    case ';': t->kind = TOK_SEMI; break;
    default:
        t->kind = TOK_ERROR;
        lx->errors++;
        break;
    }
}

static void lexer_init(struct lexer *lx, const char *src)
{
    lx->src = src;
    lx->pos = src;
    lx->line = 1;
    lx->errors = 0;
    next_token(lx);
}

static int expect(struct interp *in, enum tok_kind k)
{
    if (in->lx.cur.kind != k) {
        printf("line %d: expected '%s' but found '%s'\n", in->lx.cur.line,
               tok_name(k), tok_name(in->lx.cur.kind));
        in->lx.errors++;
        return 0;
    }
    next_token(&in->lx);
    return 1;
}

static struct var *lookup(struct interp *in, const char *name, int len, int create)
{
    int i, j;
    for (i = 0; i < in->nvars; i++) {
        if (same_word(name, len, in->vars[i].name))
            return &in->vars[i];
    }
    if (!create || in->nvars == MAX_VARS || len >= MAX_NAME)
        return 0;
    for (j = 0; j < len; j++)
        in->vars[in->nvars].name[j] = name[j];
    in->vars[in->nvars].name[len] = '\0';
    in->vars[in->nvars].value = 0;
    in->vars[in->nvars].defined = 0;
    return &in->vars[in->nvars++];
}

static int precedence(enum tok_kind k)
{
    switch (k) {
    case TOK_PLUS:
    case TOK_MINUS:
        return 1;
    case TOK_STAR:
    case TOK_SLASH:
    case TOK_PERCENT:
        return 2;
    default:
        return 0;
    }
}

static long parse_expr(struct interp *in, int min_prec);

static long parse_primary(struct interp *in)
{
    struct token t = in->lx.cur;
    long v = 0;
    int line;

    in->depth++;
    if (in->depth > in->max_depth)
        in->max_depth = in->depth;
    switch (t.kind) {
    case TOK_NUMBER:
        v = t.value;
        next_token(&in->lx);
        break;
    case TOK_IDENT: {
        struct var *var = lookup(in, t.start, t.len, 0);
        if (!var || !var->defined) {
            printf("line %d: undefined variable '%.*s'\n", t.line, t.len, t.start);
            in->lx.errors++;
        } else {
            v = var->value;
        }
        next_token(&in->lx);
        break;
    }
    case TOK_MINUS:
        next_token(&in->lx);
        v = -parse_primary(in);
        break;
    case TOK_LPAREN:
        next_token(&in->lx);
        line = in->lx.cur;
        v = parse_expr(in, 1);
        if (!expect(in, TOK_RPAREN))
            printf("  (parenthesis opened on line %d)\n", line);
        break;
    default:
        printf("line %d: unexpected '%s'\n", t.line, tok_name(t.kind));
        in->lx.errors++;
        next_token(&in->lx);
        break;
    }
    in->depth--;
    return v;
}

static long apply(struct interp *in, enum tok_kind op, long a, long b)
{
    switch (op) {
    case TOK_PLUS: return a + b;
    case TOK_MINUS: return a - b;
    case TOK_STAR: return a * b;
    case TOK_SLASH:
    case TOK_PERCENT:
        if (b == 0) {
            printf("line %d: division by zero\n", in->lx.cur.line);
            in->lx.errors++;
            return 0;
        }
        return op == TOK_SLASH ? a / b : a % b;
    default:
        return 0;
    }
}

static long parse_expr(struct interp *in, int min_prec)
{
    long lhs = parse_primary(in);
    for (;;) {
        enum tok_kind op = in->lx.cur.kind;
        int prec = precedence(op);
        long rhs;
        if (prec == 0 || prec < min_prec)
            break;
        next_token(&in->lx);
        rhs = parse_expr(in, prec + 1);
        lhs = apply(in, op, lhs, rhs);
    }
    return lhs;
}

static void parse_statement(struct interp *in)
{
    struct token t = in->lx.cur;
    if (t.kind == TOK_LET) {
        struct token name;
        struct var *var;
        next_token(&in->lx);
        name = in->lx.cur;
        if (!expect(in, TOK_IDENT))
            return;
        var = lookup(in, name.start, name.len, 1);
        if (!expect(in, TOK_ASSIGN))
            return;
        if (var) {
            var->value = parse_expr(in, 1);
            var->defined = 1;
        } else {
            printf("line %d: too many variables\n", name.line);
            parse_expr(in, 1);
        }
    } else if (t.kind == TOK_PRINT) {
        next_token(&in->lx);
        printf("%ld\n", parse_expr(in, 1));
    } else {
        parse_expr(in, 1);
    }
    expect(in, TOK_SEMI);
}

static int run(const char *src)
{
    struct interp in;
    in.nvars = 0;
    in.depth = 0;
    in.max_depth = 0;
    lexer_init(&in.lx, src);
    while (in.lx.cur.kind != TOK_EOF) {
        parse_statement(&in);
        if (in.lx.errors > 10) {
            puts("too many errors");
            break;
        }
    }
    printf("vars=%d max_depth=%d errors=%d\n", in.nvars, in.max_depth, in.lx.errors);
    return in.lx.errors;
}

static const char *const programs[] = {
    "let x = 3;\nlet y = x * (x + 4);\nprint y - 1;\n",
    "# hex and modulo\nlet m = 0x1F % 7;\nprint m;\n",
    "let a = 10; let b = -a; print a / (b + 12);\n",
    "print (1 + 2;\n",
};

int main(void)
{
    unsigned i;
    int failures = 0;
    for (i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
        printf("-- program %u --\n", i);
        if (run(programs[i]) != 0)
            failures++;
    }
    return failures == 1 ? 0 : 1;
}
