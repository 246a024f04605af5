// The page of `origami serve`: controls from /scene, pictures from /render.png, answers from /hit, reloads
// from /events. Plain script, no build step, nothing from the network but this server.
"use strict";

const $ = (id) => document.getElementById(id);
const client = Math.random().toString(36).slice(2, 12);
let seq = 0;

// The scene as /scene describes it, and the values the controls hold, by query path.
let scene = null;
const values = new Map();       // path -> value (number or "#rrggbb")
const fileValues = new Map();   // path -> the file's value (what `origami render` uses without options)
let time = 0;
let playing = false;
let touch = null;                // {x, y} in canvas points

// ---- numbers and command lines ------------------------------------------------------------------------------

function num(v, digits = 4) {
  if (!Number.isFinite(v)) return String(v);
  const s = v.toFixed(digits).replace(/\.?0+$/, "");
  return s === "-0" ? "0" : s;
}

// Azimuth in the x–y plane from +x, elevation towards +z, in degrees: the inverse of the server's angles.
function direction(azimuth, elevation) {
  const a = azimuth * Math.PI / 180, e = elevation * Math.PI / 180;
  return [Math.cos(e) * Math.cos(a), Math.cos(e) * Math.sin(a), Math.sin(e)];
}

function shellQuote(s) {
  return /^[A-Za-z0-9_\-.,/=:@%+]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
}

// The values that reach the server: every parameter, each lighting field the page changed, and the time.
function sceneQuery() {
  const q = [];
  for (const p of scene.params) q.push([p.name, num(values.get(p.name), 6)]);
  for (const [path, v] of lightingChanges()) q.push([path, v]);
  if (scene.animationEnd != null) q.push(["time", num(time, 4)]);
  return q;
}

// Lighting fields whose control differs from the file, as `--vary` would write them.
function lightingChanges() {
  const out = [];
  for (const lit of scene.lighting) {
    const ambient = lit.prefix + "ambient";
    if (values.get(ambient) !== fileValues.get(ambient)) out.push([ambient, num(values.get(ambient))]);
    for (const light of lit.lights) {
      const az = light.path + ".azimuth", el = light.path + ".elevation";
      if (light.kind === "directional" &&
          (values.get(az) !== fileValues.get(az) || values.get(el) !== fileValues.get(el))) {
        out.push([light.path + ".direction", direction(values.get(az), values.get(el)).map((c) => num(c, 6)).join(",")]);
      }
      const intensity = light.path + ".intensity";
      if (values.get(intensity) !== fileValues.get(intensity)) out.push([intensity, num(values.get(intensity))]);
      const color = light.path + ".color";
      if (values.get(color) !== fileValues.get(color)) out.push([color, values.get(color)]);
    }
  }
  return out;
}

function url(path, extra = []) {
  const q = new URLSearchParams();
  for (const [k, v] of sceneQuery().concat(extra)) q.append(k, v);
  return path + "?" + q.toString();
}

function pixelRatio() { return Math.min(2, Math.max(1, window.devicePixelRatio || 1)); }

// `origami render` (or, with lighting changed, a one-variant `origami sweep`) for the picture, and
// `origami hit` for the touch.
function commands() {
  const file = shellQuote(scene.file);
  const sets = [];
  for (const p of scene.params) {
    if (values.get(p.name) !== p.defaultValue) sets.push("--set", p.name + "=" + num(values.get(p.name), 6));
  }
  const timeArgs = scene.animationEnd != null ? ["--time", num(time, 4)] : [];
  const scale = pixelRatio() !== scene.canvas.scale ? ["--scale", num(pixelRatio())] : [];
  const changes = lightingChanges();
  const lines = [];
  if (changes.length === 0) {
    lines.push(["origami", "render", file, ...sets, ...timeArgs, ...scale].join(" "));
  } else {
    const vary = [];
    for (const [k, v] of changes) vary.push("--vary", shellQuote(k + "=" + v));
    if (timeArgs.length) vary.push("--vary", "time=" + timeArgs[1]);
    lines.push(["origami", "sweep", file, ...sets, ...vary, ...scale].join(" "));
  }
  if (touch) lines.push(["origami", "hit", file, num(touch.x, 2) + "," + num(touch.y, 2), ...sets, ...timeArgs].join(" "));
  return lines.join("\n");
}

// ---- controls -----------------------------------------------------------------------------------------------

