// @ts-check
// What reaches a terminal from a recording: ids, messages, URLs, content
// types, parse errors. Any of them may hold ESC, BEL or the C1 CSI (U+009B),
// which a terminal obeys: `\x1b]0;...\x07` retitles it, `\x1b[1A\x1b[2K`
// erases the line above (a `fatal[...]` one). The text report and every
// line on standard error pass their recording-derived strings through here.

/** C0 controls, DEL and C1 controls. */
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;

/**
 * `text` with every C0 control (tab and line feed too: a line of the report
 * must not be forged), DEL and C1 control written as a visible `\xNN`.
 *
 * ```js
 * escapeControls("a\x1b]0;OWNED\x07"); // "a\\x1b]0;OWNED\\x07"
 * ```
 */
export function escapeControls(text) {
  return String(text).replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** A copy of `value` (a result, or any part of one) with every string in it escaped. */
export function escapeDeep(value) {
  if (typeof value === "string") return escapeControls(value);
  if (Array.isArray(value)) return value.map(escapeDeep);
  if (value !== null && typeof value === "object") {
    const out = {};
    for (const [key, v] of Object.entries(value)) out[key] = escapeDeep(v);
    return out;
  }
  return value;
}

/**
 * JSON text with DEL and the C1 controls written as `\u00NN` escapes (JSON.stringify
 * leaves them raw; they only occur inside strings, where the escape means the same).
 */
export function escapeJsonControls(json) {
  return json.replace(/[\x7f-\x9f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}
