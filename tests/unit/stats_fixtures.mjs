// Makes the fixtures of tests/unit/test_stats.c, independently of
// src/lib/core/stats.c. Run once by hand (not part of the build):
//   mkdir /tmp/fx && cd /tmp/fx && npm install jstat@1.9.6
//   NODE_PATH=/tmp/fx/node_modules node tests/unit/stats_fixtures.mjs
// - pass@k, pass^k: exact rationals with BigInt, rounded to double once.
// - I_x(a, b) for whole a, b: the binomial tail P(Bin(a+b-1, x) >= a),
//   exact with BigInt at a dyadic x.
// - Clopper-Pearson: its definition, solved by bisection on the exact
//   binomial tail (BigInt, x to 2^-64), not through a beta function.
// - Wilson: the closed form with z from jStat.normal.inv (jstat 1.9.6),
//   z itself checked against the published 1.959963984540054.
import { createRequire } from 'module';
const require = createRequire(import.meta.url);
const { jStat } = require('jstat');

const bitlen = (v) => v.toString(2).length;
function toDouble(num, den) {
  if (num === 0n) return 0;
  const shift = BigInt(bitlen(den) - bitlen(num) + 70);
  const q = shift >= 0n ? (num << shift) / den : num / (den << -shift);
  return Number(q) * Math.pow(2, -Number(shift));
}
function choose(n, k) {
  if (k < 0n || k > n) return 0n;
  let r = 1n;
  for (let i = 0n; i < k; i++) r = (r * (n - i)) / (i + 1n);
  return r;
}
const fmt = (v) => (Number.isNaN(v) ? 'NAN' : v.toPrecision(17));

// pass@k and pass^k
const pk = [[1,0,1],[1,1,1],[10,0,1],[10,0,10],[10,10,10],[10,5,1],[10,5,3],[10,7,5],
            [20,15,5],[5,3,5],[100,61,8],[8,5,8],[10000,9990,100],[10000,5000,10000],
            [10000,9999,9999],[10000,9999,10000],[10000,1,1]];
console.log('/* {n, c, k, pass@k, pass^k} */');
for (const [n, c, k] of pk) {
  const N = BigInt(n), C = BigInt(c), K = BigInt(k), d = choose(N, K);
  const at = 1 - toDouble(choose(N - C, K), d); // 1 - x: x exact to 2^-70 relative
  const atExact = toDouble(d - choose(N - C, K), d);
  const hat = toDouble(choose(C, K), d);
  console.log(`    {${n}, ${c}, ${k}, ${fmt(atExact)}, ${fmt(hat)}},`);
  void at;
}

// exact binomial upper tail P(Bin(n, X/2^64) >= a)
const S = 64n, D = 1n << S;
function tail(n, a, X) {
  let num = 0n;
  const Y = D - X;
  for (let i = a; i <= n; i++) num += choose(n, i) * X ** i * Y ** (n - i);
  return [num, D ** n];
}
console.log('/* {a, b, x, I_x(a,b)} */');
for (const [a, b, xs] of [[1,1,0.3],[2,3,0.25],[5,5,0.5],[3,10,0.1],[10,3,0.9],[20,30,0.375],
                           [1,50,0.015625],[50,1,0.984375],[60,40,0.625]]) {
  const X = BigInt(Math.round(xs * 2 ** 20)) << 44n;
  const [num, den] = tail(BigInt(a + b - 1), BigInt(a), X);
  console.log(`    {${a}, ${b}, ${fmt(Number(X) / 2 ** 64)}, ${fmt(toDouble(num, den))}},`);
}
// Clopper-Pearson by bisection on the definition
function solve(n, target, a) { // X with P(Bin(n,X) >= a) = target (increasing in X)
  let lo = 0n, hi = D;
  const tn = BigInt(Math.round(target * 2 ** 52)), td = 1n << 52n;
  while (hi - lo > 1n) {
    const mid = (lo + hi) >> 1n;
    const [num, den] = tail(n, a, mid);
    if (num * td < tn * den) lo = mid; else hi = mid;
  }
  return toDouble(lo + hi, 2n * D);
}
console.log('/* {n, c, conf, low, high} Clopper-Pearson */');
for (const [n, c, conf] of [[1,0,0.95],[1,1,0.95],[5,3,0.95],[8,5,0.95],[10,0,0.95],
                            [10,10,0.95],[9,4,0.9],[7,6,0.99],[30,29,0.95],[100,61,0.95],
                            [400,1,0.95],[400,399,0.95]]) {
  const alpha = 1 - conf, N = BigInt(n), C = BigInt(c);
  const low = c === 0 ? 0 : solve(N, alpha / 2, C);
  // upper: P(Bin(n,x) <= c) = alpha/2  <=>  P(Bin(n,x) >= c+1) = 1 - alpha/2
  const high = c === n ? 1 : solve(N, 1 - alpha / 2, C + 1n);
  const jl = c === 0 ? 0 : jStat.ibetainv(alpha / 2, c, n - c + 1);
  const jh = c === n ? 1 : jStat.ibetainv(1 - alpha / 2, c + 1, n - c);
  if (Math.abs(jl - low) > 1e-8 || Math.abs(jh - high) > 1e-8)
    console.error(`jstat disagrees at ${n},${c}: ${jl} ${jh}`);
  console.log(`    {${n}, ${c}, ${conf}, ${fmt(low)}, ${fmt(high)}},`);
}
const z95 = jStat.normal.inv(0.975, 0, 1);
if (Math.abs(z95 - 1.959963984540054) > 1e-12) console.error('z95 off: ' + z95);
console.log('/* {n, c, conf, low, high} Wilson */');
for (const [n, c, conf] of [[10,0,0.95],[10,10,0.95],[10,5,0.95],[20,17,0.95],[50,45,0.9],
                            [100,61,0.95],[12,11,0.99],[10000,9990,0.95],[1,1,0.95]]) {
  const z = jStat.normal.inv(1 - (1 - conf) / 2, 0, 1), p = c / n, z2 = z * z;
  const den = 1 + z2 / n, ctr = (p + z2 / (2 * n)) / den;
  const half = (z / den) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  console.log(`    {${n}, ${c}, ${conf}, ${fmt(c === 0 ? 0 : ctr - half)}, ${fmt(c === n ? 1 : ctr + half)}},`);
}
// jstat's normal.inv is good to ~1e-16 but in the far tail: check each z
// with 0.5 * erfc(-z / sqrt(2)) (python3 -c 'import math; ...'); the 1e-10
// one is off (test_stats.c has the corrected value and says so)
console.log('/* {p, z} */');
for (const p of [0.5, 0.975, 0.995, 0.95, 0.001, 1e-10, 0.9999999]) console.log(`    {${p}, ${fmt(jStat.normal.inv(p, 0, 1))}},`);
