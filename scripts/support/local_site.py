"""A static server for the built site and a headless Chromium, for browser tests and benchmarks.

* :class:`StaticServer` serves a folder (``site/``) on 127.0.0.1 at a free port
  from a background thread, with the MIME types the calculators need
  (``.wasm`` as ``application/wasm``, ``.mjs`` as JavaScript). It records every
  path asked for, can serve extra in-memory files (the benchmark's bare-boot
  page), can be told to serve some suffix with a wrong type, and to stall on
  some paths (never answering them, to test the boot timeout), or hold some
  until the test releases them (to order a race). It serves
  ``sitemap.xml`` as if the site had been built with ``site_url`` set to its
  own address: mkdocs-material's instant navigation only follows links that
  its sitemap lists, and it rebases the sitemap's URLs onto the page's scheme
  and host but not its port or path, so a site built for another address
  would quietly fall back to full page loads, and one built with none (no
  SITE_URL: an empty sitemap) would never navigate instantly.
* :class:`HostServer` is a StaticServer that behaves like a static host on a
  phone's network, for the benchmark: gzip for compressible files (``.gz``
  files go as they are), Last-Modified and 304s, keep-alive, and every byte it
  sends (headers included, the service worker's and the Web Worker's downloads
  too) paced through one shared :class:`Link` with a bandwidth and a round-trip
  time. It counts bytes and requests, and can cut the network (``cut = True``:
  every request gets its connection closed without an answer).
* :func:`launch` starts Debian's Chromium through Playwright's sync API.
* :class:`RequestLog` is a route guard for a browser context: it records every
  request and aborts any that would leave 127.0.0.1.

Used by ``tests/conftest.py`` (fixtures), the benchmarks (``scripts/bench/``)
and the build's printing and prerendering (``scripts/build/build_sheets_pdf.py``,
``render_calculators.py``); ``make serve`` runs it (``python -m
scripts.support.local_site --host H --port P site``).
"""

from __future__ import annotations

import functools
import gzip
import io
import re
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from email.utils import formatdate, parsedate_to_datetime
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, ClassVar, Self
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, StrPath
    from playwright.sync_api import Browser, BrowserContext, Playwright, Route

CHROMIUM = "/usr/bin/chromium"
# What Playwright's driver disables in Chromium (see CHROMIUM_ARGS).
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
    "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
    "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
]
# The window's omnibox popups, WebUI pages each with a renderer of its own.
NO_OMNIBOX_POPUP = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Chromium estimates the connection's speed from traffic it has seen, and
    # the calculators skip their snapshot on a slow one: pin it, so a test or a
    # benchmark run does not depend on the machine's network.
    "--force-effective-connection-type=4G",
    # Each new context (every test's tab) opens a window, and Chromium 156 starts
    # a renderer for the window's omnibox popup, a WebUI page, with it: about
    # 1 s of CPU a context that no page of ours uses (measured: five fresh
    # contexts loading a rules page, 11.9 s of Chromium's CPU with it, 6.8 s
    # without). Chromium keeps only the last --disable-features it is given,
    # so this one repeats Playwright's own list (its chromiumSwitches, in the
    # pinned driver) before ours; tests/test_browser_harness.py checks both.
    "--disable-features=" + ",".join([*PLAYWRIGHT_DISABLED_FEATURES, *NO_OMNIBOX_POPUP]),
]

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".xml": "application/xml",
    ".gz": "application/gzip",
    ".xz": "application/x-xz",
    ".txt": "text/plain; charset=utf-8",
    "": "application/octet-stream",
}

# Paths of Pyodide's files and the rules wheel: a page that asks for one has started the engine.
PYODIDE_PATHS = (
    "/assets/generated/pyodide/", "/assets/generated/pyodide-snapshot", "/assets/generated/rules_py-", "/assets/generated/runtime.json",
    "/assets/generated/xz-decompress.mjs", "/assets/calc/worker.mjs",
)


def sitemap(root: Path, base: str) -> str:
    """The site's sitemap with ``base`` for its address.

    A site built with an address (SITE_URL) has its pages in sitemap.xml: their
    address is swapped for ``base``. One built without has an empty sitemap:
    every built page is listed, under ``base``.
    """
    text = (root / "sitemap.xml").read_text(encoding="utf-8")
    if "<loc>" in text:
        return _rebase(text, base)
    urls = []
    for page in sorted(root.rglob("index.html")):
        folder = page.parent.relative_to(root).as_posix()
        urls.append(f"<url><loc>{base}{'' if folder == '.' else folder + '/'}</loc></url>")
    return '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + "\n".join(urls) + "\n</urlset>\n"


