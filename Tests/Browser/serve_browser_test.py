#!/usr/bin/env python3
"""End-to-end tests of `origami serve` in a real browser: Debian's chromium driven by Playwright (PyPI).

Starts the built `origami serve` on a free port for copies of Models/ scenes and checks, as a user would see it:
the book's cube clicked at its centre reads face4 (tree order) and face3 (frontmost); the lit cube's ambient
slider moved to 0.8 shows the pixels `origami sweep --vary ambient=0.8` renders; editing the scene file updates
the page; breaking it shows the located error and keeps the last good picture.

Usage: serve_browser_test.py [--origami PATH] [--chromium PATH] [--screenshot PNG]
Screenshots of a failing step go to .build/browser-tests/. `--screenshot` also saves a picture of the page for
the README. Exit status 0 when every check passes.
"""
import argparse
import base64
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.path.join(ROOT, ".build", "browser-tests")


def decode_png(data):
    """RGBA rows of an 8-bit, non-interlaced RGB or RGBA PNG (what origami writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, f"unsupported PNG {depth} {color} {interlace}"
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if channels == 4 else bytes(
            v for x in range(width) for v in (*line[x * 3:x * 3 + 3], 255)))
        previous = line
    return width, height, rows


def pixel(png, x, y):
    _, _, rows = png
    return tuple(rows[y][x * 4:x * 4 + 4])


class Server:
    """`origami serve SCENE --port 0`, its address read from its first line."""

    def __init__(self, origami, scene):
        self.process = subprocess.Popen([origami, "serve", scene, "--port", "0"], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, cwd=ROOT)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise AssertionError(f"no address from origami serve: {line!r} {self.process.stderr.read()!r}")
        self.url = match.group(0)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("origami serve did not stop on SIGTERM within 10 s")


def picture_png(page):
    """The bytes of the picture the page shows now (its blob URL, read back in the page)."""
    b64 = page.evaluate("""async () => {
        const blob = await (await fetch(document.getElementById('picture').src)).blob();
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let s = ''; for (const b of bytes) s += String.fromCharCode(b);
        return btoa(s);
    }""")
    return decode_png(base64.b64decode(b64))


def wait_until(check, what, timeout=10.0):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        last = check()
        if last:
            return last
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--origami", default=os.path.join(ROOT, ".build", "debug", "origami"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    os.makedirs(ARTIFACTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="origami-browser-")
    cube = os.path.join(work, "cube.yaml")
    lit = os.path.join(work, "lit.yaml")
    shutil.copy(os.path.join(ROOT, "Models", "cube-button-interception.yaml"), cube)
    shutil.copy(os.path.join(ROOT, "Models", "lit-cube.yaml"), lit)
    failures = []

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])

        def step(name, body, server_scene):
            server = Server(args.origami, server_scene)
            page = browser.new_page(viewport={"width": 1180, "height": 860})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            try:
                page.goto(server.url)
                page.wait_for_selector("body[data-rendered-version]", timeout=15000)
                body(page, server)
                assert not errors, f"script errors in the page: {errors}"
                print(f"ok: {name}")
            except Exception as e:  # noqa: BLE001 - every failure is reported with its screenshot
                shot = os.path.join(ARTIFACTS, name.replace(" ", "-") + ".png")
                page.screenshot(path=shot, full_page=True)
                failures.append(f"{name}: {e} (screenshot {shot})")
                print(f"FAIL: {name}: {e}\n  screenshot: {shot}")
            finally:
                page.close()
                server.stop()

        def click_centre(page, server):
            # The picture's top-left is the canvas origin; the book's cube centre is (200, 200).
            page.click("#picture", position={"x": 200, "y": 200})
            page.wait_for_selector("#answer-tree dd.face", timeout=10000)
            tree = page.text_content("#answer-tree dd.face")
            front = page.text_content("#answer-frontmost dd.face")
            assert tree == "face4", f"tree order answered {tree!r}, not face4"
            assert front == "face3", f"frontmost answered {front!r}, not face3"
            assert page.locator("#overlay polygon.receiving").count() == 1
            assert page.locator("#overlay polygon.seen").count() == 1
            command = page.text_content("#command")
            assert "origami hit " in command and " 200,200" in command, command
            # The hit map toggle lays the map over the picture.
            page.check("#show-hitmap")
            wait_until(lambda: page.is_visible("#hitmap") and
                       (page.get_attribute("#hitmap", "src") or "").startswith("blob:"), "the hit map")

        def play_time(page, server):
            assert page.is_visible("#time-section"), "no time scrubber for an animated scene"
            renders = int(page.get_attribute("body", "data-renders"))
            page.click("#play")
            wait_until(lambda: float(page.input_value("#time")) > 0.3, "the time to advance")
            wait_until(lambda: int(page.get_attribute("body", "data-renders")) > renders + 2, "new frames")
            page.click("#play")
            paused = page.input_value("#time")
            time.sleep(0.3)
            assert page.input_value("#time") == paused, "still playing after pause"
            assert "--time " in page.text_content("#command")

        def ambient_slider(page, server):
            before = picture_png(page)
            slider = page.locator('input[data-path="ambient"]')
            slider.focus()
            for _ in range(30):  # 0.5 → 0.8 in steps of 0.01, as a keyboard user would
                page.keyboard.press("ArrowRight")
            assert slider.input_value() == "0.8", slider.input_value()
            reference_dir = os.path.join(work, "sweep")
            subprocess.run([args.origami, "sweep", lit, "--vary", "ambient=0.8", "-o", reference_dir],
                           check=True, capture_output=True)
            with open(os.path.join(reference_dir, "frames", "variant-0001.png"), "rb") as f:
                reference = decode_png(f.read())
            # Face centres of the lit cube (front, right, top) and the background.
            probes = [(200, 250), (270, 200), (200, 140), (5, 5), (200, 200)]

            def matches():
                shown = picture_png(page)
                return all(max(abs(a - b) for a, b in zip(pixel(shown, x, y), pixel(reference, x, y))) <= 1
                           for x, y in probes)
            wait_until(matches, "the picture to match origami sweep --vary ambient=0.8")
            assert any(pixel(before, x, y) != pixel(reference, x, y) for x, y in probes), \
                "ambient 0.8 looks like 0.5: the probe cannot tell"
            command = page.text_content("#command")
            assert "--vary ambient=0.8" in command, command

        def edit_and_break(page, server):
            with open(lit) as f:
                text = f.read()
            with open(lit, "w") as f:
                f.write(text.replace('"#ecf0f1"', '"#336699"'))
            wait_until(lambda: page.get_attribute("body", "data-rendered-version") == "2", "the page to reload")
            assert pixel(picture_png(page), 5, 5) == (0x33, 0x66, 0x99, 255), pixel(picture_png(page), 5, 5)
            broken = text.replace('"#ecf0f1"', '"#336699"').replace("ambient: 0.5", "ambeint: 0.5")
            line = next(i + 1 for i, l in enumerate(broken.split("\n")) if "ambeint" in l)
            column = broken.split("\n")[line - 1].index("ambeint") + 1
            with open(lit, "w") as f:
                f.write(broken)
            page.wait_for_selector("#scene-error:not([hidden])", timeout=10000)
            title = page.text_content("#scene-error-title")
            detail = page.text_content("#scene-error-detail")
            assert title == "invalid scene " + lit, title
            assert f"{lit}:{line}:{column}: layers[0].lighting.ambeint: unknown key `ambeint`; did you mean `ambient`?" \
                in detail, detail
            assert "ambeint: 0.5" in detail and "^" in detail, detail
            # The last good picture stays.
            assert pixel(picture_png(page), 5, 5) == (0x33, 0x66, 0x99, 255)
            with open(lit, "w") as f:
                f.write(text)
            wait_until(lambda: page.is_hidden("#scene-error"), "the error to clear")
            wait_until(lambda: pixel(picture_png(page), 5, 5) == (0xec, 0xf0, 0xf1, 255), "the fixed file's picture")

        step("book cube click", click_centre, cube)
        step("ambient slider", ambient_slider, lit)
        step("edit and break", edit_and_break, lit)
        step("play time", play_time, "Models/turntable.yaml")

        if args.screenshot:
            server = Server(args.origami, "Models/turning-cube.yaml")
            page = browser.new_page(viewport={"width": 1180, "height": 780})
            page.goto(server.url)
            page.wait_for_selector("body[data-rendered-version]", timeout=15000)
            page.click("#picture", position={"x": 150, "y": 150})
            page.wait_for_selector("#answer-tree dd.face", timeout=10000)
            time.sleep(0.5)
            page.screenshot(path=args.screenshot)
            page.close()
            server.stop()
        browser.close()

    shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("\n".join(["browser tests failed:"] + failures))
        return 1
    print("browser tests: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