function slider(container, { path, label, min, max, step, value, unit, format }) {
  const div = document.createElement("div");
  div.className = "control";
  const id = "c-" + path.replace(/[^A-Za-z0-9_-]/g, "_");
  const text = (v) => (format ? format(v) : num(v)) + (unit ? " " + unit : "");
  div.innerHTML = `<label for="${id}"></label><output></output><input type="range" id="${id}">`;
  div.querySelector("label").textContent = label;
  const input = div.querySelector("input"), out = div.querySelector("output");
  Object.assign(input, { min, max, step: step || "any", value });
  input.dataset.path = path;
  out.textContent = text(value);
  input.addEventListener("input", () => {
    values.set(path, Number(input.value));
    out.textContent = text(Number(input.value));
    changed();
  });
  container.appendChild(div);
}

function colorPicker(container, { path, label, value }) {
  const div = document.createElement("div");
  div.className = "control";
  div.innerHTML = `<label></label><output></output><input type="color">`;
  div.querySelector("label").textContent = label;
  const input = div.querySelector("input");
  input.value = value;
  input.dataset.path = path;
  div.querySelector("output").textContent = value;
  input.addEventListener("input", () => {
    values.set(path, input.value);
    div.querySelector("output").textContent = input.value;
    changed();
  });
  container.appendChild(div);
}

// Builds the controls; a value the user moved survives a reload when its control still exists.
function buildControls(previousFile) {
  const kept = new Map();
  for (const [path, v] of values) if (previousFile.has(path) && previousFile.get(path) !== v) kept.set(path, v);
  values.clear(); fileValues.clear();
  const init = (path, fileValue, startValue = fileValue) => {
    fileValues.set(path, fileValue);
    values.set(path, kept.has(path) ? kept.get(path) : startValue);
    return values.get(path);
  };

  const params = $("params");
  params.replaceChildren();
  for (const p of scene.params) {
    // The file's default is what `--set` is measured against; the page starts at the server's value.
    fileValues.set(p.name, p.defaultValue);
    values.set(p.name, kept.has(p.name) ? kept.get(p.name) : p.value);
    const span = Math.max(1, Math.abs(p.value) * 2);
    slider(params, {
      path: p.name, label: p.label || p.name, unit: p.unit, value: values.get(p.name), step: p.step,
      min: p.min ?? p.value - span, max: p.max ?? p.value + span,
    });
  }
  $("params-section").hidden = scene.params.length === 0;

  const lighting = $("lighting");
  lighting.replaceChildren();
  for (const lit of scene.lighting) {
    const group = document.createElement("div");
    group.className = "group";
    group.innerHTML = `<div class="group-title"></div>`;
    group.querySelector(".group-title").textContent = lit.layer;
    const ambient = lit.prefix + "ambient";
    slider(group, { path: ambient, label: "Ambient", min: 0, max: 1, step: 0.01, value: init(ambient, lit.ambient) });
    for (const light of lit.lights) {
      const name = lit.lights.length > 1 ? `Light ${light.index + 1} ` : "Light ";
      if (light.kind === "directional") {
        const az = light.path + ".azimuth", el = light.path + ".elevation";
        slider(group, { path: az, label: name + "azimuth", min: -180, max: 180, step: 1, unit: "°",
                        value: init(az, Math.round(light.azimuth)), format: (v) => num(v, 0) });
        slider(group, { path: el, label: name + "elevation", min: -90, max: 90, step: 1, unit: "°",
                        value: init(el, Math.round(light.elevation)), format: (v) => num(v, 0) });
      }
      const intensity = light.path + ".intensity";
      slider(group, { path: intensity, label: name + "intensity", min: 0, max: Math.max(2, light.intensity * 2),
                      step: 0.01, value: init(intensity, light.intensity) });
      const color = light.path + ".color";
      colorPicker(group, { path: color, label: name + "colour", value: init(color, light.color) });
    }
    lighting.appendChild(group);
  }
  for (const label of scene.unaddressableLighting) {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = `${label}: lit, but unnamed (or sharing its name), so its lighting cannot be varied here.`;
    lighting.appendChild(note);
  }
  $("lighting-section").hidden = scene.lighting.length === 0 && scene.unaddressableLighting.length === 0;

  const animates = scene.animationEnd != null;
  $("time-section").hidden = !animates;
  if (animates) {
    $("time").max = scene.animationEnd;
    time = Math.min(time, scene.animationEnd);
    $("time").value = time;
    $("time-value").textContent = num(time, 2) + " s";
  } else {
    setPlaying(false);
  }
  $("summary").textContent = scene.summary;
  $("summary-section").hidden = !scene.summary;

  const stage = $("stage"), w = scene.canvas.width, h = scene.canvas.height;
  for (const el of [$("picture"), $("hitmap")]) { el.style.width = w + "px"; el.style.height = h + "px"; }
  stage.style.width = w + "px";
  $("overlay").setAttribute("width", w); $("overlay").setAttribute("height", h);
  $("overlay").setAttribute("viewBox", `0 0 ${w} ${h}`);
}