def _rebase(text: str, base: str) -> str:
    """Swap the address a sitemap was built for (its shortest <loc>: the home page's) for ``base``."""
    built = min(re.findall(r"<loc>([^<]*)</loc>", text), key=len)
    return text.replace(f"<loc>{built}", f"<loc>{base}")


class _Handler(SimpleHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # quiet: the tests print what matters
        pass

    def guess_type(self, path: StrPath) -> str:
        suffix = Path(urlsplit(str(path)).path).suffix.lower()
        wrong = self.server.wrong_types.get(suffix)
        return wrong or MIME_TYPES.get(suffix, "application/octet-stream")

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        path = unquote(urlsplit(self.path).path)
        with self.server.lock:
            self.server.requested.append(path)
        with self.server.lock:
            again = path in self.server.once and path in self.server.answered
            self.server.answered.add(path)
        if path in self.server.stall or again:
            self.server.stopping.wait()
            return None
        if path in self.server.held:
            self.server.held[path].wait()
        if path in self.server.missing:
            self.send_error(404, "File not found")
            return None
        extra: tuple[str, bytes] | None
        if path == "/sitemap.xml":
            host = self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"
            extra = ("application/xml", sitemap(Path(self.directory), f"http://{host}/").encode())
        else:
            extra = self.server.extra.get(path)
        encoding = None
        if extra is None and path in self.server.gzip_encoded:
            # As a host does that labels .gz files with their encoding: the browser inflates them.
            extra = ("application/octet-stream", (Path(self.directory) / path.lstrip("/")).read_bytes())
            encoding = "gzip"
        if extra is not None:
            content_type, body = extra
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            if encoding:
                self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()

    def end_headers(self) -> None:
        # Revalidate every time, as a plain static host does: a rebuilt site is never stale.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


class _Server(ThreadingHTTPServer):
    """Serves ``root`` with its ``handler``, and holds what the handlers share (see StaticServer)."""

    daemon_threads = True
    allow_reuse_address = True
    handler: ClassVar[type[_Handler]] = _Handler

    def __init__(
        self,
        address: tuple[str, int],
        root: Path,
        *,
        extra: Mapping[str, tuple[str, bytes]] | None = None,
        wrong_types: Mapping[str, str] | None = None,
        stall: Iterable[str] = (),
        gzip_encoded: Iterable[str] = (),
        missing: Iterable[str] = (),
        held: Iterable[str] = (),
        once: Iterable[str] = (),
    ) -> None:
        self.extra = dict(extra or {})
        self.held = {path: threading.Event() for path in held}
        self.missing = set(missing)
        self.gzip_encoded = set(gzip_encoded)
        self.wrong_types = dict(wrong_types or {})
        self.stall = set(stall)
        self.once = set(once)
        self.answered: set[str] = set()
        self.stopping = threading.Event()
        self.requested: list[str] = []
        self.lock = threading.Lock()
        super().__init__(address, functools.partial(self.handler, directory=str(root)))

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket], client_address: tuple[str, int]) -> None:
        # A browser that closes a connection mid-download (a worker terminated,
        # a page left) is not a server error worth a traceback.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


