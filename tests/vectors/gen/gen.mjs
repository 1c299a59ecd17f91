// tests/vectors/gen/gen.mjs — known-answer vectors for BLS12-381 from
// @noble/curves, an implementation grothmpi did not write.
//
//   cd tests/vectors/gen && npm ci && node gen.mjs > ../bls12_381.txt
//
// The output is deterministic: inputs come from a fixed-seed SplitMix64 (splitmix.mjs, shared
// with gen_bn254.mjs; never Math.random), so re-running with the pinned version (package.json,
// package-lock.json) reproduces the committed file byte for byte. `make test`
// reads only the committed file (tests/unit/test_vectors.c); it needs no npm.
//
// Format: one record per line, `<kind> <field> <field> ...`, '#' starts a
// comment. Field elements and integers are big-endian hex without 0x, of fixed
// width (Fp 96 hex chars, Fr 64). Fp2 values are two Fp fields c0 c1. Fp6 and
// Fp12 values are one field: their 6 or 12 Fp coefficients concatenated in the
// order c0.c0, c0.c1, c1.c0, ... (Fp12: c0.c0.c0, c0.c0.c1, ..., c1.c2.c1).
// Points are in the Zcash encodings (G1 48/96 bytes, G2 96/192 bytes).
// The kinds and their fields are listed in the header the script prints.
//
// Everything written is what noble computes; where this script builds inputs
// of its own (bad encodings, the Zcash encoder used to cross-check noble's), it
// asserts them against noble and against plain definitions (x^((p-1)/2),
// [r]P by double-and-add, f^(3(p^12-1)/r)) before writing a line.

import { bls12_381 as bls } from '@noble/curves/bls12-381';
import { readFileSync } from 'node:fs';
import { splitmix } from './splitmix.mjs';

const NOBLE_VERSION = JSON.parse(
  readFileSync(new URL('./node_modules/@noble/curves/package.json', import.meta.url))
).version;

const { Fp, Fr, Fp2, Fp6, Fp12 } = bls.fields;
const G1 = bls.G1.ProjectivePoint;
const G2 = bls.G2.ProjectivePoint;
const P = Fp.ORDER;
const R = Fr.ORDER;

function check(cond, what) {
  if (!cond) throw new Error('gen.mjs: self-check failed: ' + what);
}

// ---- deterministic randomness: SplitMix64 on BigInt ---------------------------
const randBits = splitmix(0x67726f74686d7069n); // "grothmpi"
const randFp = () => randBits(448) % P;
const randFr = () => randBits(320) % R;
const randFrNonzero = () => { for (;;) { const v = randFr(); if (v !== 0n) return v; } };
const randFp2 = () => ({ c0: randFp(), c1: randFp() });
const randFp6 = () => ({ c0: randFp2(), c1: randFp2(), c2: randFp2() });
const randFp12 = () => ({ c0: randFp6(), c1: randFp6() });

// ---- output -------------------------------------------------------------------
const lines = [];
const counts = new Map();
function emit(kind, ...fields) {
  lines.push([kind, ...fields].join(' '));
  counts.set(kind, (counts.get(kind) || 0) + 1);
}
const hexN = (v, bytes) => {
  check(v >= 0n && v < 1n << BigInt(8 * bytes), 'value fits ' + bytes + ' bytes');
  return v.toString(16).padStart(2 * bytes, '0');
};
const hFp = (v) => hexN(v, 48);
const hFr = (v) => hexN(v, 32);
const hFp2 = (a) => [hFp(a.c0), hFp(a.c1)];
const fp6Flat = (a) => [a.c0.c0, a.c0.c1, a.c1.c0, a.c1.c1, a.c2.c0, a.c2.c1];
const hFp6 = (a) => fp6Flat(a).map(hFp).join('');
const hFp12 = (a) => [...fp6Flat(a.c0), ...fp6Flat(a.c1)].map(hFp).join('');
const bytesHex = (b) => Buffer.from(b).toString('hex');

