// The loader's reader of the wheel's zip (storedFiles in docs/assets/calc/loader/stored-zip.mjs):
// the files of a zip of stored entries, byte for byte; null for a compressed
// entry (Pyodide's unpackArchive takes that wheel); a refusal for a damaged zip
// or a name outside its folder. The zips are made here, by zipOf below, as
// Python's zipfile writes a stored entry (local header, data, directory, end).
import { test } from "node:test";
import assert from "node:assert/strict";

import { storedFiles } from "../docs/assets/calc/loader/stored-zip.mjs";

/** A zip of [name, text, method] entries (method 0 stored; 8 claims deflate, the data as given). */
function zipOf(entries, { comment = "" } = {}) {
  const encoder = new TextEncoder();
  const locals = [];
  const directory = [];
  let offset = 0;
  for (const [name, text, method = 0] of entries) {
    const nameBytes = encoder.encode(name);
    const data = encoder.encode(text);
    const packedSize = method === 0 ? data.length : data.length - 1; // a deflated entry's sizes differ
    const local = new Uint8Array(30 + nameBytes.length + data.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(8, method, true);
    lv.setUint32(18, packedSize, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    local.set(data, 30 + nameBytes.length);
    const central = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(10, method, true);
    cv.setUint32(20, packedSize, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local);
    directory.push(central);
    offset += local.length;
  }
  const commentBytes = encoder.encode(comment);
  const size = directory.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22 + commentBytes.length);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, size, true);
  ev.setUint32(16, offset, true);
  ev.setUint16(20, commentBytes.length, true);
  end.set(commentBytes, 22);
  const parts = [...locals, ...directory, end];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const text = (bytes) => new TextDecoder().decode(bytes);

test("every stored file, byte for byte, folders left out, after a comment too", () => {
  for (const comment of ["", "a comment after the directory"]) {
    const zip = zipOf([["rules_py/", ""], ["rules_py/__init__.py", "import json\n"], ["rules_py/data/t.toml", "[x]\ny = 1\n"], ["rules_py-0.1.0.dist-info/RECORD", ""]], { comment });
    const files = storedFiles(zip);
    assert.deepEqual(files.map(([name, bytes]) => [name, text(bytes)]), [
      ["rules_py/__init__.py", "import json\n"],
      ["rules_py/data/t.toml", "[x]\ny = 1\n"],
      ["rules_py-0.1.0.dist-info/RECORD", ""],
    ]);
  }
});

test("a compressed entry: null, for Pyodide's own unpacking", () => {
  assert.equal(storedFiles(zipOf([["a.py", "x = 1\n"], ["b.py", "y = 2\n", 8]])), null);
});

test("a name outside its folder, or a damaged zip, is refused", () => {
  assert.throws(() => storedFiles(zipOf([["../evil.py", "x"]])), /outside its folder/);
  assert.throws(() => storedFiles(zipOf([["/etc/x", "x"]])), /outside its folder/);
  const zip = zipOf([["a.py", "x = 1\n"]]);
  assert.throws(() => storedFiles(zip.subarray(0, 10)), /no zip directory/);
  const bad = zip.slice();
  bad[0] = 0; // the local header's signature
  assert.throws(() => storedFiles(bad), /its entry is damaged/);
});
