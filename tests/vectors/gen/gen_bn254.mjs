// tests/vectors/gen/gen_bn254.mjs — known-answer vectors for BN254 (alt_bn128,
// snarkjs's bn128) from @noble/curves, an implementation grothmpi did not write.
//
//   cd tests/vectors/gen && npm ci && node gen_bn254.mjs > ../bn254.txt
//
// Deterministic (fixed-seed SplitMix64, a different seed from gen.mjs);
// `make test` reads only the committed file (tests/unit/test_bn254_vectors.c).
// Format as in gen.mjs: `<kind> <field> ...`, big-endian hex without 0x, Fp
// and Fr 64 hex chars. Points in the Ethereum precompile encoding (EIP-196/197:
// G1 x||y, 64 bytes; G2 x.c1||x.c0||y.c1||y.c0, 128 bytes; the identity all
// zeros), and for G1/G2 once more as snarkjs stores them in .zkey and .ptau
// (coordinates a*2^256 mod p, 32 bytes little-endian each, Fp2 c0 then c1;
// the identity all zeros), written here from the definition.

import { bn254 } from '@noble/curves/bn254';
import { readFileSync } from 'node:fs';
import { M64, splitmix } from './splitmix.mjs';

const NOBLE_VERSION = JSON.parse(
  readFileSync(new URL('./node_modules/@noble/curves/package.json', import.meta.url))
).version;

const { Fp, Fp2, Fp6, Fp12, Fr } = bn254.fields;
const G1 = bn254.G1.ProjectivePoint;
const G2 = bn254.G2.ProjectivePoint;
const P = Fp.ORDER;
const R = Fr.ORDER;
const BN_X = 4965661367192848881n;
// noble's final exponentiation (the Fuentes-Castaneda et al. hard part) is
// f^(M (p^12-1)/r) with M = 2x(6x^2 + 3x + 1); checked below.
const FE_M = 2n * BN_X * (6n * BN_X * BN_X + 3n * BN_X + 1n);

function check(cond, what) {
  if (!cond) throw new Error('gen_bn254.mjs: self-check failed: ' + what);
}

const randBits = splitmix(0x626e323534766563n); // "bn254vec"
const randFp = () => randBits(320) % P;
const randFr = () => randBits(320) % R;
const randFrNonzero = () => { for (;;) { const v = randFr(); if (v !== 0n) return v; } };
const randFp2 = () => Fp2.create({ c0: randFp(), c1: randFp() });
const randFp6 = () => Fp6.create({ c0: randFp2(), c1: randFp2(), c2: randFp2() });
const randFp12 = () => Fp12.create({ c0: randFp6(), c1: randFp6() });

const lines = [];
const counts = new Map();
function emit(kind, ...fields) {
  lines.push([kind, ...fields].join(' '));
  counts.set(kind, (counts.get(kind) || 0) + 1);
}
const h32 = (v) => {
  check(v >= 0n && v < 1n << 256n, 'value fits 32 bytes');
  return v.toString(16).padStart(64, '0');
};
const le32 = (v) => Buffer.from(h32(v), 'hex').reverse().toString('hex');
const mont = (v) => (v << 256n) % P;
const fp6Flat = (a) => [a.c0.c0, a.c0.c1, a.c1.c0, a.c1.c1, a.c2.c0, a.c2.c1];
const hFp6 = (a) => fp6Flat(a).map(h32).join('');
const hFp12 = (a) => [...fp6Flat(a.c0), ...fp6Flat(a.c1)].map(h32).join('');

// Encodings written here from EIP-196/197 and snarkjs's layout.
function ethG1(pt) {
  if (pt.is0()) return '00'.repeat(64);
  const { x, y } = pt.toAffine();
  return h32(x) + h32(y);
}
function ethG2(pt) {
  if (pt.is0()) return '00'.repeat(128);
  const { x, y } = pt.toAffine();
  return h32(x.c1) + h32(x.c0) + h32(y.c1) + h32(y.c0);
}
function sjG1(pt) {
  if (pt.is0()) return '00'.repeat(64);
  const { x, y } = pt.toAffine();
  return le32(mont(x)) + le32(mont(y));
}
function sjG2(pt) {
  if (pt.is0()) return '00'.repeat(128);
  const { x, y } = pt.toAffine();
  return [x.c0, x.c1, y.c0, y.c1].map((v) => le32(mont(v))).join('');
}

