pragma circom 2.0.0;

// 1014 chained Poseidon(2) hashes (524238 constraints): the 2^19 domain
// (nConstraints + nPublic + 1 <= 2^19) nearly full. See poseidon_chain.circom.
include "poseidon_chain.circom";

component main {public [x]} = PoseidonChain(1014);
