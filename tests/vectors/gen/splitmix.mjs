// tests/vectors/gen/splitmix.mjs — the deterministic randomness of gen.mjs
// and gen_bn254.mjs: SplitMix64 on BigInt from a fixed seed (never
// Math.random), so a rerun reproduces the committed vectors byte for byte.

export const M64 = (1n << 64n) - 1n;

// randBits(n): n uniformly random bits as a BigInt, from the stream of seed.
export function splitmix(seed) {
  let state = seed;
  function next64() {
    state = (state + 0x9e3779b97f4a7c15n) & M64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  return function randBits(n) {
    let v = 0n;
    for (let i = 0; i < n; i += 64) v = (v << 64n) | next64();
    return v & ((1n << BigInt(n)) - 1n);
  };
}
