// @ts-check
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
//
// A read copies the open containers, so reading after every delta of a
// wide open array or object would cost the square of its width over the
// stream. Past a width (`FREE_WIDTH`), a read copies them only once the
// text read since the last copy pays for it (`WIDTH_PER_UNIT`); until then
// it returns the last value made, which is the value of an earlier cut:
// complete, frozen, never shrinking, behind by at most 1/8 of the width in
// text. The total cost stays linear in the text.
//
// A streaming card reads the value after every delta of a few characters,
// so the constant costs count: characters are compared as codes (no regex,
// no one-character strings), strings without an escape are sliced rather
// than parsed, and an open array keeps a spare last slot so its copy is one
// `slice` of the right length (`concat` measured 2-3x slower in V8).

/** Character codes the reader dispatches on. */
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/**
 * The width of open containers (`#width`) a read may copy whatever the
 * text read since the last copy: 4,096 array elements, or 512 object
 * members (`MEMBER_WIDTH`). Copying them measured a few µs for an array
 * and a few hundred µs for an object in V8, per read.
 */
const FREE_WIDTH = 4096;
/** Past `FREE_WIDTH`, the width a read may copy per UTF-16 unit of text read since the last copy. */
const WIDTH_PER_UNIT = 8;
/** An object member costs about eight array elements to copy (`Object.assign`, measured in V8). */
const MEMBER_WIDTH = 8;

/**
 * An open container. Arrays: `items` holds the complete elements then one
 * spare slot (the element in progress goes there in a copy). Objects:
 * `object` holds the complete members, `size` of them; `key` is the member
 * whose value is awaited (`undefined` while a key is expected); `proto`
 * says an own `__proto__` key is among them. One shape for both keeps the
 * reads monomorphic.
 */
const frame = (items, object) => ({ items, object, size: 0, key: undefined, proto: false });

export class PartialValueBuilder {
  /** Set when a read failed: the caller then parses the prefix whole. */
  broken = false;
  /** Text received and not yet read (starts at UTF-16 offset `#pos`). */
  #tail = "";
  #pos = 0;
  /** Open containers, outermost first. */
  #stack = [];
  /** The top-level value, once complete. */
  #root = undefined;
  /** A string value in progress: the text decoded so far. */
  #string = null;
  /** Whether the string content last scanned holds an escape. */
  #escaped = false;
  /** The last value made, and the text read since (UTF-16 units). */
  #last = undefined;
  /**
   * The open spine of the last value made: the keys and indices from the
   * top-level value to the innermost value still open, or `null` when the
   * top-level value is complete. Every value off it is complete (closed
   * by the text) and never changes again while the call streams.
   * `undefined` while not worked out: that cost about a tenth of a delta
   * read after (`bench/perf/append.mjs`), so it waits to be asked
   * (`openSpine`, right for the last value made until the next read)
   * unless `wantsSpine` is set or the value is wide (its last value may
   * be returned again, see `valueAt`).
   * @type {(string | number)[] | null | undefined}
   */
  spine = null;
  /** Set once a spine was asked for too late: from then on each value made works out its own. */
  wantsSpine = false;
  /** Whether the call's states make their value up front (`ToolCallState#upFront`, snapshot.js). */
  upFront = 0;
  /** The call's state last read through its accessor. @type {object | undefined} */
  readState = undefined;
  /**
   * Whose read made the last value (the reader's mark, see snapshot.js).
   * @type {object | undefined}
   */
  reader = undefined;
  #made = false;
  #sinceMade = 0;
  /** What `#value` copies: the open containers' elements, and their members at `MEMBER_WIDTH`. */
  #width = 0;

  /** Appends text the call received. */
  feed(text) {
    this.#tail += text;
  }

  /** Offset (UTF-16) up to which the text has been read. */
  get position() {
    return this.#pos;
  }