// ---- field helpers that do not depend on noble's sqrt ---------------------------
const isSquareFp = (a) => a === 0n || Fp.pow(a, (P - 1n) / 2n) === 1n;
// a in Fp2 = Fp[u]/(u^2+1) is a square iff its norm c0^2 + c1^2 is a square in Fp.
const isSquareFp2 = (a) => isSquareFp(Fp.add(Fp.sqr(a.c0), Fp.sqr(a.c1)));
function sqrtFp(a) {
  if (!isSquareFp(a)) return null;
  const s = Fp.sqrt(a);
  check(Fp.sqr(s) === a, 'Fp.sqrt');
  return s;
}
function sqrtFp2(a) {
  if (!isSquareFp2(a)) return null;
  const s = Fp2.sqrt(a);
  check(Fp2.eql(Fp2.sqr(s), a), 'Fp2.sqrt');
  return s;
}

// ---- Zcash encodings written here, checked against noble's toRawBytes ------------
const lexLargest = (v) => v > (P - 1n) / 2n;
const lexLargest2 = (v) => (v.c1 !== 0n ? lexLargest(v.c1) : lexLargest(v.c0));
function encG1Raw(x, y, compressed) {
  if (compressed) {
    const b = Buffer.from(hFp(x), 'hex');
    b[0] |= 0x80 | (lexLargest(y) ? 0x20 : 0);
    return b;
  }
  return Buffer.from(hFp(x) + hFp(y), 'hex');
}
function encG2Raw(x, y, compressed) {
  if (compressed) {
    const b = Buffer.from(hFp(x.c1) + hFp(x.c0), 'hex');
    b[0] |= 0x80 | (lexLargest2(y) ? 0x20 : 0);
    return b;
  }
  return Buffer.from(hFp(x.c1) + hFp(x.c0) + hFp(y.c1) + hFp(y.c0), 'hex');
}
function encInf(len, compressed) {
  const b = Buffer.alloc(len);
  b[0] = 0x40 | (compressed ? 0x80 : 0);
  return b;
}
function encG1(pt, compressed) {
  const mine = pt.is0()
    ? encInf(compressed ? 48 : 96, compressed)
    : encG1Raw(pt.toAffine().x, pt.toAffine().y, compressed);
  check(bytesHex(mine) === bytesHex(pt.toRawBytes(compressed)), 'G1 encoding agrees with noble');
  return bytesHex(mine);
}
function encG2(pt, compressed) {
  const mine = pt.is0()
    ? encInf(compressed ? 96 : 192, compressed)
    : encG2Raw(pt.toAffine().x, pt.toAffine().y, compressed);
  check(bytesHex(mine) === bytesHex(pt.toRawBytes(compressed)), 'G2 encoding agrees with noble');
  return bytesHex(mine);
}

// [k]P by plain double-and-add with noble's complete formulas: valid for any
// point on the curve, in the subgroup or not (no endomorphism, no wNAF tables).
function mulPlain(Pt, pt, k) {
  let acc = Pt.ZERO;
  for (let i = BigInt(k.toString(2).length) - 1n; i >= 0n; i--) {
    acc = acc.double();
    if ((k >> i) & 1n) acc = acc.add(pt);
  }
  return acc;
}
// k*P for any integer k >= 0 (noble's multiply wants 1 <= k < r).
function mulAny(pt, k) {
  const kr = k % R;
  return kr === 0n ? pt.constructor.ZERO : pt.multiply(kr);
}

const FP_EDGE = [
  0n, 1n, 2n, P - 1n, P - 2n, (P - 1n) / 2n, (P + 1n) / 2n,
  (1n << 64n) - 1n, 1n << 64n, (1n << 380n) - 1n,
  (1n << 384n) % P, (1n << 768n) % P,
];
const FR_EDGE = [
  0n, 1n, 2n, R - 1n, R - 2n, (R - 1n) / 2n, (R + 1n) / 2n,
  (1n << 64n) - 1n, 1n << 64n, (1n << 254n) - 1n,
  (1n << 256n) % R, (1n << 512n) % R,
];

// ---- header --------------------------------------------------------------------
const out = [];
out.push('# BLS12-381 known answers for grothmpi, generated by @noble/curves ' + NOBLE_VERSION +
  ' (npm, pinned in tests/vectors/gen/package-lock.json).');
