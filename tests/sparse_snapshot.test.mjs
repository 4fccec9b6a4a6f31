// The loader's reader of the sparse snapshot (sparseSnapshot in docs/assets/calc/loader/sparse-snapshot.mjs):
// Pyodide's memory snapshot back, byte for byte, however the inflated bytes are cut
// into pieces; a refusal for bytes that are not a sparse snapshot, one cut short, or
// one whose stretches lie outside the memory. The sparse files are made here, by
// sparseOf below, as scripts/build/build_wheel.py's sparse_snapshot lays them out.
import { test } from "node:test";
import assert from "node:assert/strict";

import { sparseSnapshot } from "../docs/assets/calc/loader/sparse-snapshot.mjs";

const ZERO_RUN = 64;

/** The sparse layout of ``memory``: "FMz1", length, N, N × (offset, length), the stretches. */
function sparseOf(memory) {
  const stretches = [];
  let start = 0;
  let i = 0;
  while (i < memory.length) {
    if (memory[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < memory.length && memory[j] === 0) j++;
    if (j - i >= ZERO_RUN) {
      if (i > start) stretches.push([start, i - start]);
      start = j;
    }
    i = j;
  }
  if (start < memory.length) stretches.push([start, memory.length - start]);
  const kept = stretches.reduce((n, [, length]) => n + length, 0);
  const out = new Uint8Array(12 + 8 * stretches.length + kept);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode("FMz1"), 0);
  view.setUint32(4, memory.length, true);
  view.setUint32(8, stretches.length, true);
  let at = 12 + 8 * stretches.length;
  stretches.forEach(([offset, length], k) => {
    view.setUint32(12 + 8 * k, offset, true);
    view.setUint32(16 + 8 * k, length, true);
    out.set(memory.subarray(offset, offset + length), at);
    at += length;
  });
  return out;
}

/** A memory like Pyodide's: data, long runs of zeros, short ones kept, zeros at both ends. */
function memoryLike() {
  const memory = new Uint8Array(20_000);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  for (const [from, to] of [[100, 2_000], [2_010, 2_500], [9_000, 9_001], [12_000, 19_000]]) {
    for (let i = from; i < to; i++) memory[i] = next() | 1;
  }
  return memory;
}

function inPieces(bytes, size) {
  const pieces = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

test("the memory comes back byte for byte, whatever the pieces", () => {
  const memory = memoryLike();
  const sparse = sparseOf(memory);
  assert.ok(sparse.length < memory.length / 2); // the long runs of zeros are left out
  for (const size of [1, 5, 11, 12, 13, 64, 4096, sparse.length]) {
    const reader = sparseSnapshot();
    for (const piece of inPieces(sparse, size)) reader.add(piece);
    assert.deepEqual(reader.end(), memory, `pieces of ${size}`);
  }
});

test("bytes that are not a sparse snapshot are refused", () => {
  const notOne = new TextEncoder().encode("\0snp and Pyodide's own snapshot, not sparse");
  assert.throws(() => sparseSnapshot().add(notOne), /not a sparse snapshot/);
});

test("a sparse snapshot cut short is refused", () => {
  const sparse = sparseOf(memoryLike());
  for (const cut of [4, 20, sparse.length - 1]) {
    const reader = sparseSnapshot().add(sparse.subarray(0, cut));
    assert.throws(() => reader.end(), /cut short/, `cut at ${cut}`);
  }
});

test("a stretch outside the memory, or bytes past the last stretch, are refused", () => {
  const sparse = sparseOf(memoryLike());
  const outside = sparse.slice();
  new DataView(outside.buffer).setUint32(12, 19_990, true); // the first stretch, moved past the end
  assert.throws(() => sparseSnapshot().add(outside), /outside its place/);
  const longer = new Uint8Array(sparse.length + 1);
  longer.set(sparse);
  assert.throws(() => sparseSnapshot().add(longer), /longer than its stretches/);
});
