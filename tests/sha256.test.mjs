// The worker's SHA-256 (docs/assets/calc/loader/sha256.mjs), which checks the rules
// wheel where the browser has no crypto.subtle (plain HTTP): the standard's
// vectors (FIPS 180-4 examples, NIST's), and Node's digest of every length
// around the block and padding edges.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { sha256, sha256Hex, sha256HexSync } from "../docs/assets/calc/loader/sha256.mjs";

const text = (/** @type {string} */ s) => new TextEncoder().encode(s);

test("the standard's vectors", () => {
  assert.equal(sha256HexSync(text("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256HexSync(text("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    sha256HexSync(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(sha256HexSync(new Uint8Array(1_000_000).fill(0x61)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
});

test("every length from 0 to 300 bytes, as Node's digest has it", () => {
  const data = new Uint8Array(300).map((_, i) => (i * 131 + 7) & 0xff);
  for (let n = 0; n <= 300; n++) {
    const part = data.subarray(0, n);
    assert.equal(sha256HexSync(part), createHash("sha256").update(part).digest("hex"), `${n} bytes`);
  }
  assert.equal(sha256(text("abc")).length, 32);
});

test("sha256Hex gives the same digest with crypto.subtle and without it", async () => {
  const data = new Uint8Array(70_000).map((_, i) => (i * 7) & 0xff);
  const want = createHash("sha256").update(data).digest("hex");
  assert.equal(await sha256Hex(data.buffer), want);
  const subtle = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  Object.defineProperty(globalThis, "crypto", { value: {}, configurable: true });
  try {
    assert.equal(await sha256Hex(data.buffer), want);
  } finally {
    Object.defineProperty(globalThis, "crypto", subtle);
  }
});
