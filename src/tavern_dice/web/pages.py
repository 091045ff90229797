"""The web table's HTML pages: one shell, with the shared ``<head>``, filled in per page.

Every page is an empty shell that its JavaScript module (``static/js/{name}-page.js``)
fills in, so the pages differ only in their title, any stylesheet besides
``tavern.css``, and what they say while loading or without JavaScript. Each is built
once, at import; the app serves them at ``/``, ``/t/{table_id}``, ``/host/{table_id}``
and ``/review/{table_id}`` (``docs/web-protocol.md``, "Pages").
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from fastapi.responses import HTMLResponse


@dataclass(frozen=True, slots=True)
class Page:
    """What one page says; its name picks its script and its ``<body>`` class."""

    title: str
    description: str
    """The page's meta description (what a link preview or a search result shows)."""
    loading: str
    """Shown until the script has drawn the page."""
    noscript: str
    """Shown where JavaScript is off."""
    styles: tuple[str, ...] = ()
    """Stylesheets under ``static/css/`` besides ``tavern.css``, by name."""


PAGES: dict[str, Page] = {
    "index": Page("Tavern Dice — host a table",
                  "Host Liar's Dice or Dice Blackjack for your tabletop RPG table: players "
                  "join from their phones, and everyone can verify the dice.", "Loading…",
                  "Creating a table needs JavaScript."),
    "table": Page("Tavern Dice table",
                  "A Tavern Dice table: sit down with a name and play Liar's Dice or Dice "
                  "Blackjack from your phone, or watch.", "Loading the table…",
                  "The table needs JavaScript."),
    "host": Page("DM console — Tavern Dice",
                 "The DM console of a Tavern Dice table: seat players and bots, and start, "
                 "pause and end the games.", "Loading the table…",
                 "The table needs JavaScript."),
    "review": Page("Game review — Tavern Dice",
                   "A finished Tavern Dice game, decision by decision: what each seat knew, "
                   "the odds, and the best play.", "Loading the review…",
                   "The review needs JavaScript.", styles=("review",)),
}


def render(name: str) -> str:
    """The HTML of page ``name`` (a key of :data:`PAGES`).

    >>> print(render("review"))  # doctest: +ELLIPSIS
    <!doctype html>
    ...
    <link rel="stylesheet" href="/static/css/tavern.css">
    <link rel="stylesheet" href="/static/css/review.css">
    <script type="module" src="/static/js/review-page.js"></script>
    </head>
    <body class="page-review">
    ...
    """
    page = PAGES[name]
    styles = "".join(f'<link rel="stylesheet" href="/static/css/{escape(style)}.css">\n'
                     for style in ("tavern", *page.styles))
    return (
        "<!doctype html>\n"
        '<html lang="en">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="dark">\n'
        f"<title>{escape(page.title)}</title>\n"
        f'<meta name="description" content="{escape(page.description)}">\n'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        f"{styles}"
        f'<script type="module" src="/static/js/{escape(name)}-page.js"></script>\n'
        "</head>\n"
        f'<body class="page-{escape(name)}">\n'
        f'<div id="app" class="app"><p class="boot">{escape(page.loading)}</p></div>\n'
        f'<noscript><p class="boot">{escape(page.noscript)}</p></noscript>\n'
        "</body>\n"
        "</html>\n"
    )


_HTML = {name: render(name) for name in PAGES}


def page_response(name: str) -> HTMLResponse:
    """Page ``name`` as a response."""
    return HTMLResponse(_HTML[name])
