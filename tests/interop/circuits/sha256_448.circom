pragma circom 2.0.0;

// circomlib SHA-256 of a 448-byte message: see sha256_public.circom.
include "sha256_public.circom";

component main {public [salt]} = Sha256Public(448);