class StaticServer:
    """``with StaticServer(site) as server: server.url("calculators/")``.

    For tests of a host that misbehaves: ``extra`` serves {path: (type, body)}
    beside the site, ``wrong_types`` {suffix: type} mislabels files, ``stall``
    paths never answer, ``missing`` paths answer 404 and ``gzip_encoded``
    paths are sent with Content-Encoding: gzip. ``held`` paths wait until
    :meth:`release` lets them through (the requests before it included).
    ``once`` paths are answered the first time only; every later request for
    one stalls, as if the network were cut the moment it had downloaded.
    """

    _server: _Server

    def __init__(
        self,
        root: Path,
        extra: dict[str, tuple[str, bytes]] | None = None,
        wrong_types: dict[str, str] | None = None,
        stall: tuple[str, ...] = (),
        gzip_encoded: tuple[str, ...] = (),
        missing: tuple[str, ...] = (),
        held: tuple[str, ...] = (),
        once: tuple[str, ...] = (),
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        server = _Server(
            (host, port), root,
            extra=extra, wrong_types=wrong_types, stall=stall,
            gzip_encoded=gzip_encoded, missing=missing, held=held, once=once,
        )
        self._serve(server, host, "static-server")

    def _serve(self, server: _Server, host: str, name: str) -> None:
        """Take ``server`` (bound, not yet serving) as this one's, to run in a thread called ``name``."""
        self._server = server
        self.port = server.server_address[1]
        self.base = f"http://{host}:{self.port}/"
        self._thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)

    def url(self, path: str = "") -> str:
        return self.base + path.lstrip("/")

    @property
    def requested(self) -> list[str]:
        with self._server.lock:
            return list(self._server.requested)

    def release(self, path: str) -> None:
        """Let the held ``path`` through, now and from now on."""
        self._server.held[path].set()

    def forget(self) -> None:
        with self._server.lock:
            self._server.requested.clear()

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.stopping.set()
        for event in self._server.held.values():
            event.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Link:
    """One link shared by every response: ``mbit`` megabits a second (None: as fast as
    the machine goes) and ``rtt_ms``, waited once per request before its answer."""

    CHUNK = 16 * 1024

    def __init__(self, mbit: float | None = None, rtt_ms: float = 0.0) -> None:
        self.bytes_per_s = mbit * 1e6 / 8 if mbit else None
        self.rtt_s = rtt_ms / 1000
        self.free_at = 0.0
        self.lock = threading.Lock()

    def send(self, write: Callable[[ReadableBuffer], object], data: bytes) -> None:
        if not self.bytes_per_s:
            write(data)
            return
        view = memoryview(data)
        for start in range(0, len(view), self.CHUNK):
            chunk = view[start:start + self.CHUNK]
            with self.lock:
                begin = max(time.monotonic(), self.free_at)
                self.free_at = begin + len(chunk) / self.bytes_per_s
                done = self.free_at
            delay = done - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            write(chunk)


class _PacedWriter(io.BufferedIOBase):
    """A handler's output stream that sends through the server's link and counts what went:
    a writable binary stream, as the socket writer it wraps is."""

    def __init__(self, raw: io.BufferedIOBase, server: _HostServer) -> None:
        super().__init__()
        self._raw = raw
        self.server = server

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer, /) -> int:
        sent = bytes(data)
        self.server.link.send(self._raw.write, sent)
        with self.server.lock:
            self.server.sent += len(sent)
        return len(sent)

    @property
    def closed(self) -> bool:
        return self._raw.closed

    def flush(self) -> None:
        self._raw.flush()

    def close(self) -> None:
        self._raw.close()


# What a static host compresses on the fly (nginx's gzip_types and the like, plus WebAssembly).
COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".xml", ".txt", ".map", ".webmanifest", ".ico"}


class _HostHandler(_Handler):
    server: _HostServer
    protocol_version = "HTTP/1.1"  # keep-alive, as hosts do

    def setup(self) -> None:
        super().setup()
        self.wfile = _PacedWriter(self.wfile, self.server)

    def translate_path(self, path: str) -> str:
        local = unquote(urlsplit(path).path)
        for prefix, folder in self.server.mounts.items():
            if local.startswith(prefix):
                return str(Path(folder) / local[len(prefix):])
        return super().translate_path(path)

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        if self.server.cut:
            self.close_connection = True
            return None
        with self.server.lock:
            self.server.requests += 1
        if self.server.link.rtt_s:
            time.sleep(self.server.link.rtt_s)
        path = unquote(urlsplit(self.path).path)
        file = Path(self.translate_path(self.path))
        if file.is_dir():
            if not path.endswith("/"):
                return super().send_head()  # the redirect to the folder's address
            file = file / "index.html"
        suffix = file.suffix.lower()
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if path != "/sitemap.xml" and path not in self.server.extra and suffix in COMPRESSIBLE and file.is_file() and accepts_gzip:
            return self._send_gzipped(path, file)
        return super().send_head()

    def _send_gzipped(self, path: str, file: Path) -> io.BytesIO | None:
        with self.server.lock:
            self.server.requested.append(path)
        mtime = int(file.stat().st_mtime)
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                if parsedate_to_datetime(since).timestamp() >= mtime:
                    self.send_response(304)
                    self.send_header("Last-Modified", formatdate(mtime, usegmt=True))
                    self.end_headers()
                    return None
            except (TypeError, ValueError):
                pass
        key = (str(file), mtime)
        body = self.server.gzipped.get(key)
        if body is None:
            body = gzip.compress(file.read_bytes(), 6, mtime=0)
            self.server.gzipped[key] = body
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(file)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", formatdate(mtime, usegmt=True))
        self.end_headers()
        return io.BytesIO(body)


