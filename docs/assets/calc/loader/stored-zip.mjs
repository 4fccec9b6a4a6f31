// The wheel is a zip whose entries are stored, not deflated (scripts/build/build_wheel.py:
// the .xz around it compresses them): its files are the zip's own bytes, written to
// Pyodide's file system from here. Pyodide's unpackArchive would run Python's
// zipfile, cold after a start from the snapshot: 0.1 to 0.25 s of this worker's
// time on the way to the first answer, against 0.01 to 0.03 s here
// (scripts/bench/bench_browser.py has the start's phases).
/**
 * Every file of a zip whose entries are all stored, as [name, bytes] (views
 * into ``zip``), folders left out; null if an entry is compressed (Pyodide's
 * unpackArchive takes it then). Throws on a zip that is not one, or names a
 * file outside its own folder.
 * @param {Uint8Array} zip
 * @returns {Array<[string, Uint8Array]> | null}
 */
export function storedFiles(zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22; // the end of central directory record, found from the end (a comment may follow it)
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("no zip directory at its end");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder("utf-8", { fatal: true });
  /** @type {Array<[string, Uint8Array]>} */
  const out = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== 0x02014b50) throw new Error(`entry ${i + 1} of the zip's directory is damaged`);
    const method = view.getUint16(at + 10, true);
    const packedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.startsWith("/") || name.split("/").some((part) => part === "..")) throw new Error(`it names a file outside its folder: ${name}`);
    if (name.endsWith("/")) continue;
    if (method !== 0 || packedSize !== size) return null;
    if (local + 30 > zip.length || view.getUint32(local, true) !== 0x04034b50) throw new Error(`${name}: its entry is damaged`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > zip.length) throw new Error(`${name} is cut short`);
    out.push([name, zip.subarray(start, start + size)]);
  }
  return out;
}