out.push('# Command: cd tests/vectors/gen && npm ci && node gen.mjs > ../bls12_381.txt');
out.push('# Deterministic (fixed-seed SplitMix64 in gen.mjs); checked by tests/unit/test_vectors.c.');
out.push('# Hex is big-endian without 0x: Fp 96 chars, Fr 64; fp2 = c0 c1; fp6/fp12 = one field, the');
out.push('# coefficients concatenated c0.c0(.c0), ... as ff.h\'s fp12_to_bytes_be writes them.');
out.push('# Points: Zcash encodings (G1 48/96 bytes, G2 96/192 bytes; x = c1||c0 in G2).');
out.push('# Kinds:');
out.push('#   fp_add|fp_sub|fp_mul a b c        fp_sqr a c        fp_inv a c (a != 0)');
out.push('#   fp_sqrt a s|none  (s is one root; any root passes: the test checks s^2 = a)');
out.push('#   fr_add|fr_sub|fr_mul a b c        fr_inv a c        fp2_add|fp2_mul a0 a1 b0 b1 c0 c1');
out.push('#   fp2_sqr a0 a1 c0 c1    fp2_inv a0 a1 c0 c1    fp2_sqrt a0 a1 s0 s1|none');
out.push('#   fp6_mul a b c    fp12_mul a b c    fp12_inv a c    fp12_frobenius k a a^(p^k)');
out.push('#   fp12_final_exp f f^(3(p^12-1)/r)  (the final exponentiation of blst and noble: note the 3)');
out.push('#   g1_add P Q P+Q    g1_dbl P 2P    g1_mul P k kP (k: 256-bit integer, maybe >= r)');
out.push('#     (points compressed)');
out.push('#   g1_encode compressed uncompressed');
out.push('#   g1_decode_bad bytes reason  (48 or 96 bytes; reason: flags noncanon nosqrt notoncurve subgroup)');
out.push('#   g2_add g2_dbl g2_mul g2_encode g2_decode_bad: the same over G2');
out.push('#   pairing P Q e(P,Q)  (P G1 compressed, Q G2 compressed, e in Fp12 as above; e = 1 when P or Q');
out.push('#     is the identity; e = miller(P,Q)^(3(p^12-1)/r), the value blst and noble compute)');

// ---- Fp -------------------------------------------------------------------------
function fpPairs(n) {
  const pairs = [];
  for (const a of FP_EDGE) pairs.push([a, FP_EDGE[(FP_EDGE.indexOf(a) * 5 + 3) % FP_EDGE.length]]);
  pairs.push([P - 1n, P - 1n], [0n, 0n], [1n, P - 1n], [(P + 1n) / 2n, (P + 1n) / 2n]);
  while (pairs.length < n) pairs.push([randFp(), randFp()]);
  return pairs;
}
for (const [a, b] of fpPairs(40)) emit('fp_add', hFp(a), hFp(b), hFp(Fp.add(a, b)));
for (const [a, b] of fpPairs(40)) emit('fp_sub', hFp(a), hFp(b), hFp(Fp.sub(a, b)));
for (const [a, b] of fpPairs(40)) emit('fp_mul', hFp(a), hFp(b), hFp(Fp.mul(a, b)));
for (const a of [...FP_EDGE, ...Array.from({ length: 24 }, randFp)]) emit('fp_sqr', hFp(a), hFp(Fp.sqr(a)));
for (const a of [...FP_EDGE.filter((v) => v !== 0n), ...Array.from({ length: 24 }, randFp)]) {
  const inv = Fp.inv(a);
  check(Fp.mul(a, inv) === 1n, 'Fp.inv');
  emit('fp_inv', hFp(a), hFp(inv));
}
{
  const cands = [0n, 1n, 4n, P - 1n, P - 4n, 2n, 3n, ...FP_EDGE];
  for (let i = 0; i < 16; i++) cands.push(Fp.sqr(randFp()));
  for (let i = 0; i < 16; i++) cands.push(randFp());
  for (const a of cands) {
    const s = sqrtFp(a);
    emit('fp_sqrt', hFp(a), s === null ? 'none' : hFp(s));
  }
}

// ---- Fr -------------------------------------------------------------------------
function frPairs(n) {
  const pairs = [];
  for (const a of FR_EDGE) pairs.push([a, FR_EDGE[(FR_EDGE.indexOf(a) * 5 + 3) % FR_EDGE.length]]);
  pairs.push([R - 1n, R - 1n], [0n, 0n], [1n, R - 1n]);
  while (pairs.length < n) pairs.push([randFr(), randFr()]);
  return pairs;
}
for (const [a, b] of frPairs(40)) emit('fr_add', hFr(a), hFr(b), hFr(Fr.add(a, b)));
for (const [a, b] of frPairs(40)) emit('fr_sub', hFr(a), hFr(b), hFr(Fr.sub(a, b)));
for (const [a, b] of frPairs(40)) emit('fr_mul', hFr(a), hFr(b), hFr(Fr.mul(a, b)));
for (const a of [...FR_EDGE.filter((v) => v !== 0n), ...Array.from({ length: 24 }, randFrNonzero)]) {
  const inv = Fr.inv(a);
  check(Fr.mul(a, inv) === 1n, 'Fr.inv');
  emit('fr_inv', hFr(a), hFr(inv));
}

