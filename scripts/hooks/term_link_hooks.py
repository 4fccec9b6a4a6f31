"""mkdocs hook: the glossary's term links (``scripts/hooks/term_links.py``).

It adds the Markdown extension and tells it which page is being converted
(mkdocs converts pages one at a time): in a page under a rule system's folder
the extension links that system's glossary terms.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

# The package's module, as scripts/build/build_pages.py imports it (mkdocs runs from the project's root).
from scripts.hooks.term_links import TermLinksExtension

_TERM_LINKS = TermLinksExtension()


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config.markdown_extensions.append(_TERM_LINKS)
    return config


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    _TERM_LINKS.page = page.file.src_uri
    return markdown