class _HostServer(_Server):
    handler = _HostHandler

    def __init__(self, address: tuple[str, int], root: Path, *, link: Link, mounts: Mapping[str, Path],
                 extra: Mapping[str, tuple[str, bytes]] | None = None) -> None:
        self.link = link
        self.mounts = dict(mounts)
        self.cut = False
        self.sent = 0
        self.requests = 0
        # Each compressed file by (its path, its mtime), as sent.
        self.gzipped: dict[tuple[str, int], bytes] = {}
        super().__init__(address, root, extra=extra)


class HostServer(StaticServer):
    """A static host on a paced link: ``HostServer(site, link=Link(9, 60))``.

    ``mounts`` serves {url prefix: folder} beside the site (the benchmark's bare
    Pyodide). ``sent`` and ``requests`` count what went out; ``cut`` drops
    every request, as a network cut would.
    """

    _server: _HostServer

    def __init__(self, root: Path, link: Link | None = None, mounts: dict[str, Path] | None = None,
                 extra: dict[str, tuple[str, bytes]] | None = None) -> None:
        server = _HostServer(("127.0.0.1", 0), root, link=link or Link(), mounts=mounts or {}, extra=extra)
        self._serve(server, "127.0.0.1", "host-server")

    @property
    def link(self) -> Link:
        return self._server.link

    @link.setter
    def link(self, link: Link) -> None:
        self._server.link = link

    @property
    def cut(self) -> bool:
        return self._server.cut

    @cut.setter
    def cut(self, value: bool) -> None:
        self._server.cut = value

    def counters(self) -> tuple[int, int]:
        """(bytes sent, requests answered) so far."""
        with self._server.lock:
            return self._server.sent, self._server.requests

    def files_changed(self) -> None:
        """The site's files were replaced under the same paths: compress them afresh, as a
        host does (a rebuilt file may keep its old mtime, which the cache is keyed on)."""
        self._server.gzipped.clear()


def launch(playwright: Playwright) -> Browser:
    """Debian's headless Chromium (Playwright cannot download its own here)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


class RequestLog:
    """Route guard for a browser context: records every request, aborts any not on 127.0.0.1."""

    def __init__(self, context: BrowserContext, guard: bool = True) -> None:
        self.urls: list[str] = []
        self.blocked: list[str] = []
        # Routing turns Chromium's HTTP cache off; guard=False records requests
        # without it, for a test of what a second visit gets from that cache.
        if guard:
            context.route("**/*", self._route)
        # Workers' requests are seen here too (Chromium reports them per context).
        context.on("request", lambda request: self._seen(request.url))

    def _seen(self, url: str) -> None:
        if url not in self.urls:
            self.urls.append(url)

    def _route(self, route: Route) -> None:
        url = route.request.url
        self._seen(url)
        host = urlsplit(url).hostname
        if urlsplit(url).scheme in ("http", "https", "ws", "wss") and host != "127.0.0.1":
            self.blocked.append(url)
            route.abort()
        else:
            route.continue_()

    def outside(self) -> list[str]:
        """Every request that did not go to 127.0.0.1 (data: and blob: URLs stay in the page)."""
        out: list[str] = []
        for url in self.urls + self.blocked:
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob", "about"):
                continue
            if parts.hostname != "127.0.0.1" and url not in out:
                out.append(url)
        return out

    def pyodide(self) -> list[str]:
        """Requests for the engine: Pyodide's files, the wheel, the worker."""
        return [u for u in self.urls if any(p in urlsplit(u).path for p in PYODIDE_PATHS)]

    def clear(self) -> None:
        self.urls.clear()
        self.blocked.clear()


def main() -> None:
    """``make serve``: serve the built site until Ctrl-C, with its sitemap listing its pages here."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("folder", nargs="?", default="site")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server = StaticServer(Path(args.folder), host=args.host, port=args.port)
    print(f"Serving {args.folder}/ at {server.base} (Ctrl-C stops)", flush=True)
    try:
        server._server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._server.server_close()


if __name__ == "__main__":
    main()
