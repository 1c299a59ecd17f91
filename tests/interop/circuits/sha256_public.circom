pragma circom 2.0.0;

include "../node_modules/circomlib/circuits/sha256/sha256.circom";
include "../node_modules/circomlib/circuits/bitify.circom";

// SHA-256 of a private message of nBytes bytes (8 nBytes bits, MSB first in
// each byte; circomlib adds the padding, so 64 bytes take two compression
// blocks, 192 bytes four, 448 bytes eight), the digest packed into two
// public 128-bit outputs (hi, lo), plus a public input salt and its square:
// nPublic = 4 (outputs hi, lo, saltsq; input salt).
template Sha256Public(nBytes) {
    signal input in[8 * nBytes];
    signal input salt;
    signal output hi;
    signal output lo;
    signal output saltsq;
    component sha = Sha256(8 * nBytes);
    for (var i = 0; i < 8 * nBytes; i++) sha.in[i] <== in[i];
    component phi = Bits2Num(128);
    component plo = Bits2Num(128);
    for (var i = 0; i < 128; i++) {
        phi.in[127 - i] <== sha.out[i];
        plo.in[127 - i] <== sha.out[128 + i];
    }
    hi <== phi.out;
    lo <== plo.out;
    saltsq <== salt * salt;
}