// [k]P by plain double-and-add (any point, any k >= 0).
function mulPlain(Pt, pt, k) {
  let acc = Pt.ZERO;
  for (let i = BigInt(k.toString(2).length) - 1n; i >= 0n; i--) {
    acc = acc.double();
    if ((k >> i) & 1n) acc = acc.add(pt);
  }
  return acc;
}
const mulAny = (pt, k) => (k % R === 0n ? pt.constructor.ZERO : pt.multiply(k % R));

const FP_EDGE = [0n, 1n, 2n, P - 1n, P - 2n, (P - 1n) / 2n, (P + 1n) / 2n, M64, 1n << 64n,
  (1n << 253n) - 1n, (1n << 256n) % P, (1n << 512n) % P];
const FR_EDGE = [0n, 1n, 2n, R - 1n, R - 2n, (R - 1n) / 2n, (R + 1n) / 2n, M64, 1n << 64n,
  (1n << 253n) - 1n, (1n << 256n) % R, (1n << 512n) % R];
function pairs(edge, rand, n) {
  const out = edge.map((a, i) => [a, edge[(i * 5 + 3) % edge.length]]);
  while (out.length < n) out.push([rand(), rand()]);
  return out;
}

// ---- fields ---------------------------------------------------------------------
for (const [a, b] of pairs(FP_EDGE, randFp, 30)) emit('fp_add', h32(a), h32(b), h32(Fp.add(a, b)));
for (const [a, b] of pairs(FP_EDGE, randFp, 30)) emit('fp_sub', h32(a), h32(b), h32(Fp.sub(a, b)));
for (const [a, b] of pairs(FP_EDGE, randFp, 30)) emit('fp_mul', h32(a), h32(b), h32(Fp.mul(a, b)));
for (const a of [...FP_EDGE, ...Array.from({ length: 16 }, randFp)]) emit('fp_sqr', h32(a), h32(Fp.sqr(a)));
for (const a of [...FP_EDGE.filter((v) => v !== 0n), ...Array.from({ length: 16 }, randFp)])
  emit('fp_inv', h32(a), h32(Fp.inv(a)));
for (const a of [...FP_EDGE, ...Array.from({ length: 24 }, randFp)]) {
  const sq = a === 0n || Fp.pow(a, (P - 1n) / 2n) === 1n;
  if (!sq) { emit('fp_sqrt', h32(a), 'none'); continue; }
  const s = Fp.sqrt(a);
  check(Fp.sqr(s) === a, 'Fp.sqrt');
  emit('fp_sqrt', h32(a), h32(s));
}
for (const [a, b] of pairs(FR_EDGE, randFr, 30)) emit('fr_add', h32(a), h32(b), h32(Fr.add(a, b)));
for (const [a, b] of pairs(FR_EDGE, randFr, 30)) emit('fr_sub', h32(a), h32(b), h32(Fr.sub(a, b)));
for (const [a, b] of pairs(FR_EDGE, randFr, 30)) emit('fr_mul', h32(a), h32(b), h32(Fr.mul(a, b)));
for (const a of [...FR_EDGE.filter((v) => v !== 0n), ...Array.from({ length: 16 }, randFr)])
  emit('fr_inv', h32(a), h32(Fr.inv(a)));
