pragma circom 2.0.0;

// 2028 chained Poseidon(2) hashes (1048476 constraints): the 2^20 domain
// (nConstraints + nPublic + 1 <= 2^20) nearly full. See poseidon_chain.circom.
include "poseidon_chain.circom";

component main {public [x]} = PoseidonChain(2028);