// ---- Fp2 ------------------------------------------------------------------------
const FP2_EDGE = [
  { c0: 0n, c1: 0n }, { c0: 1n, c1: 0n }, { c0: 0n, c1: 1n }, { c0: 1n, c1: 1n },
  { c0: P - 1n, c1: 0n }, { c0: 0n, c1: P - 1n }, { c0: P - 1n, c1: P - 1n },
  { c0: (P - 1n) / 2n, c1: (P + 1n) / 2n }, { c0: (1n << 384n) % P, c1: 2n },
];
function fp2Pairs(n) {
  const pairs = [];
  FP2_EDGE.forEach((a, i) => pairs.push([a, FP2_EDGE[(i * 4 + 2) % FP2_EDGE.length]]));
  pairs.push([FP2_EDGE[6], FP2_EDGE[6]]);
  while (pairs.length < n) pairs.push([randFp2(), randFp2()]);
  return pairs;
}
for (const [a, b] of fp2Pairs(30)) emit('fp2_add', ...hFp2(a), ...hFp2(b), ...hFp2(Fp2.add(a, b)));
for (const [a, b] of fp2Pairs(40)) emit('fp2_mul', ...hFp2(a), ...hFp2(b), ...hFp2(Fp2.mul(a, b)));
for (const a of [...FP2_EDGE, ...Array.from({ length: 21 }, randFp2)]) emit('fp2_sqr', ...hFp2(a), ...hFp2(Fp2.sqr(a)));
for (const a of [...FP2_EDGE.filter((v) => !Fp2.is0(v)), ...Array.from({ length: 22 }, randFp2)]) {
  const inv = Fp2.inv(a);
  check(Fp2.eql(Fp2.mul(a, inv), Fp2.ONE), 'Fp2.inv');
  emit('fp2_inv', ...hFp2(a), ...hFp2(inv));
}
{
  // Edge cases of the usual algorithms: c1 = 0 with c0 a square or not (the
  // root is then real or purely imaginary), c0 = 0, -1 (root u), and norms.
  const cands = [...FP2_EDGE, { c0: 2n, c1: 0n }, { c0: 3n, c1: 0n }, { c0: 4n, c1: 0n },
    { c0: 0n, c1: 2n }, { c0: 0n, c1: 4n }, { c0: P - 4n, c1: 0n }];
  let nsq = 0;
  while (nsq < 14) {
    const a = Fp2.sqr(randFp2());
    cands.push(a); nsq++;
  }
  for (let i = 0; i < 3; i++) cands.push({ c0: Fp.sqr(randFp()), c1: 0n });
  for (let i = 0; i < 3; i++) cands.push({ c0: randFp(), c1: 0n });
  for (let i = 0; i < 12; i++) cands.push(randFp2());
  for (const a of cands) {
    const s = sqrtFp2(a);
    emit('fp2_sqrt', ...hFp2(a), ...(s === null ? ['none'] : hFp2(s)));
  }
}