for (let i = 0; i < 24; i++) {
  const a = randFp2(), b = randFp2(), c = Fp2.mul(a, b);
  emit('fp2_mul', h32(a.c0), h32(a.c1), h32(b.c0), h32(b.c1), h32(c.c0), h32(c.c1));
}
for (let i = 0; i < 16; i++) {
  const a = randFp2(), s = Fp2.sqr(a), v = Fp2.inv(a);
  emit('fp2_sqr', h32(a.c0), h32(a.c1), h32(s.c0), h32(s.c1));
  emit('fp2_inv', h32(a.c0), h32(a.c1), h32(v.c0), h32(v.c1));
}
for (let i = 0; i < 12; i++) {
  const a = randFp6(), b = randFp6();
  emit('fp6_mul', hFp6(a), hFp6(b), hFp6(Fp6.mul(a, b)));
}
for (let i = 0; i < 12; i++) {
  const a = randFp12(), b = randFp12();
  emit('fp12_mul', hFp12(a), hFp12(b), hFp12(Fp12.mul(a, b)));
  if (i < 8) emit('fp12_inv', hFp12(a), hFp12(Fp12.inv(a)));
}
for (const k of [1, 2, 3, 6, 1, 2, 3, 6]) {
  const a = randFp12(), f = Fp12.frobeniusMap(a, k);
  check(Fp12.eql(f, Fp12.pow(a, P ** BigInt(k))), 'frobenius is a^(p^k)');
  emit('fp12_frobenius', String(k), hFp12(a), hFp12(f));
}
for (let i = 0; i < 4; i++) {
  const f = randFp12(), e = Fp12.finalExponentiate(f);
  if (i < 2) check(Fp12.eql(e, Fp12.pow(f, FE_M * ((P ** 12n - 1n) / R))), 'final exp is f^(M(p^12-1)/r)');
  emit('fp12_final_exp', hFp12(f), hFp12(e));
}

// ---- groups ---------------------------------------------------------------------
const ptsG1 = [G1.BASE, G1.BASE.double(), G1.BASE.negate(), ...Array.from({ length: 9 }, () => G1.BASE.multiply(randFrNonzero()))];
const ptsG2 = [G2.BASE, G2.BASE.double(), G2.BASE.negate(), ...Array.from({ length: 9 }, () => G2.BASE.multiply(randFrNonzero()))];
for (const [G, pts, eth, sj, pre] of [[G1, ptsG1, ethG1, sjG1, 'g1'], [G2, ptsG2, ethG2, sjG2, 'g2']]) {
  const all = [G.ZERO, ...pts];
  for (let i = 0; i < all.length; i++) {
    const a = all[i], b = all[(i * 7 + 3) % all.length];
    emit(pre + '_add', eth(a), eth(b), eth(a.add(b)));
  }
  emit(pre + '_add', eth(pts[4]), eth(pts[4]), eth(pts[4].double()));
  emit(pre + '_add', eth(pts[4]), eth(pts[4].negate()), eth(G.ZERO));
  for (const a of all) emit(pre + '_dbl', eth(a), eth(a.double()));
  const ks = [0n, 1n, 2n, R - 1n, R, R + 1n, (1n << 256n) - 1n, ...Array.from({ length: 8 }, () => randBits(256))];
  for (let i = 0; i < ks.length; i++) {
    const a = pts[i % pts.length], k = ks[i], kp = mulAny(a, k);
    if (i < 4) check(kp.equals(mulPlain(G, a, k)), 'multiply agrees with double-and-add');
    emit(pre + '_mul', eth(a), h32(k), eth(kp));
  }
  for (const a of all) emit(pre + '_snarkjs', eth(a), sj(a));
}

// Bad encodings, each with one defect. G1 has cofactor 1: every curve point
// is in the group, so there is no subgroup case for it.
const g1b = ethG1(ptsG1[5]);
const setWord = (hex, i, v) => hex.slice(0, 64 * i) + h32(v) + hex.slice(64 * (i + 1));
{
  const { x, y } = ptsG1[5].toAffine();
  emit('g1_decode_bad', setWord(g1b, 0, x + P), 'noncanon');
  emit('g1_decode_bad', setWord(g1b, 1, y + P), 'noncanon');
  emit('g1_decode_bad', setWord(g1b, 1, (1n << 256n) - 1n), 'noncanon');
  emit('g1_decode_bad', setWord(g1b, 1, Fp.add(y, 1n)), 'notoncurve');
  emit('g1_decode_bad', setWord(g1b, 0, 0n), 'notoncurve');
  emit('g1_decode_bad', h32(0n) + h32(1n), 'notoncurve');
}
{
  const { x, y } = ptsG2[5].toAffine();
  const g2b = ethG2(ptsG2[5]); // words: x.c1 x.c0 y.c1 y.c0
  emit('g2_decode_bad', setWord(g2b, 0, x.c1 + P), 'noncanon');
  emit('g2_decode_bad', setWord(g2b, 3, y.c0 + P), 'noncanon');
  emit('g2_decode_bad', setWord(g2b, 2, Fp.add(y.c1, 1n)), 'notoncurve');
  let n = 0;
  while (n < 4) {
    // A point of the twist outside G2: random x with x^3 + b' a square.
    const xx = randFp2();
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(xx), xx), bn254.G2.CURVE.b);
    const norm = Fp.add(Fp.sqr(rhs.c0), Fp.sqr(rhs.c1));
    if (Fp.pow(norm, (P - 1n) / 2n) !== 1n) continue;
    const yy = Fp2.sqrt(rhs);
    check(Fp2.eql(Fp2.sqr(yy), rhs), 'Fp2.sqrt');
    const pt = G2.fromAffine({ x: xx, y: yy });
    check(!mulPlain(G2, pt, R).is0(), 'point outside G2');
    emit('g2_decode_bad', h32(xx.c1) + h32(xx.c0) + h32(yy.c1) + h32(yy.c0), 'subgroup');
    n++;
  }
}

