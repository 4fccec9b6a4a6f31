"""A static HTTP server for the built site on a free loopback port, and the
flags that start Debian's Chromium cleanly on this closed network.

Used by the PDF build, the benchmarks and the browser tests, so that all of
them serve the site the same way (``.wasm`` as application/wasm, which
Pyodide needs, and ``.mjs`` as JavaScript).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying hosts this machine cannot reach.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
        ".pdf": "application/pdf",
    }

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def serve(directory: Path, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``directory`` on a free port; yields the base URL, stops on exit."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer((host, 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
