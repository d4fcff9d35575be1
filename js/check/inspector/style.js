// @ts-check
// The inspector's own style, on top of the report's (report/html.js). The
// sticky replay panel is capped at 40% of the window and scrolls inside, so
// a snapshot of many calls never covers the section's own controls.
export const INSPECTOR_CSS = `
.drop { border: 2px dashed var(--line); border-radius: 8px; padding: 1rem; color: var(--muted); }
.drop.over { border-color: var(--violation); color: var(--fg); }
.pick { text-decoration: underline; cursor: pointer; }
.scrub { position: sticky; top: 0; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem; margin: .6rem 0; z-index: 1; max-height: 40vh; display: flex; flex-direction: column; box-sizing: border-box; }
.scrub .snapshot { overflow: auto; min-height: 0; flex: 1 1 auto; }
.scrub input[type=range] { width: 100%; }
.snap-calls { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); gap: .5rem; }
.snap-call { border: 1px solid var(--line); border-radius: 6px; padding: .4rem .6rem; }
.status { color: var(--muted); }
`;
