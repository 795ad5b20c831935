/* Statistics of repeated runs (core/stats.h): estimators and intervals. */
#include "core/stats.h"

#include <float.h>
#include <math.h>

/* Both estimators are ratios of binomial coefficients with the same k:
 * C(m, k) / C(n, k) = prod_{i<k} (m - i) / (n - i), each factor in [0, 1],
 * so the product never overflows (it may underflow to 0, which is its
 * value to double precision). m < k gives 0. */
static double choose_ratio(unsigned m, unsigned n, unsigned k)
{
    if (m < k)
        return 0.0;
    double r = 1.0;
    for (unsigned i = 0; i < k && r > 0; i++)
        r *= (double)(m - i) / (double)(n - i);
    return r;
}

double an_stats_pass_at_k(unsigned n, unsigned c, unsigned k)
{
    if (k == 0 || k > n || c > n)
        return NAN;
    return 1.0 - choose_ratio(n - c, n, k);
}

double an_stats_pass_hat_k(unsigned n, unsigned c, unsigned k)
{
    if (k == 0 || k > n || c > n)
        return NAN;
    return choose_ratio(c, n, k);
}

double an_stats_normal_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    const double plow = 0.02425;
    if (!(p > 0 && p < 1))
        return NAN;
    /* the upper half by symmetry: 1 - p is exact there, and the refinement
     * below is then done in the lower tail, where erfc keeps its digits */
    if (p > 0.5)
        return -an_stats_normal_quantile(1 - p);
    double x;
    if (p < plow || p > 1 - plow) {
        double q = sqrt(-2 * log(p < plow ? p : 1 - p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        if (p > 1 - plow)
            x = -x;
    } else {
        double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    /* Acklam's approximation is good to 1.15e-9; one Halley step on the
     * exact CDF (through erfc, accurate in both tails) makes it full
     * precision */
    double e = 0.5 * erfc(-x / M_SQRT2) - p;
    double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

double an_stats_lgamma(double x)
{
    static const double g[] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                               771.32342877765313,   -176.61502916214059,   12.507343278686905,
                               -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
    if (!(x > 0))
        return NAN;
    if (x < 0.5) /* reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x) */
        return log(M_PI / sin(M_PI * x)) - an_stats_lgamma(1 - x);
    x -= 1;
    double s = g[0];
    for (int i = 1; i < 9; i++)
        s += g[i] / (x + i);
    double t = x + 7.5;
    return 0.5 * log(2 * M_PI) + (x + 0.5) * log(t) - t + log(s);
}

static double lbeta(double a, double b)
{
    return an_stats_lgamma(a) + an_stats_lgamma(b) - an_stats_lgamma(a + b);
}

/* The continued fraction of I_x(a, b) (Numerical Recipes 6.4), evaluated
 * with the modified Lentz method; converges fast for x < (a+1)/(a+b+2).
 * It needs O(sqrt(max(a, b))) terms: the cap is far above that for any
 * count of runs an unsigned holds. */
#define BETACF_MAX_TERMS 100000
#define TINY 1e-300

static double lentz_guard(double v)
{
    return fabs(v) < TINY ? TINY : v;
}

static double betacf(double a, double b, double x)
{
    double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 / lentz_guard(1 - qab * x / qap), h = d;
    for (int m = 1; m <= BETACF_MAX_TERMS; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 / lentz_guard(1 + aa * d);
        c = lentz_guard(1 + aa / c);
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 / lentz_guard(1 + aa * d);
        c = lentz_guard(1 + aa / c);
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 4 * DBL_EPSILON)
            break;
    }
    return h;
}

double an_stats_betainc(double a, double b, double x)
{
    if (!(a > 0 && b > 0 && x >= 0 && x <= 1))
        return NAN;
    if (x == 0 || x == 1)
        return x;
    double front = exp(a * log(x) + b * log1p(-x) - lbeta(a, b));
    if (x < (a + 1) / (a + b + 2))
        return front * betacf(a, b, x) / a;
    return 1 - front * betacf(b, a, 1 - x) / b;
}

double an_stats_betainc_inv(double a, double b, double p)
{
    if (!(a > 0 && b > 0 && p >= 0 && p <= 1))
        return NAN;
    if (p == 0 || p == 1)
        return p;
    double lo = 0, hi = 1, x = a / (a + b), lb = lbeta(a, b);
    /* I_x is increasing in x: [lo, hi] always holds the root. A Newton step
     * that leaves the bracket (or a flat derivative) is replaced by a
     * bisection, so this converges whatever the start. */
    for (int i = 0; i < 400; i++) {
        double f = an_stats_betainc(a, b, x) - p;
        if (f == 0)
            return x;
        if (f < 0)
            lo = x;
        else
            hi = x;
        double dens = exp((a - 1) * log(x) + (b - 1) * log1p(-x) - lb);
        double next = dens > 0 && isfinite(dens) ? x - f / dens : NAN;
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - x) <= 1e-15 * next || hi - lo <= 1e-15 * hi)
            return next;
        x = next;
    }
    return x;
}

void an_stats_wilson(unsigned n, unsigned c, double conf, double *lo, double *hi)
{
    *lo = 0;
    *hi = 1;
    if (n == 0 || c > n)
        return;
    double z = an_stats_normal_quantile(1 - (1 - conf) / 2);
    double nn = n, ph = (double)c / nn, z2 = z * z;
    double denom = 1 + z2 / nn;
    double center = (ph + z2 / (2 * nn)) / denom;
    double half = z / denom * sqrt(ph * (1 - ph) / nn + z2 / (4 * nn * nn));
    /* 0 and 1 are exact at c = 0 and c = n; rounding must not move them */
    *lo = c == 0 ? 0 : fmax(0, center - half);
    *hi = c == n ? 1 : fmin(1, center + half);
}

void an_stats_clopper_pearson(unsigned n, unsigned c, double conf, double *lo, double *hi)
{
    *lo = 0;
    *hi = 1;
    if (n == 0 || c > n)
        return;
    double alpha = 1 - conf;
    if (c > 0)
        *lo = an_stats_betainc_inv(c, (double)(n - c) + 1, alpha / 2);
    if (c < n)
        *hi = an_stats_betainc_inv((double)c + 1, n - c, 1 - alpha / 2);
}

const char *an_ci_method_name(enum an_ci_method m)
{
    return m == AN_CI_CLOPPER_PEARSON ? "clopper-pearson" : "wilson";
}

enum an_ci_method an_stats_ci(unsigned n, unsigned c, double conf, double *lo, double *hi)
{
    if (n < AN_STATS_EXACT_BELOW) {
        an_stats_clopper_pearson(n, c, conf, lo, hi);
        return AN_CI_CLOPPER_PEARSON;
    }
    an_stats_wilson(n, c, conf, lo, hi);
    return AN_CI_WILSON;
}