// ---- requests: one in flight per kind, the newest values win ------------------------------------------------

function requester(fetchOne) {
  let busy = false, again = false;
  return async function run() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      do { again = false; await fetchOne(); } while (again);
    } finally { busy = false; }
  };
}

function status(text, bad = false) {
  $("status").textContent = text;
  $("status").classList.toggle("bad", bad);
}

async function errorText(response) {
  try {
    const e = await response.json();
    return e.error + (e.hint ? ` (${e.hint})` : "");
  } catch { return `HTTP ${response.status}`; }
}

function showImage(img, blob) {
  const old = img.src;
  img.src = URL.createObjectURL(blob);
  if (old.startsWith("blob:")) URL.revokeObjectURL(old);
}

const render = requester(async () => {
  const started = performance.now();
  const response = await fetch(url("/render.png", [["view.scale", num(pixelRatio())], ["view.client", client], ["view.seq", String(++seq)]]));
  if (response.status === 409) return;
  if (!response.ok) { status("render: " + await errorText(response), true); return; }
  const blob = await response.blob();
  const loaded = new Promise((resolve) => { $("picture").onload = resolve; $("picture").onerror = resolve; });
  showImage($("picture"), blob);
  await loaded;
  document.body.dataset.renderedVersion = response.headers.get("X-Scene-Version") || "";
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
  if (!currentError) status(`rendered in ${Math.round(performance.now() - started)} ms`);
});

const hitmap = requester(async () => {
  if (!$("show-hitmap").checked) return;
  const response = await fetch(url("/hitmap.png", [["view.scale", num(pixelRatio())], ["view.client", client + "-map"], ["view.seq", String(++seq)]]));
  if (response.status === 409) return;
  if (!response.ok) { status("hit map: " + await errorText(response), true); return; }
  const loaded = new Promise((resolve) => { $("hitmap").onload = resolve; $("hitmap").onerror = resolve; });
  showImage($("hitmap"), await response.blob());
  await loaded;
  // Shown once there is a map to show (a large one takes a moment), and only while the box is ticked.
  $("hitmap").hidden = !$("show-hitmap").checked;
});

const hit = requester(async () => {
  if (!touch) return;
  const response = await fetch(url("/hit", [["view.x", num(touch.x, 3)], ["view.y", num(touch.y, 3)], ["view.client", client + "-hit"], ["view.seq", String(++seq)]]));
  if (response.status === 409) return;
  if (!response.ok) { status("hit: " + await errorText(response), true); return; }
  showHit(await response.json());
});

function changed() {
  render();
  hitmap();
  hit();
  $("command").textContent = commands();
}

// ---- hit answers --------------------------------------------------------------------------------------------

