#!/usr/bin/env python3
"""Checks that `soundpack report` reads on a phone-sized screen: shown by headless Chromium in a
frame 400 px wide (and 1280 px), the page is no wider than the frame (no sideways scroll), with a
passing and a failing pack. Chromium will not make its window narrower than 500 px, so the report is
measured inside an iframe of a wrapper page; the report itself is untouched and has no scripts.

Usage: scripts/check/report-layout.py [path/to/soundpack]   (needs chromium: bootstrap.sh --dev)
"""
import os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/soundpack"))
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    sys.exit("report layout: chromium is not installed; run scripts/bootstrap.sh --dev")
work = tempfile.mkdtemp(prefix="soundpack-report-layout-")
try:
    broken = os.path.join(work, "packs/broken")
    shutil.copytree(os.path.join(root, "packs/wechat"), broken)
    open(os.path.join(broken, "clips/5.caf"), "w").write("not audio " * 500)
    os.remove(os.path.join(broken, "clips/bai.caf"))
    report = os.path.join(work, "report.html")
    subprocess.run([binary, "report", os.path.join(root, "packs/wechat"), broken, "-o", report], capture_output=True)
    for width in (400, 1280):
        wrapper = os.path.join(work, f"frame-{width}.html")
        open(wrapper, "w").write(f"""<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="report.html" style="width:{width}px;height:900px;border:0"></iframe>
<script>document.getElementById('f').onload = function () {{ var page = this.contentDocument.documentElement;
document.body.setAttribute('data-widths', page.scrollWidth + ' ' + this.contentWindow.innerWidth); }};</script>
</body></html>""")
        dom = subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                              "--allow-file-access-from-files", "--virtual-time-budget=10000", "--window-size=1400,1000",
                              "--dump-dom", "file://" + wrapper], capture_output=True, text=True, timeout=180).stdout
        found = re.search(r'data-widths="(\d+) (\d+)"', dom)
        if not found:
            sys.exit(f"report layout: Chromium did not render the report at {width} px")
        scroll, inner = map(int, found.groups())
        if inner != width or scroll > inner:
            sys.exit(f"report layout: in a {width} px frame the page is {scroll} px wide (frame {inner} px): it scrolls sideways")
finally:
    shutil.rmtree(work)
print("report layout: no sideways scroll in 400 px and 1280 px frames (headless Chromium), passing and failing packs")
