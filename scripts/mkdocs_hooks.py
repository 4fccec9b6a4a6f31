"""mkdocs hooks: the one place the site build reaches into Markdown conversion.

It switches on the glossary term links of ``scripts/term_links.py`` and tells
them which page is being converted (pages are converted one at a time).
"""

from __future__ import annotations

# mkdocs puts this file's folder on sys.path while it loads a hook.
from term_links import TermLinksExtension

_TERM_LINKS = TermLinksExtension()


def on_config(config):
    config.markdown_extensions.append(_TERM_LINKS)
    return config


def on_page_markdown(markdown, page, config, files):
    _TERM_LINKS.page = page.file.src_uri
    return markdown
