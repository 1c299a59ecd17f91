pragma circom 2.0.0;

include "../node_modules/circomlib/circuits/poseidon.circom";

// n chained circomlib Poseidon(2) hashes: h0 = H(x, y), h(i+1) = H(h(i), x),
// 517 constraints each (243 non-linear, 274 linear, as circom2 compiles it).
// Public: the output and x (nPublic = 2). Under --prime bls12381 circomlib's
// (BN254) constants still give a valid R1CS over BLS12-381's Fr: a workload,
// not a vetted Poseidon instance.
template PoseidonChain(n) {
    signal input x;
    signal input y;
    signal output out;
    component h[n];
    for (var i = 0; i < n; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== i == 0 ? y : h[i - 1].out;
        h[i].inputs[1] <== x;
    }
    out <== h[n - 1].out;
}
