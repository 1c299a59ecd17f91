// tests/interop/tools.mjs — small helpers of the interop driver (run.sh):
//   node tools.mjs sha-input MSG SALT out.json      circomlib Sha256(8 n) input: MSG (n bytes of
//                                                   UTF-8, n as the circuit fixes it) as bits,
//                                                   MSB first in each byte
//   node tools.mjs sha-check MSG SALT public.json    public.json is [hi, lo, salt^2, salt] of sha256(MSG)
//   node tools.mjs tamper KIND in.json out.json [CURVE]  one alteration of a proof or public.json
//                                                   (CURVE bls12381, the default, or bn128: its q and r):
//        pi_a_x    pi_a[0] + 1 (one coordinate; the point leaves the curve)
//        swap_ac   pi_a and pi_c exchanged (valid points, wrong proof)
//        neg_c     pi_c negated (pi_c[1] = q - y: a valid point)
//        public0   the first public value + 1
//   node tools.mjs mask in.json                      the file with every digit run replaced by 0
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const CURVES = {
    bls12381: {
        Q: 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn,
        R: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
    },
    bn128: {
        Q: 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n,
        R: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n,
    },
};
const [cmd, ...a] = process.argv.slice(2);
const { Q, R } = CURVES[cmd === "tamper" && a[3] ? a[3] : "bls12381"] ?? (() => { throw new Error(`unknown curve ${a[3]}`); })();

function bytesOf(msg) {
    const b = Buffer.from(msg, "utf8");
    if (b.length === 0) throw new Error("empty message");
    return b;
}

if (cmd === "sha-input") {
    const b = bytesOf(a[0]);
    const bits = [];
    for (const byte of b) for (let k = 7; k >= 0; k--) bits.push(((byte >> k) & 1).toString());
    writeFileSync(a[2], JSON.stringify({ in: bits, salt: a[1] }));
} else if (cmd === "sha-check") {
    const d = createHash("sha256").update(bytesOf(a[0])).digest("hex");
    const salt = BigInt(a[1]);
    const want = [BigInt("0x" + d.slice(0, 32)), BigInt("0x" + d.slice(32)), (salt * salt) % R, salt].map(String);
    const got = JSON.parse(readFileSync(a[2], "utf8"));
    if (JSON.stringify(got) !== JSON.stringify(want)) {
        console.error(`sha-check: public.json ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
        process.exit(1);
    }
} else if (cmd === "tamper") {
    const j = JSON.parse(readFileSync(a[1], "utf8"));
    if (a[0] === "pi_a_x") j.pi_a[0] = ((BigInt(j.pi_a[0]) + 1n) % Q).toString();
    else if (a[0] === "swap_ac") [j.pi_a, j.pi_c] = [j.pi_c, j.pi_a];
    else if (a[0] === "neg_c") j.pi_c[1] = ((Q - BigInt(j.pi_c[1])) % Q).toString();
    else if (a[0] === "public0") j[0] = ((BigInt(j[0]) + 1n) % R).toString();
    else throw new Error(`unknown tamper kind ${a[0]}`);
    writeFileSync(a[2], JSON.stringify(j, null, 1));
} else if (cmd === "mask") {
    process.stdout.write(readFileSync(a[0], "utf8").replace(/[0-9]+/g, "0"));
} else {
    console.error("usage: node tools.mjs sha-input|sha-check|tamper|mask ...");
    process.exit(2);
}