// ---- Fp6, Fp12 --------------------------------------------------------------------
for (let i = 0; i < 16; i++) {
  const a = randFp6(), b = i === 0 ? Fp6.ONE : randFp6();
  emit('fp6_mul', hFp6(a), hFp6(b), hFp6(Fp6.mul(a, b)));
}
for (let i = 0; i < 16; i++) {
  const a = randFp12(), b = i === 0 ? Fp12.ONE : randFp12();
  emit('fp12_mul', hFp12(a), hFp12(b), hFp12(Fp12.mul(a, b)));
}
for (let i = 0; i < 12; i++) {
  const a = i === 0 ? Fp12.ONE : randFp12();
  const inv = Fp12.inv(a);
  check(Fp12.eql(Fp12.mul(a, inv), Fp12.ONE), 'Fp12.inv');
  emit('fp12_inv', hFp12(a), hFp12(inv));
}
for (let i = 0; i < 12; i++) {
  const k = (i % 3) + 1;
  const a = randFp12();
  const f = Fp12.frobeniusMap(a, k);
  check(Fp12.eql(f, Fp12.pow(a, P ** BigInt(k))), 'Fp12 frobenius = a^(p^k)');
  emit('fp12_frobenius', String(k), hFp12(a), hFp12(f));
}
// noble (like blst, whose chain comes from zkcrypto) raises to 3(p^12-1)/r, not
// (p^12-1)/r: the hard part's addition chain computes 3*(p^4-p^2+1)/r. Both are
// non-degenerate bilinear pairings (3 is prime to r); the records carry noble's
// and blst's value, and this script checks it is exactly that power.
check((P ** 12n - 1n) % R === 0n, 'r divides p^12 - 1');
const FINAL_EXP = 3n * ((P ** 12n - 1n) / R);
for (let i = 0; i < 6; i++) {
  const a = i === 0 ? Fp12.ONE : randFp12();
  const f = Fp12.finalExponentiate(a);
  check(Fp12.eql(f, Fp12.pow(a, FINAL_EXP)), 'noble finalExponentiate is exactly f^(3(p^12-1)/r)');
  emit('fp12_final_exp', hFp12(a), hFp12(f));
}

// ---- points ------------------------------------------------------------------------
function curveOps(tag, Pt, enc, nPoints) {
  const rand = () => Pt.BASE.multiply(randFrNonzero());
  const pts = Array.from({ length: nPoints }, rand);
  // add: random pairs, then P+P, P+(-P), P+O, O+P, O+O, G+G, G+(-G)
  const addPairs = [];
  for (let i = 0; i + 1 < pts.length && addPairs.length < 18; i += 2) addPairs.push([pts[i], pts[i + 1]]);
  addPairs.push([pts[0], pts[0]], [pts[1], pts[1].negate()], [pts[2], Pt.ZERO], [Pt.ZERO, pts[3]],
    [Pt.ZERO, Pt.ZERO], [Pt.BASE, Pt.BASE], [Pt.BASE, Pt.BASE.negate()], [pts[4].negate(), pts[4]]);
  for (const [a, b] of addPairs) emit(tag + '_add', enc(a, true), enc(b, true), enc(a.add(b), true));
  for (const a of [Pt.ZERO, Pt.BASE, Pt.BASE.negate(), ...pts.slice(0, 13)]) {
    emit(tag + '_dbl', enc(a, true), enc(a.double(), true));
  }
  // mul: k = 0, 1, 2, r-1, r, r+1, 2^256-1, 2^255, random < r, random 256-bit >= r allowed
  const ks = [0n, 1n, 2n, 3n, R - 1n, R, R + 1n, (1n << 256n) - 1n, 1n << 255n, (1n << 128n) + 1n];
  for (let i = 0; i < 12; i++) ks.push(randFr());
  for (let i = 0; i < 6; i++) ks.push(randBits(256));
  ks.forEach((k, i) => {
    const pt = i === 3 ? Pt.ZERO : i % 5 === 1 ? Pt.BASE : pts[i % pts.length];
    const kp = mulAny(pt, k);
    if (i < 10 || i % 4 === 0) check(kp.equals(mulPlain(Pt, pt, k)), tag + ' multiply vs double-and-add');
    emit(tag + '_mul', enc(pt, true), hFr(k), enc(kp, true));
  });
  for (const a of [Pt.ZERO, Pt.BASE, Pt.BASE.negate(), ...pts.slice(0, 17)]) {
    emit(tag + '_encode', enc(a, true), enc(a, false));
  }
  return pts;
}

const g1pts = curveOps('g1', G1, encG1, 40);
const g2pts = curveOps('g2', G2, encG2, 40);

// ---- bad encodings ------------------------------------------------------------------------
// Each record has exactly one defect, so the expected code does not depend on
// the order in which a decoder checks things.
const b4 = 4n;
const rhs1 = (x) => Fp.add(Fp.mul(Fp.sqr(x), x), b4);
const B2 = { c0: 4n, c1: 4n };
const rhs2 = (x) => Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2);
const withByte0 = (hex, f) => { const b = Buffer.from(hex, 'hex'); b[0] = f(b[0]); return bytesHex(b); };

