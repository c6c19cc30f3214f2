"""Reading responses as a learner reads them: elements and their text, not exact markup."""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Elements that never have an end tag.
VOID_ELEMENTS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    depth: int  # 0 for an element at the top level of a fragment
    parts: list[str] = field(default_factory=list)
    children: list["Element"] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The element's text with entities decoded and whitespace collapsed."""
        return " ".join("".join(self.parts).split())

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()


class _Outline(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), len(self.open))
        self.elements.append(element)
        if self.open:
            self.open[-1].children.append(element)
        if tag not in VOID_ELEMENTS:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS:
            self.open.pop()

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                return

    def handle_data(self, data):
        for element in self.open:
            element.parts.append(data)


def descendants(element: Element) -> list[Element]:
    """Every element inside this one, in document order."""
    found = []
    for child in element.children:
        found += [child, *descendants(child)]
    return found


def elements(html: str | bytes) -> list[Element]:
    parser = _Outline()
    parser.feed(html.decode() if isinstance(html, bytes) else html)
    parser.close()
    return parser.elements


def element_by_id(html: str | bytes, element_id: str) -> Element:
    found = [element for element in elements(html) if element.attrs.get("id") == element_id]
    assert len(found) == 1, f"expected one element with id={element_id!r}, found {len(found)}"
    return found[0]


def header_review(response) -> str:
    """The header's review link as it reads: "Review today (3)"."""
    return element_by_id(response.content, "header-review").text


def with_class(html: str | bytes, css_class: str) -> list[Element]:
    return [element for element in elements(html) if css_class in element.classes]


def with_tag(html: str | bytes, tag: str) -> list[Element]:
    return [element for element in elements(html) if element.tag == tag]


def links(html: str | bytes) -> list[str]:
    return [element.attrs.get("href") or "" for element in with_tag(html, "a")]


def table_rows(html: str | bytes, css_class: str | None = None) -> list[list[str]]:
    """The text of each body row's cells in the one table (with this class, if given)."""
    (table,) = [
        element
        for element in with_tag(html, "table")
        if css_class is None or css_class in element.classes
    ]
    (body,) = [child for child in table.children if child.tag == "tbody"]
    return [
        [cell.text for cell in row.children if cell.tag in ("th", "td")]
        for row in body.children
        if row.tag == "tr"
    ]


def page_text(html: str | bytes) -> str:
    return " ".join(element.text for element in elements(html) if element.depth == 0)


def heading(html: str | bytes) -> str:
    (h1,) = with_tag(html, "h1")
    return h1.text


# The CSRF token is the one value a page may carry that changes with every request.
CSRF_VALUES = re.compile(r'(name="csrfmiddlewaretoken" value="|"x-csrftoken": ")[^"]*(")')


def without_csrf(html: str | bytes) -> str:
    """The page with every CSRF token value blanked out."""
    text = html.decode() if isinstance(html, bytes) else html
    return CSRF_VALUES.sub(r"\1\2", text)


# The dashboard, read as a learner reads it.


def domain_rows(response, names: dict[str, str]) -> dict[str, list[str]]:
    """The dashboard table's cells per domain slug, in page order; ``names`` maps slug to name."""
    by_name = {name: slug for slug, name in names.items()}
    rows = {}
    for cells in table_rows(response.content, "domain-table"):
        (slug,) = [by_name[name] for name in by_name if cells[0].startswith(name)]
        rows[slug] = cells
    return rows


def focus_card(response) -> Element:
    """The card that says where to start, which domain lags, or that none does."""
    (card,) = [
        e for e in elements(response.content) if e.attrs.get("aria-labelledby") == "focus-heading"
    ]
    return card


def focus(response) -> str:
    return focus_card(response).text


def main_action(response) -> str:
    """Where the dashboard's one primary action leads: the button under the verdict (a link, or
    a form that starts a drill: its action). There is exactly one, and the focus card beside it
    has no button of its own."""
    (action,) = with_class(response.content, "next-action")
    assert not [e for e in descendants(focus_card(response)) if "button" in e.classes]
    if action.tag == "form":
        return action.attrs["action"]
    return next(e for e in descendants(action) if e.tag == "a").attrs["href"]


def verdict(response) -> str:
    (element,) = with_class(response.content, "verdict")
    return element.text


# The Content-Security-Policy the app has always sent, directive by directive: only our own files
# (htmx and the CSS come from our static files, the charts are inline SVG drawn by the server,
# and no template carries an inline script or style).
POLICY = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'", "data:"},
    "font-src": {"'self'"},
    "connect-src": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
    "base-uri": {"'self'"},
    "object-src": {"'none'"},
}


def directives(header: str) -> dict[str, set[str]]:
    """A Content-Security-Policy header as {directive: sources}."""
    parsed = {}
    for directive in filter(None, (part.strip() for part in header.split(";"))):
        name, *sources = directive.split()
        parsed[name] = set(sources)
    return parsed
