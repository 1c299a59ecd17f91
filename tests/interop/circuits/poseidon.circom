pragma circom 2.0.0;

// Seven chained Poseidon(2) hashes (3,619 constraints, 2^12): see poseidon_chain.circom.
include "poseidon_chain.circom";

component main {public [x]} = PoseidonChain(7);
