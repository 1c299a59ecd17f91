pragma circom 2.0.0;

// 253 chained Poseidon(2) hashes (130801 constraints): the 2^17 domain
// (nConstraints + nPublic + 1 <= 2^17) nearly full. See poseidon_chain.circom.
include "poseidon_chain.circom";

component main {public [x]} = PoseidonChain(253);
