// @ts-check
// The inspector page: checks the files the server names, and any file
// dropped or picked, in this page with the package's wasm (nothing is
// uploaded), shows what the HTML report shows, and replays a stream: a
// scrubber over the event index shows the snapshot a UI had at that event.
import { ToolCallTracker } from "../../index.js";
import { chunksOf } from "../bytes.js";
import { checkChunks } from "../stream.js";
import { countVerdicts } from "../diagnostics.js";
import { renderSnapshot, renderStream, summaryLine, timelineOf } from "../report/html.js";

/** Events kept per stream for the timeline and the replay. */
const MAX_EVENTS = 20_000;

const config = JSON.parse(document.getElementById("config").textContent);
const resultsBox = document.getElementById("results");
const all = [];
let checking = 0;

/** Checks one input and shows its streams; `chunks` is async iterable. */
async function checkOne(name, chunks) {
  checking++;
  document.body.dataset.state = "checking";
  try {
    const results = await checkChunks(name, chunks, config.options, { limits: config.limits, collect: { maxEvents: MAX_EVENTS } });
    for (const result of results) show(result);
  } catch (error) {
    show({ label: name, verdict: "unreadable", error: `${name}: ${error.message}`, notes: [] });
  } finally {
    checking--;
    if (checking === 0) document.body.dataset.state = "ready";
  }
}

function show(result) {
  const n = all.length;
  all.push(result);
  const box = document.createElement("div");
  box.className = "result";
  box.innerHTML = renderStream(result, n);
  resultsBox.append(box);
  const totals = countVerdicts(all);
  document.getElementById("totals").textContent = summaryLine(totals);
  document.body.dataset.checked = String(all.length);
  if (result.events && result.events.length > 0) addScrubber(box, result, n);
  for (const boxToggle of box.querySelectorAll(".only-marked")) {
    const toggle = /** @type {HTMLInputElement} */ (boxToggle);
    const table = /** @type {HTMLTableElement} */ (box.querySelector(".timeline"));
    toggle.addEventListener("change", () => {
      for (const row of table.tBodies[0].rows) row.hidden = toggle.checked && !row.classList.contains("marked");
    });
  }
}

/** The replay: a tracker fed up to the scrubber's event, refed from the start when it moves back. */
function addScrubber(box, result, n) {
  const rows = timelineOf(result).rows;
  const last = result.events.length - 1;
  const panel = document.createElement("div");
  panel.className = "scrub";
  panel.innerHTML =
    `<label>Replay: event <output>${last}</output> of ${last} <input type="range" min="0" max="${last}" value="${last}" step="1" aria-label="event index"></label>` +
    `<div class="snapshot"></div>`;
  const section = box.querySelector("section");
  section.insertBefore(panel, section.querySelector(".calls, .none"));
  const range = panel.querySelector("input");
  const output = panel.querySelector("output");
  const view = panel.querySelector(".snapshot");
  let tracker = null;
  let at = -1;
  let stopped = false;
  const fresh = () => {
    tracker?.free?.();
    tracker = new ToolCallTracker(config.options);
    at = -1;
    stopped = false;
  };
  const moveTo = (index) => {
    if (tracker === null || index < at) fresh();
    while (at < index) {
      at++;
      if (stopped) continue;
      try {
        tracker.pushJson(result.events[at].text);
      } catch {
        stopped = true; // a fatal error: the tracker refuses the rest, as a UI's would
      }
    }
    output.textContent = String(index);
    view.innerHTML = renderSnapshot(tracker.snapshot(), index, rows[index]);
    for (const row of box.querySelectorAll("tr.current")) row.classList.remove("current");
    const row = box.querySelector(`#s${n}-e${index}`);
    row?.classList.add("current");
    row?.scrollIntoView({ block: "nearest" });
  };
  range.addEventListener("input", () => moveTo(Number(range.value)));
  moveTo(last);
}

async function checkGiven() {
  const inputs = await (await fetch("/inputs.json")).json();
  for (const input of inputs) {
    const response = await fetch(`/inputs/${input.id}`);
    if (!response.ok) {
      show({ label: input.name, verdict: "unreadable", error: `${input.name}: ${await response.text()}`, notes: [] });
      continue;
    }
    await checkOne(input.name, chunksOf(response.body));
  }
}

function checkFiles(files) {
  return Promise.all([...files].map((file) => checkOne(file.name, chunksOf(file.stream()))));
}

const drop = document.getElementById("drop");
drop.addEventListener("dragover", (e) => {
  e.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  checkFiles(e.dataTransfer.files);
});
document.getElementById("pick").addEventListener("change", (e) => checkFiles(/** @type {HTMLInputElement} */ (e.target).files));

checkGiven()
  .catch((error) => show({ label: "inputs", verdict: "unreadable", error: String(error.message), notes: [] }))
  .finally(() => {
    if (checking === 0) document.body.dataset.state = "ready";
  });
