// The memory snapshot Python starts from: its bytes read and inflated
// (snapshotBytes), in the sparse format scripts/build/build_wheel.py writes
// (sparseSnapshot), into the memory Pyodide restores.

import { sha256Hex } from "./sha256.mjs";
import { counter } from "./state.mjs";

/** @typedef {import("./files.mjs").Runtime} Runtime */
/** @typedef {import("./state.mjs").LoaderState} LoaderState */

// The snapshot is stored sparse and gzipped (scripts/build/build_wheel.py): Pyodide's
// 30 MiB snapshot of its memory less the runs of zeros, 14 MiB (sparseSnapshot
// below). A host that labels .gz files with Content-Encoding: gzip has the
// browser inflate it already: then it does not start with gzip's magic number
// and is expanded as it came. It is on the way to a
// start from it, so it is read by this worker alone (no clone of the response:
// a tee'd body crosses this worker's thread twice, and under a start's load the
// bytes reached it 0.15 to 0.4 s after the network had them) and inflated in one
// write, a third faster than through a Blob's stream, and faster than chunk by
// chunk as it arrives once the CPU is slow (0.07 to 0.3 s with it slowed 4
// times, scripts/bench/bench_browser.py). From the network (arriving) it is counted as
// it comes, for the progress shown; from the browser's cache it is read whole.
//
// Checked before Python starts from it (snapshotBytes rejects, and Python boots
// the ordinary way): its bytes as they came, against runtime.json's
// snapshot_sha256 (the .gz file, 6 MB) or, if the browser inflated them (a host's
// Content-Encoding: gzip, which the browser undoes without checking gzip's own
// CRC), snapshot_inflated_sha256 (14 MiB). Hashed as they are inflated: the
// digest runs off this worker's thread where crypto.subtle is (sha256.mjs's own,
// on it, where it is not).
export async function snapshotBytes(/** @type {LoaderState} */ state, /** @type {Response} */ response, /** @type {Runtime} */ rt, /** @type {boolean} */ arriving) {
  const tally = counter(state, rt.snapshot);
  try {
    let body;
    if (arriving) {
      const pieces = [];
      const reader = /** @type {ReadableStream<Uint8Array>} an ok response's */ (response.body).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (tally) tally.add(value.length);
        pieces.push(value);
      }
      body = joined(pieces);
    } else {
      body = new Uint8Array(await response.arrayBuffer());
    }
    const memory = sparseSnapshot();
    const gzipped = body[0] === 0x1f && body[1] === 0x8b; // else inflated by the browser already
    const checked = checkSnapshot(body, gzipped ? rt.snapshot_sha256 : rt.snapshot_inflated_sha256);
    checked.catch(() => {}); // awaited below
    if (!gzipped) {
      memory.add(body);
      await checked;
      return memory.end();
    }
    const inflater = new DecompressionStream("gzip");
    const writer = inflater.writable.getWriter();
    writer.write(/** @type {Uint8Array<ArrayBuffer>} */ (body)).catch(() => {}); // an error reaches the reader
    writer.close().catch(() => {});
    const reader = inflater.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      memory.add(value);
    }
    await checked;
    return memory.end();
  } finally {
    if (tally) tally.done();
  }
}

/** Rejects unless `bytes` hash to `want` (runtime.json's; one that gives none: unchecked, so not used). */
async function checkSnapshot(/** @type {Uint8Array} */ bytes, /** @type {string | undefined} */ want) {
  if (!want) throw new Error("the snapshot cannot be checked: runtime.json gives no SHA-256 for it as it came");
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
  if ((await sha256Hex(/** @type {ArrayBuffer} */ (whole))) !== want) throw new Error("the snapshot is damaged: its SHA-256 is not the one the build wrote in runtime.json");
}

// The sparse snapshot's layout (little-endian u32s, written by build_wheel.py's
// sparse_snapshot): "FMz1", the length of Pyodide's snapshot, the number N of
// stretches kept, N pairs (offset, length), then the stretches' bytes one after
// the other; everything between them is zero.
const SPARSE_MAGIC = 0x317a4d46; // "FMz1" read as a little-endian u32

/**
 * Pyodide's memory snapshot from the sparse one's bytes, given piece by piece
 * as they are inflated: each stretch is written straight to its place in one
 * zeroed buffer (no copy of the pieces, no zeros inflated). end() gives the
 * snapshot; add() and end() throw on bytes that are not a sparse snapshot, or
 * one cut short (Python then boots the ordinary way).
 */
export function sparseSnapshot() {
  /** @type {Uint8Array[]} */
  let head = []; // the pieces before the stretches' table is whole
  let headBytes = 0;
  /** @type {Uint8Array | null} */
  let out = null;
  /** @type {Uint32Array | null} */
  let table = null; // offset, length, offset, length ...
  let stretch = 0; // the stretch being written
  let within = 0; // bytes of it written
  const bad = (/** @type {string} */ why) => new Error(`the snapshot is damaged: ${why}`);

  function begin() {
    const bytes = joined(head);
    head = [];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) !== SPARSE_MAGIC) throw bad("it is not a sparse snapshot");
    const total = view.getUint32(4, true);
    const count = view.getUint32(8, true);
    const start = 12 + 8 * count;
    if (bytes.length < start) {
      head = [bytes]; // the table is not all in yet
      return;
    }
    table = new Uint32Array(2 * count);
    let end = 0;
    for (let i = 0; i < 2 * count; i += 2) {
      table[i] = view.getUint32(12 + 4 * i, true);
      table[i + 1] = view.getUint32(16 + 4 * i, true);
      if (table[i] < end || table[i] + table[i + 1] > total) throw bad(`stretch ${i / 2 + 1} of ${count} lies outside its place`);
      end = table[i] + table[i + 1];
    }
    out = new Uint8Array(total);
    write(bytes.subarray(start));
  }

  // Called once begin() has made the table and the buffer.
  function write(/** @type {Uint8Array} */ piece) {
    let at = 0;
    while (at < piece.length) {
      if (2 * stretch >= /** @type {Uint32Array} */ (table).length) throw bad("it is longer than its stretches");
      const length = /** @type {Uint32Array} */ (table)[2 * stretch + 1];
      const take = Math.min(length - within, piece.length - at);
      /** @type {Uint8Array} */ (out).set(piece.subarray(at, at + take), /** @type {Uint32Array} */ (table)[2 * stretch] + within);
      at += take;
      within += take;
      if (within === length) {
        stretch += 1;
        within = 0;
      }
    }
  }

  const memory = {
    add(/** @type {Uint8Array} */ piece) {
      if (out) {
        write(piece);
      } else {
        head.push(piece);
        headBytes += piece.length;
        if (headBytes >= 12) begin();
      }
      return memory;
    },
    end() {
      if (!out || 2 * stretch < /** @type {Uint32Array} made with out */ (table).length) throw bad("it is cut short");
      return out;
    },
  };
  return memory;
}

export function joined(/** @type {Uint8Array[]} */ pieces) {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
