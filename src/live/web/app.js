// The live view's page: watches a running case through the server's event stream
// (/api/events), fetches the slice as PNG when a new frame exists, and sends the
// user's requests as form posts to /api/control (docs/cli.md#live-view).
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
let info = null;
let status = null;
let frameShown = -1;
let frameLoading = false;
let frameUrl = null;
const series = { forces: { columns: [], rows: [] }, probes: { columns: [], rows: [] } };
// The solver's pace as the page saw it: [step, wall seconds, MLUPS or real-time factor].
const speed = { columns: [], rows: [] };
const started = performance.now();

function showError(text) { $("error").textContent = text || ""; }

async function api(path) {
  const r = await fetch(path, { headers: { "X-Barracuda-Token": token } });
  if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.statusText);
  return r;
}

async function control(params) {
  const body = new URLSearchParams(params);
  const r = await fetch("/api/control", {
    method: "POST", body,
    headers: { "X-Barracuda-Token": token, "Content-Type": "application/x-www-form-urlencoded" },
  });
  const answer = await r.json().catch(() => ({}));
  showError(r.ok ? "" : answer.error || r.statusText);
  return r.ok;
}

function sliceRequest() {
  return control({ action: "slice", axis: $("axis").value, index: $("index").value, field: $("field").value });
}

function fitIndex() {
  const n = info.size[Number($("axis").value)];
  const index = $("index");
  index.max = String(n - 1);
  if (Number(index.value) > n - 1) index.value = String(Math.floor(n / 2));
  $("index-value").textContent = index.value;
}

async function loadFrame() {
  if (frameLoading || !status) return;
  const seq = status.frame;
  let query = "";
  if (!$("auto-range").checked) {
    const lo = Number($("lo").value), hi = Number($("hi").value);
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo < hi)) {
      showError("colour range: min and max must be numbers with min < max");
      frameShown = seq;  // asked again when the range or the frame changes
      return;
    }
    query = "?lo=" + encodeURIComponent($("lo").value) + "&hi=" + encodeURIComponent($("hi").value);
  }
  frameLoading = true;
  let failed = false;
  try {
    const r = await api("/api/frame.png" + query);
    const blob = await r.blob();
    if (frameUrl) URL.revokeObjectURL(frameUrl);
    frameUrl = URL.createObjectURL(blob);
    $("frame").src = frameUrl;
    $("frame").dataset.step = r.headers.get("X-Frame-Step") || "";
    $("frame").dataset.frame = String(seq);
    $("range").textContent = "range " + (r.headers.get("X-Frame-Range") || "").replace(",", " … ");
    frameShown = seq;
  } catch (e) {
    showError(String(e.message || e));
    failed = true;
  } finally {
    frameLoading = false;
  }
  // A newer frame came meanwhile: fetch it; after a failure, not before a pause.
  if (status && status.frame !== frameShown) setTimeout(loadFrame, failed ? 500 : 0);
}

