#!/usr/bin/env python3
"""browser_check.py - opens an HTML file in headless Chromium (a real
browser: layout, SVG rendering, script, Content-Security-Policy) and prints
what a test checks:

  charts: N rendered: M      (from <body data-charts data-rendered>, set by
                              the page's own check that each chart was laid out)
  console: K message(s)      then each console message ("CONSOLE" lines of
                              Chromium's log: script errors, invalid SVG, CSP)
  verdict: first|after a chart|none   where the page's verdict section is
  verdict line: TEXT         each line of the verdict, tags removed
  stacks: N, escaped newlines: K   <pre> stacks of more than one line, and
                              literal "\\x0a" left in the page
  screenshot: PATH           with --screenshot=PATH

usage: browser_check.py CHROMIUM FILE.html [--screenshot=PATH]
"""
import os
import re
import subprocess
import sys
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--enable-logging=stderr", "--v=0"]


def run(chromium, args, url):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([chromium] + FLAGS + ["--user-data-dir=" + profile]
                              + args + [url], capture_output=True, text=True,
                              timeout=180)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    chromium, page = sys.argv[1], os.path.abspath(sys.argv[2])
    shot = None
    for a in sys.argv[3:]:
        if a.startswith("--screenshot="):
            shot = a.split("=", 1)[1]
    url = "file://" + page
    r = run(chromium, ["--dump-dom"], url)
    body = re.search(r"<body[^>]*>", r.stdout)
    body = body.group(0) if body else ""
    charts = re.search(r'data-charts="(\d+)"', body)
    rendered = re.search(r'data-rendered="(\d+)"', body)
    print("charts: %s rendered: %s" % (charts.group(1) if charts else "none",
                                       rendered.group(1) if rendered else "none"))
    dom = r.stdout
    v = dom.find('class="verdict')
    chart = dom.find('<svg class="chart"')
    print("verdict: %s" % ("none" if v < 0 else
                           "first" if chart < 0 or v < chart else "after a chart"))
    if v >= 0:
        section = dom[v:dom.find("</section>", v)]
        for li in re.findall(r"<li[^>]*>(.*?)(?=<li|</ul>|</ol>)", section, re.S):
            text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip()
            text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
            if text:
                print("verdict line: %s" % text)
    stacks = [p for p in re.findall(r"<pre>(.*?)</pre>", dom, re.S) if "\n" in p]
    print("stacks: %d, escaped newlines: %d" % (len(stacks), dom.count("\\x0a")))
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    print("console: %d message(s)" % len(console))
    for l in console:
        print("  " + l.split("] ", 1)[-1])
    if shot:
        run(chromium, ["--window-size=1040,1300", "--screenshot=" + shot], url)
        print("screenshot: %s" % ("ok" if os.path.getsize(shot) > 1000 else "empty"))


if __name__ == "__main__":
    main()
