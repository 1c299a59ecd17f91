pragma circom 2.0.0;

include "../node_modules/circomlib/circuits/sha256/sha256.circom";
include "../node_modules/circomlib/circuits/bitify.circom";

// SHA-256 of a private 64-byte message (512 bits, MSB first in each byte;
// two compression blocks with the padding), the digest packed into two
// public 128-bit outputs (hi, lo), plus a public input salt and its square:
// nPublic = 4 (outputs hi, lo, saltsq; input salt).
template Sha256Public() {
    signal input in[512];
    signal input salt;
    signal output hi;
    signal output lo;
    signal output saltsq;
    component sha = Sha256(512);
    for (var i = 0; i < 512; i++) sha.in[i] <== in[i];
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

component main {public [salt]} = Sha256Public();
