"""mkdocs hook: the glossary's term links (``scripts/hooks/term_links.py``).

It adds the Markdown extension and tells it which page is being converted
(mkdocs converts pages one at a time): in a page under a rule system's folder
the extension links that system's glossary terms.
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
