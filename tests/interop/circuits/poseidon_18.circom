pragma circom 2.0.0;

// 507 chained Poseidon(2) hashes (262119 constraints): the 2^18 domain
// (nConstraints + nPublic + 1 <= 2^18) nearly full. See poseidon_chain.circom.
include "poseidon_chain.circom";

component main {public [x]} = PoseidonChain(507);