function notInSubgroup(Pt, pt) {
  const bad = !pt.isTorsionFree() && !mulPlain(Pt, pt, R).is0();
  if (bad) check(pt.clearCofactor().isTorsionFree(), 'clearCofactor maps the point into the subgroup');
  return bad;
}
function badG1() {
  const recs = [];
  const bad = (hex, why) => recs.push([hex, why]);
  const p0 = g1pts[5], a0 = p0.toAffine();
  const c0 = encG1(p0, true), u0 = encG1(p0, false);
  // flags
  bad(withByte0(c0, (v) => v & 0x7f), 'flags');                                // 48 bytes, no compressed bit
  bad(withByte0(encG1(g1pts[6].negate(), true), (v) => v & 0x7f), 'flags');
  bad(bytesHex(encInf(48, false)), 'flags');                                   // infinity, 48 bytes, no C bit
  bad(withByte0(bytesHex(encInf(48, true)), (v) => v | 0x20), 'flags');        // infinity + sort
  { const b = encInf(48, true); b[47] = 1; bad(bytesHex(b), 'flags'); }         // infinity, body != 0
  bad(withByte0(c0, (v) => (v & 0x1f) | 0xc0), 'flags');                       // infinity bit on a point
  bad(withByte0(u0, (v) => v | 0x80), 'flags');                                // 96 bytes with C bit
  bad(withByte0(u0, (v) => v | 0x20), 'flags');                                // sort bit, uncompressed
  bad(withByte0(bytesHex(encInf(96, false)), (v) => v | 0x20), 'flags');       // infinity + sort, 96
  bad(bytesHex(encInf(96, true)), 'flags');                                    // 96 bytes, C + inf
  { const b = encInf(96, false); b[95] = 1; bad(bytesHex(b), 'flags'); }        // infinity, y != 0
  { const b = encInf(96, false); b[20] = 1; bad(bytesHex(b), 'flags'); }        // infinity, x != 0
  bad(withByte0(u0, (v) => v | 0x40), 'flags');                                // infinity bit on a point
  // non-canonical: x + p (or y + p) for a valid point, flags otherwise right
  let nc = 0;
  for (const pt of g1pts) {
    const { x, y } = pt.toAffine();
    if (x + P >= 1n << 381n || nc >= 3) continue;
    const ok = encG1Raw(x, y, true);
    const b = Buffer.from(hFp(x + P), 'hex');
    b[0] |= ok[0] & 0xe0;
    bad(bytesHex(b), 'noncanon');
    bad(hFp(x + P) + hFp(y), 'noncanon');
    nc++;
  }
  check(nc === 3, 'found G1 points with x + p < 2^381');
  bad(hFp(a0.x) + hFp(a0.y + P), 'noncanon');
  bad(hFp(a0.x) + hFp(P), 'noncanon');                                         // y = p (i.e. 0 mod p)
  // no square root: x^3 + 4 not a square, canonical, both sort bits
  for (let i = 0, n = 0; n < 6; i++) {
    const x = randFp();
    if (isSquareFp(rhs1(x))) continue;
    const b = Buffer.from(hFp(x), 'hex');
    b[0] |= 0x80 | (n & 1 ? 0x20 : 0);
    bad(bytesHex(b), 'nosqrt');
    n++;
  }
  // not on the curve (uncompressed)
  bad(hFp(0n) + hFp(0n), 'notoncurve');                                        // (0, 0), no flags
  bad(hFp(a0.x) + hFp(Fp.add(a0.y, 1n)), 'notoncurve');
  bad(hFp(1n) + hFp(1n), 'notoncurve');
  for (let n = 0; n < 3; n++) {
    const x = randFp(), y = randFp();
    check(Fp.sqr(y) !== rhs1(x), 'random (x, y) is off the curve');
    bad(hFp(x) + hFp(y), 'notoncurve');
  }
  // on the curve, not in G1: (0, +-2) has order 3; then random x with a root
  for (const y of [2n, P - 2n]) {
    const pt = G1.fromAffine({ x: 0n, y });
    check(notInSubgroup(G1, pt), '(0, 2) is not in G1');
    bad(bytesHex(encG1Raw(0n, y, true)), 'subgroup');
    bad(bytesHex(encG1Raw(0n, y, false)), 'subgroup');
  }
  for (let n = 0; n < 5;) {
    const x = randFp();
    const y = sqrtFp(rhs1(x));
    if (y === null) continue;
    const pt = G1.fromAffine({ x, y });
    check(notInSubgroup(G1, pt), 'random curve point is not in G1');
    bad(bytesHex(encG1Raw(x, y, true)), 'subgroup');
    bad(bytesHex(encG1Raw(x, Fp.neg(y), false)), 'subgroup');
    n++;
  }
  return recs;
}
function badG2() {
  const recs = [];
  const bad = (hex, why) => recs.push([hex, why]);
  const p0 = g2pts[5], a0 = p0.toAffine();
  const c0 = encG2(p0, true), u0 = encG2(p0, false);
  bad(withByte0(c0, (v) => v & 0x7f), 'flags');
  bad(withByte0(encG2(g2pts[6].negate(), true), (v) => v & 0x7f), 'flags');
  bad(bytesHex(encInf(96, false)), 'flags');
  bad(withByte0(bytesHex(encInf(96, true)), (v) => v | 0x20), 'flags');
  { const b = encInf(96, true); b[95] = 1; bad(bytesHex(b), 'flags'); }         // infinity, x.c0 != 0
  { const b = encInf(96, true); b[10] = 1; bad(bytesHex(b), 'flags'); }         // infinity, x.c1 != 0
  bad(withByte0(c0, (v) => (v & 0x1f) | 0xc0), 'flags');
  bad(withByte0(u0, (v) => v | 0x80), 'flags');
  bad(withByte0(u0, (v) => v | 0x20), 'flags');
  bad(withByte0(bytesHex(encInf(192, false)), (v) => v | 0x20), 'flags');
  bad(bytesHex(encInf(192, true)), 'flags');
  { const b = encInf(192, false); b[191] = 1; bad(bytesHex(b), 'flags'); }
  { const b = encInf(192, false); b[60] = 1; bad(bytesHex(b), 'flags'); }
  bad(withByte0(u0, (v) => v | 0x40), 'flags');
  // non-canonical coordinates of a valid point, one at a time
  let nc = 0;
  for (const pt of g2pts) {
    const { x, y } = pt.toAffine();
    if (x.c1 + P >= 1n << 381n || nc >= 2) continue;
    const ok = encG2Raw(x, y, true);
    const b = Buffer.from(hFp(x.c1 + P) + hFp(x.c0), 'hex');
    b[0] |= ok[0] & 0xe0;
    bad(bytesHex(b), 'noncanon');                                              // x.c1 >= p, compressed
    bad(hFp(x.c1 + P) + hFp(x.c0) + hFp(y.c1) + hFp(y.c0), 'noncanon');
    nc++;
  }
  check(nc === 2, 'found G2 points with x.c1 + p < 2^381');
  {
    const ok = encG2Raw(a0.x, a0.y, true);
    const b = Buffer.from(hFp(a0.x.c1) + hFp(a0.x.c0 + P), 'hex');
    b[0] |= ok[0] & 0xe0;
    bad(bytesHex(b), 'noncanon');                                              // x.c0 >= p, compressed
    bad(hFp(a0.x.c1) + hFp(a0.x.c0 + P) + hFp(a0.y.c1) + hFp(a0.y.c0), 'noncanon');
    bad(hFp(a0.x.c1) + hFp(a0.x.c0) + hFp(a0.y.c1 + P) + hFp(a0.y.c0), 'noncanon');
    bad(hFp(a0.x.c1) + hFp(a0.x.c0) + hFp(a0.y.c1) + hFp(a0.y.c0 + P), 'noncanon');
  }
  for (let n = 0; n < 6;) {
    const x = randFp2();
    if (isSquareFp2(rhs2(x))) continue;
    const b = Buffer.from(hFp(x.c1) + hFp(x.c0), 'hex');
    b[0] |= 0x80 | (n & 1 ? 0x20 : 0);
    bad(bytesHex(b), 'nosqrt');
    n++;
  }
  {
    // x = 0 and x = 1 (small values a decoder might special-case)
    for (const x of [{ c0: 0n, c1: 0n }, { c0: 1n, c1: 0n }]) {
      const y = sqrtFp2(rhs2(x));
      if (y === null) { const b = Buffer.from(hFp(x.c1) + hFp(x.c0), 'hex'); b[0] |= 0x80; bad(bytesHex(b), 'nosqrt'); }
      else { check(notInSubgroup(G2, G2.fromAffine({ x, y })), 'small x not in G2'); bad(bytesHex(encG2Raw(x, y, true)), 'subgroup'); }
    }
  }
  bad('00'.repeat(192), 'notoncurve');
  bad(hFp(a0.x.c1) + hFp(a0.x.c0) + hFp(a0.y.c1) + hFp(Fp.add(a0.y.c0, 1n)), 'notoncurve');
  bad(hFp(a0.x.c1) + hFp(a0.x.c0) + hFp(a0.y.c0) + hFp(a0.y.c1), 'notoncurve'); // y halves swapped
  for (let n = 0; n < 3; n++) {
    const x = randFp2(), y = randFp2();
    check(!Fp2.eql(Fp2.sqr(y), rhs2(x)), 'random (x, y) is off the G2 curve');
    bad(hFp(x.c1) + hFp(x.c0) + hFp(y.c1) + hFp(y.c0), 'notoncurve');
  }
  for (let n = 0; n < 5;) {
    const x = randFp2();
    const y = sqrtFp2(rhs2(x));
    if (y === null) continue;
    const pt = G2.fromAffine({ x, y });
    check(notInSubgroup(G2, pt), 'random twist point is not in G2');
    bad(bytesHex(encG2Raw(x, y, true)), 'subgroup');
    bad(bytesHex(encG2Raw(x, Fp2.neg(y), false)), 'subgroup');
    n++;
  }
  return recs;
}
// Cross-check: noble's own decoder must reject every nosqrt, notoncurve and
// subgroup record (mathematical facts), except the all-zero uncompressed
// encoding, which noble reads as the identity (Zcash and ec/ec.h: the identity
// needs the infinity flag, so (0, 0) is off the curve). It is laxer than the Zcash rules on
// flags and reduces non-canonical coordinates mod p, so for those kinds the
// records rest on the rules in ec/ec.h alone; the ones noble accepts are listed
// on stderr when this runs.
function nobleRejects(Pt, hex) {
  try { Pt.fromHex(hex); return false; } catch { return true; }
}
for (const [tag, Pt, recs] of [['g1', G1, badG1()], ['g2', G2, badG2()]]) {
  for (const [hex, why] of recs) {
    const allZero = /^0+$/.test(hex);
    if ((why === 'nosqrt' || why === 'notoncurve' || why === 'subgroup') && !allZero) {
      check(nobleRejects(Pt, hex), 'noble rejects ' + tag + ' ' + why + ' ' + hex);
    } else if (!nobleRejects(Pt, hex)) {
      process.stderr.write('note: noble accepts ' + tag + ' ' + why + ' ' + hex.slice(0, 8) + '...\n');
    }
    emit(tag + '_decode_bad', hex, why);
  }
}

