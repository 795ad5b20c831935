#!/usr/bin/env python3
"""Check an `ananke comply` HTML page against the comply JSON results it shows.

    html_check.py PAGE.html RESULT.json... [--hostile TEXT]

The page is parsed with Python's own HTML parser (html.parser), then:
  - the CSP meta allows no source (default-src 'none') and exactly one script,
    by a SHA-256 that is the hash of the page's one inline script;
  - nothing is loaded: no src, no <link>, no url( or @import in styles, every
    href is an anchor of the page (#...) or an http(s) link that one of the
    results holds (a doc or a requirement's section), no on* attribute;
  - with several results, the summary table: each agent's pass/fail/NA counts;
  - per result (section #pN): the areas x agents matrix, each cell's status
    computed here from the JSON (seed 003's rule) and a failing cell's link to
    the section of its first failed test; each agent's MUST coverage; a row
    per requirement with its level and each agent's status; a section per
    test with each agent's status;
  - --hostile TEXT: the text is shown as text (it is in the page's text) and
    never as markup.
Prints one line per problem; exits 1 when there is any, else prints "ok N".
"""
import base64
import hashlib
import html.parser
import json
import re
import sys


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], []

    def all_text(self):
        out = list(self.text)
        for c in self.children:
            out.append(c.all_text())
        return "".join(out)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


VOID = {"meta", "br", "input", "img", "link", "hr", "wbr", "source", "col", "area", "base"}


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root
        self.scripts = []

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_endtag(self, tag):
        c = self.cur
        while c is not self.root and c.tag != tag:
            c = c.parent
        if c is not self.root:
            self.cur = c.parent

    def handle_data(self, data):
        self.cur.text.append(data)
        if self.cur.tag == "script":
            self.scripts.append(data)


problems = []


def bad(msg):
    problems.append(msg)


def area_cells(agent, areas):
    """seed 003's rule, as docs/comply.md states it"""
    out = {}
    for area in areas:
        p = f = na = 0
        first = None
        for t in agent["tests"]:
            if (t.get("area") or t.get("title") or t["id"]) != area:
                continue
            s = t["status"]
            if s in ("pass", "stale"):
                p += 1
            elif s in ("na", "skip"):
                na += 1
            else:
                f += 1
                first = first or t["id"]
        st = "PARTIAL" if p and f else "FAIL" if f else "PASS" if p else "NA" if na else "—"
        out[area] = (st, first)
    return out


def main():
    args = sys.argv[1:]
    hostile = None
    if "--hostile" in args:
        i = args.index("--hostile")
        hostile = args[i + 1]
        del args[i:i + 2]
    page, results = args[0], [json.load(open(p)) for p in args[1:]]
    src = open(page, encoding="utf-8").read()
    tree = Tree()
    tree.feed(src)
    nodes = list(tree.root.walk())

    # CSP and the one script
    csp = [n.attrs.get("content", "") for n in nodes
           if n.tag == "meta" and n.attrs.get("http-equiv", "").lower() == "content-security-policy"]
    if len(csp) != 1 or "default-src 'none'" not in csp[0]:
        bad(f"CSP: {csp}")
    if len([n for n in nodes if n.tag == "script"]) != 1:
        bad("not exactly one <script>")
    elif csp:
        h = base64.b64encode(hashlib.sha256("".join(tree.scripts).encode()).digest()).decode()
        if f"script-src 'sha256-{h}'" not in csp[0]:
            bad("the script's hash is not the CSP's")

    # nothing loaded, nothing invented
    known = set()
    for r in results:
        for a in r["agents"]:
            for t in a["tests"]:
                known.update(t.get("docs") or [])
            for q in (a.get("requirements") or {}).values():
                known.add(q.get("section") or "")
    for n in nodes:
        for k, v in n.attrs.items():
            if k.startswith("on"):
                bad(f"<{n.tag}> has {k}")
            if k in ("src", "srcset", "action", "formaction", "data", "poster"):
                bad(f"<{n.tag}> loads {k}={v}")
            if k == "href":
                if n.tag != "a":
                    bad(f"<{n.tag} href>")
                elif not v.startswith("#") and (not re.match(r"https?://", v) or v not in known):
                    bad(f"href not an anchor nor a known link: {v[:80]}")
                elif v.startswith("#") and not any(m.attrs.get("id") == v[1:] for m in nodes):
                    bad(f"anchor to nothing: {v}")
        if n.tag in ("link", "iframe", "object", "embed", "img", "base", "form"):
            bad(f"<{n.tag}> in the page")
        if n.tag == "style" and re.search(r"url\(|@import", n.all_text()):
            bad("a style loads something")

    if hostile is not None:
        body = tree.root.all_text()
        if hostile not in body:
            bad("the hostile text is not shown as text")

    by_id = {n.attrs["id"]: n for n in nodes if "id" in n.attrs}
    if len(results) > 1:
        rows = [n for n in nodes if n.tag == "tr" and "data-result" in n.attrs]
        for ri, r in enumerate(results):
            for i, a in enumerate(r["agents"]):
                c = {s: sum(t["status"] == s for t in a["tests"]) for s in ("pass", "fail", "na")}
                row = [x for x in rows if x.attrs["data-result"] == str(ri) and x.attrs["data-agent"] == str(i)]
                got = row and {s: int(row[0].attrs["data-" + s]) for s in c}
                if got != c:
                    bad(f"summary {r['protocol']}/{a['name']}: {got} != {c}")

    for ri, r in enumerate(results):
        sec = by_id.get(f"p{ri}")
        if sec is None:
            bad(f"no section p{ri}")
            continue
        check_result(ri, r, sec, by_id)

    for p in problems:
        print("html_check:", p)
    if problems:
        sys.exit(1)
    print(f"ok {len(results)} result(s)")


