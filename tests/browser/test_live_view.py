"""The live view in a real browser (issue 25): headless Chromium, driven by Selenium,
against `barracuda run --serve` on a small running case on the CPU backend.

Checks: the page loads; the image changes as steps advance; pause stops the step
counter and "step" advances it by the number asked; the slice moves (another axis and
index, another field); a steered inlet velocity reaches the solver (the page's log,
events.csv, and the flow slows down); a snapshot writes the fields; malformed requests
leave the run going; bound to a non-local address, a request without the token is
refused, and without --serve-public the address is refused at the start.

With BARRACUDA_SCREENSHOT=path the page is saved there as PNG (docs/images/live-view.png
is made so). Skipped (exit code 5) where Chromium or its driver is missing.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

selenium = pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

EXE = os.environ.get("BARRACUDA_EXE", "build/src/barracuda")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    pytest.skip("Chromium and chromedriver are needed (apt install chromium chromium-driver)", allow_module_level=True)

# A sphere in a small duct (sphere3d.toml made small), D3Q19 TRT FP32, with forces on
# the sphere and a probe behind it, so that every panel of the page has something.
CASE = """
title = "Sphere in a duct (browser test)"
[model]
lattice = "D3Q19"
collision = "trt"
precision = "fp32"
viscosity = 0.03
[domain]
size = [48, 20, 14]
[boundary.x_min]
type = "velocity"
velocity = [0.05, 0.0, 0.0]
[boundary.x_max]
type = "pressure"
density = 1.0
[[obstacle]]
name = "sphere"
shape = "sphere"
center = [14, 9.5, 6.5]
radius = 4
[initial]
velocity = [0.05, 0.0, 0.0]
[forces]
obstacles = ["sphere"]
reference_velocity = 0.05
reference_area = 50.27
interval = 50
[probes]
names = ["wake"]
points = [[24, 9.5, 6.5]]
interval = 50
[run]
steps = 100000000
[output]
interval = 0
"""


def start_run(tmp_path, serve, *extra):
    case = tmp_path / "case.toml"
    case.write_text(CASE)
    out = tmp_path / ("out-" + serve.replace(":", "_").replace(".", "_"))
    log = open(tmp_path / "run.log", "a+")
    proc = subprocess.Popen([EXE, "run", str(case), "--backend", "cpu", "--out", str(out), "--serve", serve, *extra],
                            stdout=log, stderr=subprocess.PIPE, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    url = None
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        m = re.search(r"live view at (\S+)", line)
        if m:
            url = m.group(1)
            break
    assert url, "no URL printed"
    return proc, url, out


def stop_run(proc):
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()


def api(url, path, token=True, data=None):
    """GET (or POST a form) against the run; returns (status, body, headers)."""
    parts = urllib.parse.urlsplit(url)
    tok = urllib.parse.parse_qs(parts.query)["token"][0]
    headers = {"X-Barracuda-Token": tok} if token else {}
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(f"{parts.scheme}://{parts.netloc}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers


def status(url):
    return json.loads(api(url, "/api/status")[1])


def wait_for(condition, timeout=30, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def frame_range_hi(url):
    code, _, headers = api(url, "/api/frame.png")
    assert code == 200
    return float(headers["X-Frame-Range"].split(",")[1])


def test_watch_pause_step_slice_steer_snapshot(tmp_path, browser):
    proc, url, out = start_run(tmp_path, "127.0.0.1:0")
    try:
        browser.get(url)
        body = browser.find_element(By.TAG_NAME, "body")
        frame = browser.find_element(By.ID, "frame")
        # The page fills itself from /api/info once its script has run.
        wait_for(lambda: "Sphere in a duct" in browser.find_element(By.ID, "title").text, what="the title")

        # The image changes as the steps advance.
        first = wait_for(lambda: frame.get_attribute("data-step"), what="the first frame")
        first_src = frame.get_attribute("src")
        wait_for(lambda: int(frame.get_attribute("data-step") or 0) > int(first) + 100, what="a later frame")
        assert frame.get_attribute("src") != first_src
        assert browser.execute_script("return arguments[0].naturalWidth", frame) > 0

        # The plots fill from forces.csv and the probe.
        wait_for(lambda: status(url)["series"]["forces"] > 2, what="force samples")

        # Pause stops the step counter; "step" advances it by the number asked.
        browser.find_element(By.ID, "pause").click()
        wait_for(lambda: body.get_attribute("data-paused") == "true", what="paused")
        paused_at = status(url)["step"]
        time.sleep(1.5)
        assert status(url)["step"] == paused_at
        assert int(body.get_attribute("data-step")) == paused_at
        count = browser.find_element(By.ID, "step-count")
        count.clear()
        count.send_keys("10")
        browser.find_element(By.ID, "step").click()
        wait_for(lambda: status(url)["step"] == paused_at + 10, what="ten steps")
        time.sleep(0.5)
        assert status(url)["step"] == paused_at + 10
        wait_for(lambda: frame.get_attribute("data-step") == str(paused_at + 10), what="the frame of the step")

        # The slice moves: normal y, index 5; then the vorticity.
        height_z = browser.execute_script("return arguments[0].naturalHeight", frame)
        Select(browser.find_element(By.ID, "axis")).select_by_value("1")
        index = browser.find_element(By.ID, "index")
        browser.execute_script("arguments[0].value = 5; arguments[0].dispatchEvent(new Event('change'))", index)
        wait_for(lambda: status(url)["slice"] == {"axis": 1, "index": 5, "field": "speed"}, what="the new plane")
        wait_for(lambda: browser.execute_script("return arguments[0].naturalHeight", frame) != height_z,
                 what="the x-z plane's image")
        Select(browser.find_element(By.ID, "field")).select_by_value("vorticity")
        wait_for(lambda: status(url)["slice"]["field"] == "vorticity", what="the vorticity")
        Select(browser.find_element(By.ID, "axis")).select_by_value("2")
        browser.execute_script("arguments[0].value = 7; arguments[0].dispatchEvent(new Event('change'))", index)
        Select(browser.find_element(By.ID, "field")).select_by_value("speed")
        wait_for(lambda: status(url)["slice"] == {"axis": 2, "index": 7, "field": "speed"}, what="back to z")

        # Malformed requests are refused and leave the run as it was.
        for form in ({"action": "fly"}, {"action": "step", "steps": "many"}, {"action": "slice", "axis": "9"},
                     {"action": "steer", "key": "model.tau", "value": "1"}, {"x" * 100: "y" * 3000}):
            assert api(url, "/api/control", data=form)[0] in (400, 413)

        # Steering: the inlet slowed from 0.05 to 0.02 reaches the solver.
        browser.find_element(By.ID, "pause").click()  # resume
        wait_for(lambda: not status(url)["paused"], what="resumed")
        wait_for(lambda: status(url)["step"] > paused_at + 400, what="steps after resuming")
        before = frame_range_hi(url)
        field = browser.find_element(By.CSS_SELECTOR, "input[data-key='boundary.x_min.velocity']")
        assert field.get_attribute("value") == "[0.05, 0, 0]"
        field.clear()
        field.send_keys("[0.02, 0, 0]")
        browser.find_element(By.CSS_SELECTOR, "button[data-key='boundary.x_min.velocity']").click()
        events = browser.find_element(By.ID, "events")
        wait_for(lambda: "steered: boundary.x_min.velocity = [0.02, 0, 0]" in events.text, what="the steering log")
        steered_at = status(url)["step"]
        wait_for(lambda: status(url)["step"] > steered_at + 1500, timeout=60, what="steps after steering")
        after = frame_range_hi(url)
        assert after < 0.7 * before, (before, after)
        assert "steered: boundary.x_min.velocity = [0.02, 0, 0]" in (out / "events.csv").read_text()

        # A snapshot writes the fields now.
        browser.find_element(By.ID, "snapshot").click()
        wait_for(lambda: "snapshot" in events.text, what="the snapshot")
        wait_for(lambda: [p for p in out.glob("fields_*.vti") if p.name != "fields_00000000.vti"], what="a snapshot file")

        # A refused steer is shown on the page.
        field.clear()
        field.send_keys("[0.9, 0, 0]")
        browser.find_element(By.CSS_SELECTOR, "button[data-key='boundary.x_min.velocity']").click()
        wait_for(lambda: "must be < 0.4" in browser.find_element(By.ID, "error").text, what="the refusal")
        field.clear()
        field.send_keys("[0.02, 0, 0]")

        shot = os.environ.get("BARRACUDA_SCREENSHOT")
        if shot:
            browser.find_element(By.ID, "error").click()
            browser.execute_script("document.getElementById('error').textContent = ''")
            time.sleep(1.0)
            browser.save_screenshot(shot)
        assert proc.poll() is None, "the run stopped"
    finally:
        code = stop_run(proc)
    assert code == 8  # stopped by SIGINT, with a checkpoint


def test_non_local_address_needs_the_flag_and_the_token(tmp_path, browser):
    case = tmp_path / "case.toml"
    case.write_text(CASE)
    refused = subprocess.run([EXE, "run", str(case), "--backend", "cpu", "--serve", "0.0.0.0:0"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "--serve-public" in refused.stderr

    proc, url, _ = start_run(tmp_path, "0.0.0.0:0", "--serve-public")
    try:
        assert api(url, "/api/status", token=False)[0] == 403
        assert api(url, "/api/frame.png", token=False)[0] == 403
        assert api(url, "/api/control", token=False, data={"action": "pause"})[0] == 403
        assert api(url, "/api/status")[0] == 200
        # The page without the token says so.
        browser.get(url.split("?")[0])
        wait_for(lambda: "cannot reach the run" in browser.find_element(By.ID, "progress").text, what="the refusal")
        assert not status(url)["paused"]
    finally:
        stop_run(proc)


def paused_at(url):
    assert api(url, "/api/control", data={"action": "pause"})[0] == 202
    wait_for(lambda: status(url)["paused"], what="paused")
    return status(url)["step"]


def step_to(url, target):
    now = status(url)["step"]
    if target > now:
        assert api(url, "/api/control", data={"action": "step", "steps": str(target - now)})[0] == 202
        wait_for(lambda: status(url)["step"] == target, what=f"step {target}")


@pytest.mark.skipif(not shutil.which("mpiexec"), reason="no mpiexec")
def test_mpi_run_gathers_the_slice(tmp_path):
    """Two MPI ranks: rank 0 serves, the slice is gathered from both subdomains, and it
    equals the one-rank run's at the same step (the decomposition is bit for bit)."""
    one, url1, _ = start_run(tmp_path, "127.0.0.1:0")
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_NUM_THREADS": "1"}
    case = tmp_path / "case.toml"
    two = subprocess.Popen(["mpiexec", "-n", "2", "--oversubscribe", EXE, "run", str(case), "--backend", "cpu",
                            "--out", str(tmp_path / "out-mpi"), "--set", "domain.decomposition=[2, 1, 1]",
                            "--serve", "127.0.0.1:0"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        url2, printed = None, ""
        deadline = time.time() + 60
        while time.time() < deadline and not url2:
            line = two.stderr.readline()
            if not line:
                break
            printed += line
            m = re.search(r"live view at (\S+)", line)
            url2 = m.group(1) if m else None
        if "2 ranks as" not in printed:
            pytest.skip("this binary runs without MPI: " + printed)
        for u in (url1, url2):  # a frame is only taken while someone watches
            api(u, "/api/frame.png")
        s1, s2 = paused_at(url1), paused_at(url2)
        target = max(s1, s2) + 5
        step_to(url1, target)
        step_to(url2, target)
        for u in (url1, url2):
            assert api(u, "/api/control", data={"action": "slice", "axis": "1", "index": "9", "field": "vorticity"})[0] == 202
        wait_for(lambda: api(url1, "/api/frame.png")[2]["X-Frame-Step"] == str(target) and
                 api(url2, "/api/frame.png")[2]["X-Frame-Step"] == str(target), what="both frames")
        time.sleep(0.5)
        a, b = api(url1, "/api/frame.png"), api(url2, "/api/frame.png")
        assert a[2]["X-Frame-Range"] == b[2]["X-Frame-Range"]
        assert a[1] == b[1], "the two-rank slice differs from the one-rank slice"
        # Steering reaches every rank: the run goes on and logs it.
        assert api(url2, "/api/control", data={"action": "steer", "key": "boundary.x_min.velocity",
                                               "value": "[0.03, 0, 0]"})[0] == 202
        assert api(url2, "/api/control", data={"action": "resume"})[0] == 202
        wait_for(lambda: any("steered" in e["text"] for e in status(url2)["events"]), what="the steer")
        wait_for(lambda: status(url2)["step"] > target + 50, what="steps after steering")
    finally:
        stop_run(one)
        two.send_signal(signal.SIGINT)
        try:
            two.wait(timeout=60)
        finally:
            if two.poll() is None:
                two.kill()
