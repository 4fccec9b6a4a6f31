"""mkdocs hooks for the installable, offline site: the web app manifest and its icons.

* Every page's head (not the 404 page's) links ``manifest.webmanifest``
  (relative, so the site works from any folder of any host) and gives the
  browser the site's theme colour: the theme's ``extrahead`` block
  (overrides/main.html), given ``THEME`` here (``on_env``) as ``theme_colour``.
* The build writes the manifest and its PNG icons (drawn here: a brown field
  with a white gun-sight, Material's "brown" primary colour that the site's
  palette uses), so no image is committed.

The service worker itself is built after the PDFs, by scripts/build/build_sw.mjs
(Workbox), and registered by docs/assets/offline.mjs.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

# Material for MkDocs' "brown" primary colour (mkdocs.yml: palette primary: brown).
THEME = "#795548"
BACKGROUND = "#ffffff"
ICON_SIZES = (192, 512)


def on_env(env: Environment, config: MkDocsConfig, files: Files) -> Environment:
    """The theme colour, for the head's <meta name="theme-color"> (overrides/main.html)."""
    env.globals["theme_colour"] = THEME
    return env


def manifest(config: MkDocsConfig) -> dict[str, object]:
    return {
        "name": config["site_name"],
        "short_name": config["site_name"],
        "description": config.get("site_description") or config["site_name"],
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": f"assets/icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any maskable"}
            for size in ICON_SIZES
        ],
    }


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def icon_png(size: int) -> bytes:
    """A gun-sight, white on the theme colour, drawn with 2x2 samples a pixel.

    Everything lies within the middle 80% (a maskable icon's safe zone)."""
    field, ink = _rgb(THEME), (255, 255, 255)
    c = size / 2
    ring, width = 0.30 * size, 0.045 * size
    arm, gap, bar = 0.40 * size, 0.11 * size, 0.022 * size
    dot = 0.035 * size
    rows = bytearray()
    for y in range(size):
        rows.append(0)  # PNG filter: none
        for x in range(size):
            hits = 0
            for sy in (0.25, 0.75):
                for sx in (0.25, 0.75):
                    dx, dy = x + sx - c, y + sy - c
                    r = (dx * dx + dy * dy) ** 0.5
                    on = abs(r - ring) <= width / 2 or r <= dot
                    on = on or (abs(dx) <= bar and gap <= abs(dy) <= arm) or (abs(dy) <= bar and gap <= abs(dx) <= arm)
                    hits += on
            t = hits / 4
            rows += bytes(round(f + (i - f) * t) for f, i in zip(field, ink))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")


def on_post_build(config: MkDocsConfig) -> None:
    site = Path(config["site_dir"])
    (site / "manifest.webmanifest").write_text(json.dumps(manifest(config), indent=1) + "\n", encoding="utf-8")
    icons = site / "assets" / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    for size in ICON_SIZES:
        (icons / f"icon-{size}.png").write_bytes(icon_png(size))