def check_result(ri, r, sec, by_id):
    nodes = list(sec.walk())
    agents = r["agents"]
    areas = []
    for t in agents[0]["tests"] if agents else []:
        a = t.get("area") or t.get("title") or t["id"]
        if a not in areas:
            areas.append(a)
    matrix = [n for n in nodes if n.tag == "table" and "matrix" in n.attrs.get("class", "")]
    if len(matrix) != 1:
        bad(f"p{ri}: {len(matrix)} matrices")
        return
    rows = [n for n in matrix[0].walk() if n.tag == "tr"][1:]
    if len(rows) != len(areas):
        bad(f"p{ri}: {len(rows)} matrix rows for {len(areas)} areas")
    for row, area in zip(rows, areas):
        if row.children[0].all_text() != area:
            bad(f"p{ri}: row {row.children[0].all_text()!r} where {area!r} was expected")
        cells = [c for c in row.children if "cell" in c.attrs.get("class", "")]
        for i, a in enumerate(agents):
            want, first = area_cells(a, [area])[area]
            got = cells[i].attrs.get("data-status") if i < len(cells) else None
            if got != want:
                bad(f"p{ri} {a['name']} / {area}: {got} != {want}")
            links = [n for n in cells[i].walk() if n.tag == "a"] if i < len(cells) else []
            if first:
                target = by_id.get(links[0].attrs["href"][1:]) if links else None
                names = [n.all_text() for n in target.walk()
                         if "tname" in n.attrs.get("class", "").split()] if target else []
                shown = names[0] if names else None
                if shown != first:
                    bad(f"p{ri} {a['name']} / {area}: link to {shown!r}, want {first}")
            elif links:
                bad(f"p{ri} {a['name']} / {area}: a link without a failed test")
    musts = [n for n in nodes if n.tag == "span" and "must" in n.attrs.get("class", "").split()]
    with_reqs = [a for a in agents if a.get("must_coverage")]
    if len(musts) != len(with_reqs):
        bad(f"p{ri}: {len(musts)} MUST coverages for {len(with_reqs)} agents with requirements")
    for span, a in zip(musts, with_reqs):
        got = {k: int(span.attrs["data-" + k]) for k in ("musts", "tested", "met")}
        if got != a["must_coverage"]:
            bad(f"p{ri} {a['name']}: MUST coverage {got} != {a['must_coverage']}")
    reqrows = {n.attrs["data-id"]: n for n in nodes if n.tag == "tr" and "data-id" in n.attrs}
    for a_i, a in enumerate(agents):
        for rid, q in (a.get("requirements") or {}).items():
            row = reqrows.get(rid)
            if row is None:
                bad(f"p{ri}: no row for requirement {rid}")
                continue
            lv = [c for c in row.children if c.attrs.get("class") == "level"]
            if not lv or lv[0].all_text() != q["level"]:
                bad(f"p{ri} {rid}: level")
            st = [c for c in row.children if c.attrs.get("data-agent") == str(a_i)]
            if not st or st[0].attrs.get("data-status") != q["status"]:
                bad(f"p{ri} {rid} {a['name']}: {st and st[0].attrs.get('data-status')} != {q['status']}")
    sections = {n.children[0].children[0].all_text(): n for n in nodes
                if n.tag == "details" and n.children and n.children[0].children}
    for a_i, a in enumerate(agents):
        for t in a["tests"]:
            s = sections.get(t["id"])
            res = s and [n for n in s.walk() if "res" in n.attrs.get("class", "").split()
                         and n.attrs.get("data-agent") == str(a_i)]
            if not res or res[0].attrs.get("data-status") != t["status"]:
                bad(f"p{ri} {t['id']} {a['name']}: section status")


main()
