pragma circom 2.0.0;

// circomlib SHA-256 of a 960-byte message: 16 compression blocks of about
// 31,264 constraints (2^19 domain). See sha256_public.circom.
include "sha256_public.circom";

component main {public [salt]} = Sha256Public(960);