// ---- pairing --------------------------------------------------------------------------------
{
  const pairs = [[G1.BASE, G2.BASE], [G1.BASE.negate(), G2.BASE], [G1.ZERO, G2.BASE], [G1.BASE, G2.ZERO],
    [G1.ZERO, G2.ZERO]];
  for (let i = 0; i < 7; i++) pairs.push([g1pts[10 + i], g2pts[10 + i]]);
  pairs.push([g1pts[20], G2.BASE], [G1.BASE, g2pts[20]]);
  const e11 = bls.pairing(G1.BASE, G2.BASE);
  check(Fp12.eql(Fp12.finalExponentiate(bls.pairing(G1.BASE, G2.BASE, false)), e11), 'pairing = fe(miller)');
  check(Fp12.eql(Fp12.pow(bls.pairing(G1.BASE, G2.BASE, false), FINAL_EXP), e11), 'pairing is exact');
  check(!Fp12.eql(e11, Fp12.ONE) && Fp12.eql(Fp12.pow(e11, R), Fp12.ONE), 'e(G1, G2) has order r');
  {
    const a = randFrNonzero(), b = randFrNonzero();
    check(Fp12.eql(bls.pairing(G1.BASE.multiply(a), G2.BASE.multiply(b)), Fp12.pow(e11, Fr.mul(a, b))), 'bilinear');
  }
  for (const [p, q] of pairs) {
    const e = p.is0() || q.is0() ? Fp12.ONE : bls.pairing(p, q);
    emit('pairing', encG1(p, true), encG2(q, true), hFp12(e));
  }
}

{
  const parts = [...counts].map(([k, n]) => k + ' ' + n);
  for (let i = 0; i < parts.length; i += 8) out.push('# Records: ' + parts.slice(i, i + 8).join(', '));
}
process.stdout.write(out.join('\n') + '\n' + lines.join('\n') + '\n');
