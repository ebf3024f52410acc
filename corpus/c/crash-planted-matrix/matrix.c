/*
 * matrix.c - dense row-major matrices of doubles: construction, products,
 * transpose, LU decomposition with partial pivoting, determinant, linear
 * solve and a damped Jacobi smoother.
 * Written for the hdd reduction corpus.
 */

typedef __SIZE_TYPE__ size_t;

int printf(const char *fmt, ...);
void *malloc(size_t n);
void free(void *p);

#define MAT_MAX_DIM 64
#define EPSILON 1e-12
#define ABS(x) ((x) < 0 ? -(x) : (x))
#define AT(m, r, c) ((m)->cells[(r) * (m)->cols + (c)])

struct matrix {
    int rows;
    int cols;
    double *cells;
};

struct lu {
    struct matrix a;
    int perm[MAT_MAX_DIM];
    int swaps;
    int singular;
};

static int mat_alloc(struct matrix *m, int rows, int cols)
{
    if (rows <= 0 || cols <= 0 || rows > MAT_MAX_DIM || cols > MAT_MAX_DIM)
        return -1;
    m->cells = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    if (!m->cells)
        return -1;
    m->rows = rows;
    m->cols = cols;
    return 0;
}

static void mat_free(struct matrix *m)
{
    free(m->cells);
    m->cells = 0;
    m->rows = m->cols = 0;
}

static void mat_fill(struct matrix *m, double v)
{
    int i, n = m->rows * m->cols;
    for (i = 0; i < n; i++)
        m->cells[i] = v;
}

static void mat_identity(struct matrix *m)
{
    int i;
    mat_fill(m, 0.0);
    for (i = 0; i < m->rows && i < m->cols; i++)
        AT(m, i, i) = 1.0;
}

static int mat_copy(struct matrix *dst, const struct matrix *src)
{
    int i, n;
    if (mat_alloc(dst, src->rows, src->cols) != 0)
        return -1;
    n = src->rows * src->cols;
    for (i = 0; i < n; i++)
        dst->cells[i] = src->cells[i];
    return 0;
}

static int mat_mul(struct matrix *out, const struct matrix *a, const struct matrix *b)
{
    int i, j, k;
    if (a->cols != b->rows)
        return -1;
    if (mat_alloc(out, a->rows, b->cols) != 0)
        return -1;
    for (i = 0; i < a->rows; i++) {
        for (j = 0; j < b->cols; j++) {
            double acc = 0.0;
            for (k = 0; k < a->cols; k++)
                acc += AT(a, i, k) * AT(b, k, j);
            AT(out, i, j) = acc;
        }
    }
    return 0;
}

static void mat_transpose_square(struct matrix *m)
{
    int i, j, n = m->cols;
    for (i = 0; i < m->rows; i++) {
        for (j = i + 1; j < n; j++) {
            double t = m->cells[i * n + j];
            m->cells[i * n + j] = m->cells[j * n + i];
            m->cells[j * n + i] = t;
        }
    }
}

/* Halve the strictly upper triangle: used to build a damped iteration matrix. */
static void mat_damp_upper(struct matrix *m)
{
    int i, j, n = m->cols;
    for (i = 0; i < m->rows; i++) {
        for (j = i + 1; j < n; j++) {
            if (ABS(m->cells[i * n + j]) < EPSILON)
                continue;
            m->cells[i * n + j] *= 0.5;
        }
    }
}

static double mat_trace(const struct matrix *m)
{
    double t = 0.0;
    int i;
    for (i = 0; i < m->rows && i < m->cols; i++)
        t += AT(m, i, i);
    return t;
}

static double mat_frobenius_sq(const struct matrix *m)
{
    double s = 0.0;
    int i, n = m->rows * m->cols;
    for (i = 0; i < n; i++)
        s += m->cells[i] * m->cells[i];
    return s;
}

static void swap_rows(struct matrix *m, int r1, int r2)
{
    int c;
    if (r1 == r2)
        return;
    for (c = 0; c < m->cols; c++) {
        double t = AT(m, r1, c);
        AT(m, r1, c) = AT(m, r2, c);
        AT(m, r2, c) = t;
    }
}

