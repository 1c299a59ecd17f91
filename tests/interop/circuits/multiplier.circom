pragma circom 2.0.0;

// c = a * b, with a public input (a) and a public output (c): nPublic = 2.
template Multiplier() {
    signal input a;
    signal input b;
    signal output c;
    c <== a * b;
}

component main {public [a]} = Multiplier();