function seconds(s) {
  if (s === null || s < 0) return "–";
  if (s < 60) return s.toFixed(0) + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + Math.floor(s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}

function showStatus(s) {
  status = s;
  document.body.dataset.step = String(s.step);
  document.body.dataset.paused = String(s.paused);
  let text = "step " + s.step + " / " + s.total + (s.paused ? "  (paused)" : "") + "\n";
  text += (s.mlups || 0).toFixed(0) + " MLUPS, " + (s.steps_per_second || 0).toFixed(1) + " steps/s, ETA " + seconds(s.eta_seconds);
  if (s.time !== undefined) text += "\nt = " + s.time.toFixed(3) + " s, " + (s.realtime_factor || 0).toFixed(1) + "x real time";
  $("progress").textContent = text;
  $("pause").textContent = s.paused ? "Resume" : "Pause";
  const list = $("events");
  list.replaceChildren(...s.events.slice().reverse().map((e) => {
    const li = document.createElement("li");
    li.textContent = "step " + e.step + ": " + e.text;
    return li;
  }));
  const pace = s.realtime_factor !== undefined ? s.realtime_factor : s.mlups;
  if (!s.paused && pace !== null && pace > 0) {
    speed.columns = [s.realtime_factor !== undefined ? "x real time" : "MLUPS"];
    const last = speed.rows[speed.rows.length - 1];
    if (!last || s.step > last[0]) speed.rows.push([s.step, (performance.now() - started) / 1000, pace]);
    if (speed.rows.length > 3000) speed.rows.splice(0, 1000);
    $("speed-title").textContent = s.realtime_factor !== undefined ? "Speed (x real time)" : "Speed (MLUPS)";
    plot($("speed-plot"), speed);
  }
  if (s.frame !== frameShown) loadFrame();
  if (s.series.forces > series.forces.rows.length || s.series.probes > series.probes.rows.length) loadSeries();
}

let seriesLoading = false;
async function loadSeries() {
  if (seriesLoading) return;
  seriesLoading = true;
  try {
    const r = await api("/api/series?forces=" + series.forces.rows.length + "&probes=" + series.probes.rows.length);
    const data = await r.json();
    for (const name of ["forces", "probes"]) {
      const s = series[name];
      s.columns = data[name].columns;
      if (data[name].from === s.rows.length) for (const r of data[name].rows) s.rows.push(r);
      plot($(name + "-plot"), s);
    }
  } catch (e) {
    showError(String(e.message || e));
  } finally {
    seriesLoading = false;
  }
  // More rows than one reply holds: go on.
  if (status && (status.series.forces > series.forces.rows.length || status.series.probes > series.probes.rows.length))
    setTimeout(loadSeries, 200);
}

const colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

function plot(canvas, s) {
  const g = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, left = 60, bottom = 20;
  g.clearRect(0, 0, w, h);
  if (s.rows.length === 0) {
    g.fillStyle = "#888";
    g.fillText("none in this case", 10, 20);
    return;
  }
  const rows = s.rows.length > 2000 ? s.rows.filter((_, k) => k % Math.ceil(s.rows.length / 2000) === 0) : s.rows;
  const t0 = rows[0][1], t1 = rows[rows.length - 1][1];
  let lo = Infinity, hi = -Infinity;
  for (const r of rows) for (let c = 2; c < r.length; ++c) if (r[c] !== null) { lo = Math.min(lo, r[c]); hi = Math.max(hi, r[c]); }
  if (!(hi > lo)) { hi = lo + 1; }
  const x = (t) => left + (w - left - 5) * (t1 > t0 ? (t - t0) / (t1 - t0) : 0);
  const y = (v) => h - bottom - (h - bottom - 5) * (v - lo) / (hi - lo);
  g.strokeStyle = "#999";
  g.strokeRect(left, 5, w - left - 5, h - bottom - 5);
  g.fillStyle = "#222";
  g.fillText(hi.toPrecision(4), 2, 12);
  g.fillText(lo.toPrecision(4), 2, h - bottom);
  g.fillText(String(t1.toPrecision(5)), w - 60, h - 5);
  for (let c = 2; c < rows[0].length; ++c) {
    g.strokeStyle = colours[(c - 2) % colours.length];
    g.beginPath();
    rows.forEach((r, k) => { if (r[c] === null) return; k ? g.lineTo(x(r[1]), y(r[c])) : g.moveTo(x(r[1]), y(r[c])); });
    g.stroke();
    g.fillStyle = g.strokeStyle;
    g.fillText(s.columns[c - 2] || "", left + 5 + (c - 2) * 100, 16);
  }
}

function buildSteering() {
  const box = $("steering");
  box.replaceChildren();
  for (const s of info.steerables) {
    const row = document.createElement("div");
    row.className = "steer";
    const key = document.createElement("code");
    key.textContent = s.key + (s.name ? " (" + s.name + ")" : "");
    const input = document.createElement("input");
    input.value = s.value;
    input.dataset.key = s.key;
    const unit = document.createElement("span");
    unit.textContent = s.unit;
    const apply = document.createElement("button");
    apply.textContent = "Apply";
    apply.dataset.key = s.key;
    apply.addEventListener("click", () => control({ action: "steer", key: s.key, value: input.value }));
    row.append(key, input, unit, apply);
    box.append(row);
  }
}

async function start() {
  try {
    info = await (await api("/api/info")).json();
  } catch (e) {
    $("progress").textContent = "cannot reach the run: " + (e.message || e);
    return;
  }
  $("title").textContent = info.title || "Barracuda";
  $("engine").textContent = info.engine + " | " + info.size.join(" x ") + " cells";
  for (const f of info.fields) {
    const o = document.createElement("option");
    o.value = f.name;
    o.textContent = f.label;
    $("field").append(o);
  }
  if (info.size[2] === 1) { $("axis").value = "2"; $("axis").disabled = true; }
  else $("axis").value = String(info.slice.axis);
  fitIndex();
  $("index").value = String(info.slice.index);
  $("index-value").textContent = String(info.slice.index);
  buildSteering();

  $("field").addEventListener("change", sliceRequest);
  $("axis").addEventListener("change", () => { fitIndex(); sliceRequest(); });
  $("index").addEventListener("input", () => { $("index-value").textContent = $("index").value; });
  $("index").addEventListener("change", () => { $("index-value").textContent = $("index").value; sliceRequest(); });
  $("auto-range").addEventListener("change", () => {
    const fixed = !$("auto-range").checked;
    $("lo").disabled = !fixed;
    $("hi").disabled = !fixed;
    if (fixed && $("lo").value === "") {
      const [lo, hi] = ($("range").textContent.replace("range ", "").split(" … "));
      $("lo").value = lo; $("hi").value = hi;
    }
    frameShown = -1; loadFrame();
  });
  for (const id of ["lo", "hi"]) $(id).addEventListener("change", () => { frameShown = -1; loadFrame(); });
  $("pause").addEventListener("click", () => control({ action: status && status.paused ? "resume" : "pause" }));
  $("step").addEventListener("click", () => control({ action: "step", steps: $("step-count").value }));
  $("snapshot").addEventListener("click", () => control({ action: "snapshot" }));

  const events = new EventSource("/api/events?token=" + encodeURIComponent(token));
  events.onmessage = (m) => showStatus(JSON.parse(m.data));
  events.onerror = () => {
    if (!$("progress").textContent.includes("connection lost"))
      $("progress").textContent += "\n(connection lost: the run may have ended; retrying)";
  };
  showStatus(await (await api("/api/status")).json());
  loadSeries();
}

start();
