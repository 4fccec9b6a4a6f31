// Run by tests/test_wheel.py (test_the_page_s_decoder_inflates_every_xz_file_to_pyodide_s_own):
//   node tests/node/page_decoder_inflates.mjs <the site's xz-decompress.mjs> <file.xz> ...
// Inflates each file with the page's decoder; prints each one's SHA-256, as JSON.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [decoder, ...files] = process.argv.slice(2);
const { XzReadableStream } = await import(pathToFileURL(decoder).href);
const out = {};
for (const file of files) {
  const inflated = await new Response(new XzReadableStream(new Blob([readFileSync(file)]).stream())).arrayBuffer();
  out[file] = createHash("sha256").update(new Uint8Array(inflated)).digest("hex");
}
process.stdout.write(JSON.stringify(out));
