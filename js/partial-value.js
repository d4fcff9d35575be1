// The partial value of an open call's arguments, built incrementally.
//
// The core says how much of the text is usable (`cut`, in UTF-16 units) and
// what closes it (`suffix`). Parsing `text.slice(0, cut) + suffix` on every
// read would cost the whole text each time; this builder reads only the text
// between the previous cut and the new one, keeps the containers still open
// (everything else in the value is complete, frozen and shared from one
// value to the next), and copies just the open path: a read costs the new
// text plus the width of the open containers.
//
// Cuts fall between tokens or inside a string value, after whole escapes,
// and the core has checked the syntax, so the tokens met here are whole and
// well-formed; anything unexpected sends the caller back to `JSON.parse`.

/** JSON's whitespace: space, tab, LF, CR. */
const isWhitespace = (c) => c === " " || c === "\n" || c === "\r" || c === "\t";

export class PartialValueBuilder {
  /** Set when a read failed: the caller then parses the prefix whole. */
  broken = false;
  /** Text received and not yet read (starts at UTF-16 offset `#pos`). */
  #tail = "";
  #pos = 0;
  /** Open containers, outermost first: { items } for arrays, { object, key, expectKey } for objects. */
  #stack = [];
  /** The top-level value, once complete. */
  #root = undefined;
  /** A string value in progress: the text decoded so far. */
  #string = null;

  /** Appends text the call received. */
  feed(text) {
    this.#tail += text;
  }

  /** Offset (UTF-16) up to which the text has been read. */
  get position() {
    return this.#pos;
  }

  /** The frozen partial value of the text up to `cut` (at or after `position`). */
  valueAt(cut) {
    const region = this.#tail.slice(0, cut - this.#pos);
    this.#tail = this.#tail.slice(cut - this.#pos);
    this.#pos = cut;
    this.#read(region);
    return this.#value();
  }

  #read(s) {
    let i = 0;
    if (this.#string !== null) i = this.#continueString(s, 0);
    while (i < s.length) {
      const c = s[i];
      if (c === "{") {
        this.#stack.push({ object: {}, key: undefined, expectKey: true });
        i++;
      } else if (c === "[") {
        this.#stack.push({ items: [] });
        i++;
      } else if (c === "}" || c === "]") {
        const frame = this.#stack.pop();
        this.#attach(Object.freeze(frame.items ?? frame.object));
        i++;
      } else if (c === ",") {
        const top = this.#stack.at(-1);
        if (top.object) top.expectKey = true;
        i++;
      } else if (c === ":" || isWhitespace(c)) {
        i++;
      } else if (c === '"') {
        i = this.#stringToken(s, i);
      } else {
        let j = i + 1;
        while (j < s.length && /[0-9a-zA-Z+\-.]/.test(s[j])) j++;
        this.#attach(JSON.parse(s.slice(i, j)));
        i = j;
      }
    }
  }

  /** A string token starting at `i`: a key, a whole value, or the value in progress. */
  #stringToken(s, i) {
    const end = closingQuote(s, i + 1);
    const top = this.#stack.at(-1);
    if (end < 0) {
      this.#string = "";
      return this.#continueString(s, i + 1);
    }
    const value = JSON.parse(s.slice(i, end + 1));
    if (top?.object && top.expectKey) {
      top.key = value;
      top.expectKey = false;
    } else {
      this.#attach(value);
    }
    return end + 1;
  }

  /** More of the string value in progress, from `i`; ends it at its closing quote. */
  #continueString(s, i) {
    const end = closingQuote(s, i);
    const raw = s.slice(i, end < 0 ? s.length : end);
    // Checked JSON holds no raw control character: text without an escape is its own value.
    this.#string += raw.includes("\\") ? JSON.parse(`"${raw}"`) : raw;
    if (end < 0) return s.length;
    const value = this.#string;
    this.#string = null;
    this.#attach(value);
    return end + 1;
  }

  #attach(value) {
    const top = this.#stack.at(-1);
    if (top === undefined) this.#root = value;
    else if (top.items) top.items.push(value);
    else {
      define(top.object, top.key, value);
      top.key = undefined;
    }
  }

  /**
   * The value: complete parts shared, the open path copied and frozen.
   * Copies by `concat` and `Object.assign`, measured 1.5x and 10x faster
   * than `slice` + `push` and a spread then a new key (V8); an object
   * with an own `__proto__` key is spread, which `Object.assign` would
   * turn into a prototype.
   */
  #value() {
    let child = this.#string ?? undefined;
    for (let d = this.#stack.length - 1; d >= 0; d--) {
      const frame = this.#stack[d];
      let copy;
      if (frame.items) {
        copy = child === undefined ? frame.items.slice() : frame.items.concat([child]);
      } else {
        copy = Object.hasOwn(frame.object, "__proto__") ? { ...frame.object } : Object.assign({}, frame.object);
        if (child !== undefined) define(copy, frame.key, child);
      }
      child = Object.freeze(copy);
    }
    return this.#stack.length || this.#string !== null ? child : this.#root;
  }
}

/** Sets a member as JSON.parse does: `__proto__` is an own key like any other. */
function define(object, key, value) {
  if (key === "__proto__") Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/** The index of the quote that closes a string whose content starts at `i`, or -1. */
function closingQuote(s, i) {
  for (let j = s.indexOf('"', i); j >= 0; j = s.indexOf('"', j + 1)) {
    let backslashes = 0;
    while (j - backslashes - 1 >= i && s[j - backslashes - 1] === "\\") backslashes++;
    if (backslashes % 2 === 0) return j;
  }
  return -1;
}
