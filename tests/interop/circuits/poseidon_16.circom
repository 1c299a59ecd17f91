pragma circom 2.0.0;

// 126 chained Poseidon(2) hashes (65142 constraints): the 2^16 domain
// (nConstraints + nPublic + 1 <= 2^16) nearly full. See poseidon_chain.circom.
include "poseidon_chain.circom";

component main {public [x]} = PoseidonChain(126);