// ---- pairing --------------------------------------------------------------------
for (let i = 0; i < 8; i++) {
  const a = i === 0 ? G1.ZERO : ptsG1[i], b = i === 1 ? G2.ZERO : ptsG2[(i * 5) % ptsG2.length];
  const e = a.is0() || b.is0() ? Fp12.ONE : bn254.pairing(a, b);
  emit('pairing', ethG1(a), ethG2(b), hFp12(e));
}

// ---- output ----------------------------------------------------------------------
const out = [];
out.push('# BN254 known answers for grothmpi, generated by @noble/curves ' + NOBLE_VERSION +
  ' (npm, pinned in tests/vectors/gen/package-lock.json).');
out.push('# Command: cd tests/vectors/gen && npm ci && node gen_bn254.mjs > ../bn254.txt');
out.push('# Deterministic (fixed-seed SplitMix64 in gen_bn254.mjs); checked by tests/unit/test_bn254_vectors.c.');
out.push('# Hex is big-endian without 0x, 64 chars per Fp/Fr; fp2 = c0 c1; fp6/fp12 = one field, the');
out.push('# coefficients concatenated c0.c0(.c0), ... as ff.h\'s bn_fp12_to_bytes_be writes them.');
out.push('# Points: Ethereum precompile encoding (G1 x||y 64 bytes, G2 x.c1 x.c0 y.c1 y.c0 128 bytes,');
out.push('#   identity all zeros). <g>_snarkjs eth sj: sj is the .zkey/.ptau form (Montgomery, R = 2^256,');
out.push('#   32 bytes little-endian per coordinate, c0 before c1, identity all zeros).');
out.push('# Kinds: fp_add|fp_sub|fp_mul a b c   fp_sqr a c   fp_inv a c   fp_sqrt a s|none');
out.push('#   fr_add|fr_sub|fr_mul a b c   fr_inv a c   fp2_mul a0 a1 b0 b1 c0 c1   fp2_sqr|fp2_inv a0 a1 c0 c1');
out.push('#   fp6_mul a b c   fp12_mul a b c   fp12_inv a c   fp12_frobenius k a a^(p^k)');
out.push('#   fp12_final_exp f f^(M(p^12-1)/r), M = 2x(6x^2+3x+1), x = 4965661367192848881 (noble\'s chain)');
out.push('#   g1_add P Q P+Q   g1_dbl P 2P   g1_mul P k kP (k any 256-bit integer)   g1_snarkjs eth sj');
out.push('#   g1_decode_bad bytes reason (noncanon notoncurve)   g2_*: the same over G2 (+ subgroup)');
out.push('#   pairing P Q e(P,Q)   (e = 1 when P or Q is the identity; the exponent M as fp12_final_exp)');
const kinds = [...counts.entries()].map(([k, n]) => `${k} ${n}`);
for (let i = 0; i < kinds.length; i += 8) out.push('# Records: ' + kinds.slice(i, i + 8).join(', '));
process.stdout.write([...out, ...lines].join('\n') + '\n');