  /**
   * The frozen partial value of the text up to `cut` (at or after
   * `position`); past `FREE_WIDTH`, possibly that of an earlier cut (the
   * last value made: see the top of this file).
   */
  valueAt(cut) {
    const tail = this.#tail;
    const end = cut - this.#pos;
    // The usual read takes all the text received: no slicing then.
    this.#tail = end === tail.length ? "" : tail.slice(end);
    this.#pos = cut;
    this.#read(tail, end);
    this.#sinceMade += end;
    const width = this.#width;
    if (this.#made && width > FREE_WIDTH && this.#sinceMade * WIDTH_PER_UNIT < width && this.spine !== undefined) return this.#last;
    this.#made = true;
    this.#sinceMade = 0;
    this.spine = this.wantsSpine || width > FREE_WIDTH ? this.openSpine() : undefined;
    return (this.#last = this.#value());
  }

  /** The open spine now (see `spine`): each open container's member in progress, and the string value in progress. */
  openSpine() {
    const stack = this.#stack;
    if (stack.length === 0) return this.#string !== null ? [] : null;
    const spine = [];
    for (let d = 0; d < stack.length; d++) {
      const open = stack[d];
      if (d < stack.length - 1 || this.#string !== null) spine.push(open.items !== null ? open.items.length - 1 : open.key);
    }
    return spine;
  }

  /** Reads `s` up to `end` (exclusive). */
  #read(s, end) {
    let i = this.#string === null ? 0 : this.#continueString(s, 0, end);
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        i = this.#stringToken(s, i, end);
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.#stack.push(c === OPEN_ARRAY ? frame([undefined], null) : frame(null, {}));
        i++;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        const top = this.#stack.pop();
        if (top.items !== null) top.items.pop();
        this.#width -= top.items !== null ? top.items.length : top.size * MEMBER_WIDTH;
        this.#attach(Object.freeze(top.items ?? top.object));
        i++;
      } else if (c === COMMA || c === COLON || c <= 32) {
        // `,`, `:` and whitespace (checked JSON has no other character below
        // 33 outside strings): an object expects a key exactly when `key` is unset.
        i++;
      } else {
        // A number or a literal: whole, up to the next delimiter.
        let j = i + 1;
        while (j < end && !isDelimiter(s.charCodeAt(j))) j++;
        this.#attach(JSON.parse(s.slice(i, j)));
        i = j;
      }
    }
  }

  /** A string token starting at `i`: a key, a whole value, or the value in progress. */
  #stringToken(s, i, end) {
    const close = this.#scanString(s, i + 1, end);
    const value = this.#content(s, i + 1, close);
    if (close === end) {
      this.#string = value;
      return end;
    }
    const top = this.#stack[this.#stack.length - 1];
    if (top !== undefined && top.object !== null && top.key === undefined) top.key = value;
    else this.#attach(value);
    return close + 1;
  }

  /** More of the string value in progress, from `i`; ends it at its closing quote. */
  #continueString(s, i, end) {
    const close = this.#scanString(s, i, end);
    if (close > i) this.#string += this.#content(s, i, close);
    if (close === end) return end;
    const value = this.#string;
    this.#string = null;
    this.#attach(value);
    return close + 1;
  }

  /**
   * The end of the string content starting at `i`: the index of its closing
   * quote, or `end` if it goes on. Notes whether the content holds an escape.
   */
  #scanString(s, i, end) {
    let escaped = false;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) break;
      // An escape is whole (`\"` is not a closing quote; `\u` is followed by hex digits only).
      if (c === BACKSLASH) {
        escaped = true;
        i += 2;
      } else i++;
    }
    if (i > end) throw new SyntaxError("an escape cut in two");
    this.#escaped = escaped;
    return i;
  }

  /** The string content from `i` to `end`: itself unless it holds an escape (checked JSON has no raw control character). */
  #content(s, i, end) {
    return this.#escaped ? JSON.parse(`"${s.slice(i, end)}"`) : s.slice(i, end);
  }

  #attach(value) {
    const top = this.#stack[this.#stack.length - 1];
    if (top === undefined) this.#root = value;
    else if (top.items !== null) {
      // The spare slot takes the element, and a new spare slot follows it.
      top.items[top.items.length - 1] = value;
      top.items.push(undefined);
      this.#width++;
    } else {
      if (define(top.object, top.key, value)) top.proto = true;
      top.key = undefined;
      top.size++;
      this.#width += MEMBER_WIDTH;
    }
  }

  /**
   * The value: complete parts shared, the open path copied and frozen.
   * Objects are copied by `Object.assign`, measured 10x faster than a
   * spread then a new key (V8); an object with an own `__proto__` key is
   * spread, which `Object.assign` would turn into a prototype.
   */
  #value() {
    let child = this.#string ?? undefined;
    for (let d = this.#stack.length - 1; d >= 0; d--) {
      const open = this.#stack[d];
      let copy;
      if (open.items !== null) {
        copy = open.items.slice();
        if (child === undefined) copy.pop();
        else copy[copy.length - 1] = child;
      } else {
        copy = open.proto ? { ...open.object } : Object.assign({}, open.object);
        if (child !== undefined) define(copy, open.key, child);
      }
      child = Object.freeze(copy);
    }
    return this.#stack.length || this.#string !== null ? child : this.#root;
  }
}

/** What ends a number or a literal: `,`, `]`, `}` or whitespace. */
const isDelimiter = (c) => c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT || c <= 32;

/**
 * Sets a member as JSON.parse does: `__proto__` is an own key like any
 * other. Says whether the key was `__proto__`.
 */
function define(object, key, value) {
  if (key !== "__proto__") {
    object[key] = value;
    return false;
  }
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  return true;
}