function showHit(answer) {
  $("hits").hidden = false;
  $("stage-hint").hidden = true;
  $("hit-point").textContent = `(${num(answer.point[0], 1)}, ${num(answer.point[1], 1)})`;
  for (const policy of ["tree", "coreanimation", "frontmost"]) {
    const dl = document.querySelector(`#answer-${policy} dl`);
    dl.replaceChildren();
    const a = answer[policy];
    if (!a) { dl.innerHTML = `<dd class="none">nothing</dd>`; continue; }
    for (const [key, value] of [["layer", a.layer], ["face", a.face], ["solid", a.solid ?? "—"],
                                ["local", `(${num(a.local[0], 2)}, ${num(a.local[1], 2)})`], ["depth", num(a.depth, 2)]]) {
      const dt = document.createElement("dt"); dt.textContent = key;
      const dd = document.createElement("dd"); dd.textContent = value; dd.className = key;
      dl.append(dt, dd);
    }
  }
  const body = document.querySelector("#hit-table tbody");
  body.replaceChildren();
  for (const c of answer.layers) {
    const tr = document.createElement("tr");
    if (c.treeRank === 0 && c.depthRank !== 0) tr.className = "intercepted";
    if (c.culled) tr.className = "culled";
    for (const v of [c.treeRank, c.depthRank + (c.culled ? " (culled)" : ""), c.answer.layer, c.answer.face,
                     c.answer.solid ?? "—", `(${num(c.answer.local[0], 1)}, ${num(c.answer.local[1], 1)})`, num(c.answer.depth, 2)]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  const svg = $("overlay");
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  for (const [outline, cls] of [[answer.seenOutline, "seen"], [answer.receivingOutline, "receiving"]]) {
    if (!outline) continue;
    const poly = document.createElementNS(ns, "polygon");
    poly.setAttribute("points", outline.map((p) => p.join(",")).join(" "));
    poly.setAttribute("class", cls);
    svg.appendChild(poly);
  }
  const dot = document.createElementNS(ns, "circle");
  Object.entries({ cx: answer.point[0], cy: answer.point[1], r: 4, class: "touch" }).forEach(([k, v]) => dot.setAttribute(k, v));
  svg.appendChild(dot);
  $("command").textContent = commands();
}

$("stage").addEventListener("click", (event) => {
  if (!scene) return;
  const rect = $("picture").getBoundingClientRect();
  touch = {
    x: (event.clientX - rect.left) * scene.canvas.width / rect.width,
    y: (event.clientY - rect.top) * scene.canvas.height / rect.height,
  };
  hit();
  $("command").textContent = commands();
});

// ---- time ---------------------------------------------------------------------------------------------------

function setPlaying(on) {
  playing = on;
  $("play").textContent = on ? "❚❚" : "▶";
  $("play").setAttribute("aria-label", on ? "pause" : "play");
  if (on) requestAnimationFrame(tick);
}
let last = null;
function tick(now) {
  if (!playing || !scene || scene.animationEnd == null) { last = null; return; }
  if (last != null) {
    time += (now - last) / 1000 * Number($("speed").value);
    if (time > scene.animationEnd) time = 0;
    $("time").value = time;
    $("time-value").textContent = num(time, 2) + " s";
    changed();
  }
  last = now;
  requestAnimationFrame(tick);
}
$("play").addEventListener("click", () => setPlaying(!playing));
$("time").addEventListener("input", () => {
  time = Number($("time").value);
  $("time-value").textContent = num(time, 2) + " s";
  changed();
});
$("show-hitmap").addEventListener("change", () => {
  if (!$("show-hitmap").checked) $("hitmap").hidden = true;
  hitmap();
});
$("copy").addEventListener("click", async () => {
  const text = $("command").textContent;
  try { await navigator.clipboard.writeText(text); $("copy").textContent = "Copied"; }
  catch {
    const range = document.createRange(); range.selectNodeContents($("command"));
    getSelection().removeAllRanges(); getSelection().addRange(range);
    $("copy").textContent = "Selected: press Ctrl-C";
  }
  setTimeout(() => { $("copy").textContent = "Copy as command"; }, 1500);
});

// ---- the scene and its changes ------------------------------------------------------------------------------

let currentError = null;

function showError(error) {
  currentError = error;
  $("scene-error").hidden = !error;
  document.body.dataset.sceneError = error ? "yes" : "no";
  if (!error) return;
  $("scene-error-title").textContent = error.error;
  $("scene-error-detail").textContent = error.detail || (error.hint ? "hint: " + error.hint : "");
  status("the scene file has an error", true);
}

async function loadScene() {
  const response = await fetch("/scene");
  if (!response.ok) { status("scene: " + await errorText(response), true); return; }
  const previousFile = new Map(fileValues);
  scene = await response.json();
  document.title = scene.file + " — origami serve";
  $("file").textContent = scene.file;
  document.body.dataset.version = String(scene.version);
  buildControls(previousFile);
  showError(scene.error);
  changed();
}

function listen() {
  const events = new EventSource("/events");
  let version = null;
  events.addEventListener("scene", (event) => {
    const data = JSON.parse(event.data);
    document.body.dataset.version = String(data.version);
    if (scene === null || (!data.error && data.version !== version)) {
      // The scene as the server has it now (with a broken file: the last good one, and the error).
      if (version !== null && !data.error) status("reloaded");
      loadScene();
    } else if (data.error) {
      showError(data.error);
    }
    version = data.version;
  });
  events.onerror = () => status("the server is gone: start `origami serve` again and reload", true);
  events.onopen = () => { if (!currentError) status("connected"); };
}

listen();
