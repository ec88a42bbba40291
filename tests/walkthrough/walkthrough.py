#!/usr/bin/env python3
"""The README's "first five minutes", done by a script on the real studio under a real X
server (Xvfb, the openbox window manager, xdotool for the mouse and keys, ImageMagick's
import for screenshots). Every step is screenshotted into OUT; the run fails on a crash, a
dialog left open, a dialog where none belongs, or a dock whose text does not fit.
Beyond the five minutes: a drag in the partition editor and its undo, the History and
Partition docks after Auto-fuse (long undo texts, a group of many layers), and the six
bundled lessons, each opened, every hint shown and its solution meeting its targets.

The studio tells what it shows through `--ui-report FILE` (open dialogs, clipped texts,
where the layers, dock tabs, lessons and strips of PEs are on the screen); the script
clicks and types like a user.

    walkthrough.py --studio build/app/gui/layerfuse --onnx tests/data/onnx/x.onnx --out DIR
    walkthrough.py ... --readme-screenshot docs/screenshot.png   # regenerates the README's
Exit 0: passed; 1: failed; 77: Xvfb, openbox, xdotool or import is missing (skipped).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TOOLS = ("Xvfb", "openbox", "xdotool", "import")


class Failed(Exception):
    pass


class Walkthrough:
    def __init__(self, args):
        self.args = args
        self.out = os.path.abspath(args.out)
        os.makedirs(self.out, exist_ok=True)
        for name in os.listdir(self.out):  # the screenshots of an earlier run
            if name.endswith(".png"):
                os.remove(os.path.join(self.out, name))
        self.tmp = tempfile.mkdtemp(prefix="lf-walkthrough-")
        self.report_path = os.path.join(self.tmp, "report.json")
        self.procs = []
        self.studio = None
        self.step = 0
        self.env = dict(os.environ)

    # --- the display ------------------------------------------------------------------
    def start_display(self):
        # -displayfd: Xvfb picks a display number nobody uses and writes it to the pipe.
        read_fd, write_fd = os.pipe()
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", self.args.size + "x24",
             "-nolisten", "tcp"], pass_fds=(write_fd,), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        self.procs.append(xvfb)
        os.close(write_fd)
        number = b""
        deadline = time.time() + 15
        while not number.endswith(b"\n") and time.time() < deadline:
            chunk = os.read(read_fd, 16)
            if not chunk:
                break
            number += chunk
        os.close(read_fd)
        if not number.strip():
            raise Failed("Xvfb did not start")
        self.env["DISPLAY"] = ":" + number.decode().strip()
        self.env["QT_QPA_PLATFORM"] = "xcb"
        # Settings and recovery files of this run only.
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            path = os.path.join(self.tmp, var.lower())
            os.makedirs(path, mode=0o700, exist_ok=True)
            self.env[var] = path
        wm = subprocess.Popen(["openbox"], env=self.env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        self.procs.append(wm)
        time.sleep(0.5)

    def stop(self):
        if self.studio and self.studio.poll() is None:
            self.studio.kill()
            self.studio.wait()
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # --- talking to the studio --------------------------------------------------------
    def xdo(self, *words):
        subprocess.run(["xdotool", *words], env=self.env, check=True,
                       stdout=subprocess.DEVNULL)

    def report(self):
        try:
            with open(self.report_path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def wait_for(self, what, test, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.studio.poll() is not None:
                raise Failed("the studio exited (code %s) while waiting for %s"
                             % (self.studio.returncode, what))
            r = self.report()
            if r is not None and test(r):
                return r
            time.sleep(0.1)
        raise Failed("timed out waiting for " + what + "; last report: "
                     + json.dumps(self.report(), indent=1)[:2000])

    def settle(self, seconds=0.4):
        time.sleep(seconds)

    def shot(self, name):
        self.step += 1
        path = os.path.join(self.out, "%02d-%s.png" % (self.step, name))
        subprocess.run(["import", "-window", "root", path], env=self.env, check=True)
        print("  screenshot", path, flush=True)
        return path

    def check_readable(self, where, dialogs_allowed=()):
        """No dialog but the allowed ones is open; no text of the window is clipped."""
        self.settle()
        r = self.report()
        names = [d["name"] or d["class"] for d in r["dialogs"]]
        extra = [n for n in names if n not in dialogs_allowed]
        if extra:
            raise Failed("%s: a dialog is open: %s" % (where, ", ".join(extra)))
        if r["clipped"]:
            raise Failed("%s: text that does not fit:\n  %s" % (where, "\n  ".join(r["clipped"])))
        return r

    def click(self, rect, modifiers=()):
        x, y, w, h = rect
        self.xdo("mousemove", str(x + w // 2), str(y + h // 2))
        for m in modifiers:
            self.xdo("keydown", m)
        self.xdo("click", "1")
        for m in modifiers:
            self.xdo("keyup", m)

    def click_tab(self, text):
        r = self.wait_for("the tab " + text, lambda r: text in r["tabs"], 10)
        self.click(r["tabs"][text])
        self.settle()

    def click_widget(self, name):
        r = self.wait_for("the button " + name, lambda r: name in r["widgets"], 10)
        self.click(r["widgets"][name])

    def drag(self, start, end, steps=8):
        """Press at start, move to end in steps (a drag the widget sees move), release."""
        (x0, y0), (x1, y1) = start, end
        self.xdo("mousemove", str(x0), str(y0))
        self.xdo("mousedown", "1")
        for k in range(1, steps + 1):
            self.xdo("mousemove", str(x0 + (x1 - x0) * k // steps),
                     str(y0 + (y1 - y0) * k // steps))
            time.sleep(0.03)
        self.xdo("mouseup", "1")

    def find_layer(self, name):
        """Find (Ctrl+F) selects the layer and scrolls the canvas to it."""
        self.key("ctrl+f")
        self.type_text(name)
        self.key("Return")
        self.key("Escape")  # the completer's list, then the find bar
        self.key("Escape")

    def undo_to_unmodified(self, what):
        for _ in range(8):
            if not self.report()["modified"]:
                break
            self.key("ctrl+z")
            self.settle(0.5)
        self.wait_for(what, lambda r: not r["modified"] and r["evaluated"], 20)

    def key(self, keys):
        self.xdo("key", "--clearmodifiers", keys)

    def type_text(self, text):
        self.xdo("type", "--delay", "5", text)

    # --- the five minutes -------------------------------------------------------------
    def run(self):
        self.start_display()
        self.studio = subprocess.Popen(
            [self.args.studio, "--reset-layout", "--no-recovery", "--ui-report",
             self.report_path], env=self.env)
        print("1. start: ResNet-18 on the default hardware", flush=True)
        r = self.wait_for("the first paint", lambda r: r["painted"] and r["evaluated"], 60)
        self.check_readable("start")
        start_groups = r["groups"]
        self.shot("start")

        print("2. fuse layer1.0.conv1 and layer1.0.conv2 (click, Shift-click, Ctrl+G)", flush=True)
        self.find_layer("layer1.0.conv1")
        self.settle(0.8)  # the find bar closes and the canvas moves up: fresh positions
        r = self.wait_for("both layers in sight", lambda r: "layer1.0.conv1" in r["nodes"]
                          and "layer1.0.conv2" in r["nodes"], 10)
        self.click(r["nodes"]["layer1.0.conv1"])
        self.click(r["nodes"]["layer1.0.conv2"], ("shift",))
        self.key("ctrl+g")
        self.wait_for("one group fewer", lambda r: r["groups"] == start_groups - 1
                      and r["evaluated"], 20)
        self.check_readable("after fusing")
        self.shot("fused")

        print("3. the inspectors and the partition editor", flush=True)
        for tab in ("Layer", "Group", "Partition", "Hardware"):
            self.click_tab(tab)
            self.check_readable("the %s dock" % tab)
            self.shot(tab.lower())
        self.click_tab("Partition")
        r = self.wait_for("the spatial choice", lambda r: "spatial" in r["widgets"], 10)
        self.click(r["widgets"]["spatial"])
        self.settle(0.8)
        self.check_readable("the Partition dock, spatial")
        self.shot("partition-spatial")
        self.partition_drag()

        print("4. the teaching docks", flush=True)
        for tab in ("Loop Nest", "Tile Pyramid", "Why This Number", "Compare", "Lessons"):
            self.click_tab(tab)
            self.check_readable("the %s dock" % tab)
            self.shot(tab.lower().replace(" ", "-"))
        self.click_tab("Layers")

        print("5. Auto-fuse, undo, the manual", flush=True)
        self.key("ctrl+shift+a")
        self.wait_for("the Auto-fuse dialog",
                      lambda r: any(d["name"] == "autoFuseDialog" for d in r["dialogs"]), 10)
        self.shot("autofuse-dialog")
        self.key("Return")
        self.wait_for("the trade-off question", lambda r: any(
            d["class"] == "lf::TradeOffDialog" for d in r["dialogs"]), 60)
        self.shot("autofuse-trade-off")
        self.key("Return")  # Apply
        self.wait_for("the auto-fused schedule", lambda r: not r["dialogs"] and r["evaluated"]
                      and r["groups"] < start_groups - 1, 60)
        r = self.check_readable("after Auto-fuse")
        self.shot("autofused")
        # The undo texts of Auto-fuse are long: elided with a tooltip, never cut.
        self.click_tab("History")
        r = self.check_readable("the History dock after Auto-fuse")
        self.shot("history")
        text, rect = r["history"][-1]  # the Auto-fuse step: its whole text on pointing at it
        x, y, w, h = rect
        self.xdo("mousemove", str(x + min(w, 200) // 2), str(y + h // 2))
        self.wait_for("the tooltip of the Auto-fuse step", lambda r: r["tooltip"] == text, 10)
        self.shot("history-tooltip")
        self.click_tab("Layers")
        # The largest group made: its partition table has a row per layer.
        largest = max(r["groupLayers"], key=len)
        print("  the largest group: %d layers" % len(largest), flush=True)
        self.find_layer(largest[0])
        self.click_tab("Partition")
        self.wait_for("the largest group in the Partition dock", lambda r: r["partition"]
                      and len(r["partition"]["layers"]) == len(largest), 10)
        self.check_readable("the Partition dock of a %d-layer group" % len(largest))
        self.shot("partition-largest-group")
        # Split the array between them: every figure of the table moves and shows its change.
        self.click_widget("spatial")
        self.wait_for("the %d layers on strips" % len(largest), lambda r: r["partition"]
                      .get("spatial") and r["evaluated"], 10)
        self.check_readable("the Partition dock of a %d-layer group, spatial" % len(largest))
        self.shot("partition-largest-group-spatial")
        self.key("ctrl+z")
        self.wait_for("the temporal partition back", lambda r: not r["partition"]
                      .get("spatial"), 10)
        if self.args.readme_screenshot:
            # The README's picture: a layer of the auto-fused schedule and its loop nest.
            self.find_layer("layer2.1.conv2")
            self.click_tab("Loop Nest")
            self.click_tab("Layer")
            self.settle(1.0)
            self.check_readable("the README screenshot")
            window = subprocess.run(["xdotool", "search", "--name", " — LayerFuse$"],
                                    env=self.env, check=True, capture_output=True,
                                    text=True).stdout.split()[0]
            subprocess.run(["import", "-window", window, self.args.readme_screenshot],
                           env=self.env, check=True)
            print("  README screenshot", self.args.readme_screenshot, flush=True)
        self.key("ctrl+z")
        self.wait_for("the undone Auto-fuse", lambda r: r["groups"] == start_groups - 1, 20)
        self.key("F1")
        self.wait_for("the manual",
                      lambda r: any(d["name"] == "manualWindow" for d in r["dialogs"]), 10)
        self.check_readable("the manual", ("manualWindow",))
        self.shot("manual")
        self.key("Escape")
        self.wait_for("the manual closed", lambda r: not r["dialogs"], 10)

        if self.args.onnx:
            print("1b. File > Import ONNX: the input shape, then the network", flush=True)
            self.undo_to_unmodified("the unmodified network")  # nothing to save
            self.wait_for("the opened schedule", lambda r: r["groups"] == start_groups, 20)
            self.key("ctrl+i")
            self.wait_for("the file dialog", lambda r: len(r["dialogs"]) == 1, 10)
            self.settle(0.5)
            self.key("ctrl+a")
            self.type_text(os.path.abspath(self.args.onnx))
            self.key("Return")
            r = self.wait_for("the Input Shape dialog", lambda r: any(
                d["name"] == "onnxInputShapeDialog" for d in r["dialogs"]), 20)
            self.settle(1.0)  # longer than the progress dialog's delay
            r = self.check_readable("the Input Shape dialog", ("onnxInputShapeDialog",))
            self.shot("onnx-input-shape")
            self.key("Return")  # Import
            r = self.wait_for("the imported network", lambda r: not r["dialogs"]
                              and r["evaluated"] and r["painted"]
                              and "LayerFuse" in r["title"] and r["layers"] != 32, 60)
            self.check_readable("the imported network")
            self.shot("onnx-imported")

        self.lessons()

        print("8. quit", flush=True)
        self.key("ctrl+q")
        try:
            code = self.studio.wait(20)
        except subprocess.TimeoutExpired:
            self.shot("quit-blocked")
            raise Failed("the studio did not quit (a dialog in the way?): "
                         + json.dumps(self.report()["dialogs"]))
        if code != 0:
            raise Failed("the studio exited with code %d" % code)

    def partition_drag(self):
        """Drag the right edge of the first strip of PEs halfway left: the share shrinks to a
        divisor of the array; one undo brings it back."""
        r = self.wait_for("the strips of PEs", lambda r: r["partition"].get("spatial") and all(
            "rect" in l for l in r["partition"]["layers"]), 10)
        first = r["partition"]["layers"][0]
        before = first["share"]
        x, y, w, h = first["rect"]
        self.drag((x + w - 2, y + h // 2), (x + w - 2 - w // 2, y + h // 2))
        r = self.wait_for("a narrower first strip", lambda r: r["partition"]["layers"][0]["share"]
                          != before and r["evaluated"], 10)
        print("  dragged: %s -> %s" % (before, r["partition"]["layers"][0]["share"]), flush=True)
        self.check_readable("the Partition dock after a drag")
        self.shot("partition-dragged")
        self.key("ctrl+z")
        self.wait_for("the strip back", lambda r: r["partition"]["layers"][0]["share"] == before
                      and r["evaluated"], 10)

    def lessons(self):
        """Every bundled lesson: open it, every hint, the solution (its targets met)."""
        self.undo_to_unmodified("nothing to save before the lessons")
        self.click_tab("Lessons")
        count = self.report()["lessons"]["count"]
        print("7. the %d lessons" % count, flush=True)
        for i in range(count):
            r = self.wait_for("the lesson list", lambda r: r["lessons"]["rows"][i], 10)
            self.click(r["lessons"]["rows"][i])
            self.wait_for("lesson %d shown" % (i + 1), lambda r: r["lessons"]["current"] == i, 10)
            self.click_widget("openLesson")
            r = self.wait_for("lesson %d open" % (i + 1), lambda r: r["lessons"]["active"]
                              and r["evaluated"] and not r["dialogs"], 60)
            self.check_readable("lesson %d opened" % (i + 1))
            self.shot("lesson-%d" % (i + 1))
            for k in range(r["lessons"]["hints"]):
                self.click_widget("showHint")
                self.wait_for("hint %d" % (k + 1), lambda r: r["lessons"]["hintsShown"] == k + 1,
                              10)
                self.check_readable("lesson %d, hint %d" % (i + 1, k + 1))
            self.shot("lesson-%d-hints" % (i + 1))
            self.click_widget("showSolution")
            self.wait_for("lesson %d solved" % (i + 1), lambda r: r["lessons"]["met"]
                          and r["evaluated"] and r["modified"], 60)
            self.check_readable("lesson %d solved" % (i + 1))
            self.shot("lesson-%d-solved" % (i + 1))
            self.undo_to_unmodified("lesson %d back to its start" % (i + 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studio", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--onnx", help="an ONNX model for the import step")
    parser.add_argument("--size", default="1280x800", help="screen size, e.g. 1920x1080")
    parser.add_argument("--readme-screenshot", metavar="PNG",
                        help="also write the README's screenshot (docs/screenshot.png)")
    args = parser.parse_args()
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        print("SKIPPED: the walkthrough needs %s (scripts/install-deps.sh installs them)"
              % ", ".join(missing))
        return 77
    w = Walkthrough(args)
    started = time.time()
    try:
        w.run()
    except Failed as e:
        try:
            w.shot("failed")
        except Exception:  # the display may be gone
            pass
        print("FAILED:", e)
        return 1
    finally:
        w.stop()
    print("walkthrough passed at %s in %.1f s; screenshots in %s"
          % (args.size, time.time() - started, w.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