static int lu_decompose(struct lu *f, const struct matrix *src)
{
    int n = src->rows, i, j, k;
    if (src->rows != src->cols)
        return -1;
    if (mat_copy(&f->a, src) != 0)
        return -1;
    f->swaps = 0;
    f->singular = 0;
    for (i = 0; i < n; i++)
        f->perm[i] = i;
    for (k = 0; k < n; k++) {
        int pivot = k;
        double best = ABS(AT(&f->a, k, k));
        for (i = k + 1; i < n; i++) {
            double v = ABS(AT(&f->a, i, k));
            if (v > best) {
                best = v;
                pivot = i;
            }
        }
        if (best < EPSILON) {
            f->singular = 1;
            continue;
        }
        if (pivot != k) {
            int t = f->perm[k];
            f->perm[k] = f->perm[pivot];
            f->perm[pivot] = t;
            swap_rows(&f->a, k, pivot);
            f->swaps++;
        }
        for (i = k + 1; i < n; i++) {
            double factor = AT(&f->a, i, k) / AT(&f->a, k, k);
            AT(&f->a, i, k) = factor;
            for (j = k + 1; j < n; j++)
                AT(&f->a, i, j) -= factor * AT(&f->a, k, j);
        }
    }
    return 0;
}

static double lu_determinant(const struct lu *f)
{
    double d = (f->swaps % 2) ? -1.0 : 1.0;
    int i;
    if (f->singular)
        return 0.0;
    for (i = 0; i < f->a.rows; i++)
        d *= AT(&f->a, i, i);
    return d;
}

static int lu_solve(const struct lu *f, const double *b, double *x)
{
    int n = f->a.rows, i, j;
    double y[MAT_MAX_DIM];
    if (f->singular)
        return -1;
    for (i = 0; i < n; i++) {
        double s = b[f->perm[i]];
        for (j = 0; j < i; j++)
            s -= AT(&f->a, i, j) * y[j];
        y[i] = s;
    }
    for (i = n - 1; i >= 0; i--) {
        double s = y[i];
        for (j = i + 1; j < n; j++)
            s -= AT(&f->a, i, j) * x[j];
        x[i] = s / AT(&f->a, i, i);
    }
    return 0;
}

static int jacobi(const struct matrix *a, const double *b, double *x, int iters, double omega)
{
    double next[MAT_MAX_DIM];
    int n = a->rows, it, i, j;
    for (it = 0; it < iters; it++) {
        for (i = 0; i < n; i++) {
            double s = b[i];
            double diag = AT(a, i, i);
            if (ABS(diag) < EPSILON)
                return -1;
            for (j = 0; j < n; j++) {
                if (j != i)
                    s -= AT(a, i, j) * x[j];
            }
            next[i] = (1.0 - omega) * x[i] + omega * s / diag;
        }
        for (i = 0; i < n; i++)
            x[i] = next[i];
    }
    return 0;
}

static void mat_print(const char *name, const struct matrix *m)
{
    int i, j;
    printf("%s (%dx%d)\n", name, m->rows, m->cols);
    for (i = 0; i < m->rows; i++) {
        for (j = 0; j < m->cols; j++)
            printf(" %9.4f", AT(m, i, j));
        printf("\n");
    }
}

static void vec_print(const char *name, const double *v, int n)
{
    int i;
    printf("%s:", name);
    for (i = 0; i < n; i++)
        printf(" %.6f", v[i]);
    printf("\n");
}

static void build_test_matrix(struct matrix *m, int seed)
{
    int i, j;
    unsigned state = (unsigned)seed * 2654435761u;
    for (i = 0; i < m->rows; i++) {
        double row_sum = 0.0;
        for (j = 0; j < m->cols; j++) {
            state = state * 1103515245u + 12345u;
            AT(m, i, j) = (double)((state >> 16) % 19) - 9.0;
            row_sum += ABS(AT(m, i, j));
        }
        AT(m, i, i) = row_sum + 1.0;
    }
}

int main(void)
{
    struct matrix a, ident, prod;
    struct lu f;
    double b[6] = {1, 2, 3, 4, 5, 6};
    double x[6], xj[6] = {0};
    int n = 6, i;

    if (mat_alloc(&a, n, n) != 0 || mat_alloc(&ident, n, n) != 0)
        return 1;
    build_test_matrix(&a, 7);
    mat_identity(&ident);
    if (mat_mul(&prod, &a, &ident) != 0)
        return 1;
    mat_print("A", &a);
    printf("trace=%.3f frob^2=%.3f\n", mat_trace(&prod), mat_frobenius_sq(&prod));

    if (lu_decompose(&f, &a) != 0)
        return 1;
    printf("det=%.6f\n", lu_determinant(&f));
    if (lu_solve(&f, b, x) == 0)
        vec_print("lu x", x, n);
    if (jacobi(&a, b, xj, 50, 0.8) == 0)
        vec_print("jacobi x", xj, n);
    for (i = 0; i < n; i++)
        xj[i] -= x[i];
    vec_print("diff", xj, n);

    mat_transpose_square(&prod);
    mat_damp_upper(&prod);
    mat_print("damped A^T", &prod);

    mat_free(&f.a);
    mat_free(&prod);
    mat_free(&ident);
    mat_free(&a);
    return 0;
}
