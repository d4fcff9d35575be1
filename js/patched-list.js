// @ts-check
// A long thread's lists as a few edits over an earlier list.
//
// Every event that changes a call makes a new frozen snapshot, and its
// lists (`calls`, `completedCalls`, ...) hold the call's new state. A copy
// of each list it changes made a chunk's cost grow with the thread (rule
// N1): with 4,000 calls, copying and freezing one list cost 8.7 µs, more
// than the rest of the event. So a long list is changed by recording the
// edit over the list it came from, and made into a frozen array when first
// read (a binding reads once a frame, a card reads its one call). After a
// bounded number of edits the next list is made at once, so a list that is
// never read costs one copy per `MAX_EDITS` changes, and one that is read
// becomes the base of the next edits.

/**
 * Below this length a list is copied at once: the copy costs less than the
 * accessor a snapshot needs for a list made on first read. Above it the
 * copy grows with the thread (with 3,000 earlier calls, a delta that
 * copied `calls` cost 2.2x the same delta with none, in Node).
 */
export const PATCH_FROM = 128;
/** At most this many edits over one base; one more makes the list. */
const MAX_EDITS = 32;
/**
 * A delta's edits go over a list with more than this many edits as a
 * level of their own (see `replaced`), and back into it past this many.
 */
const FEW_EDITS = 4;

/** Replaces the item at `at` (or appends it, at the list's length). */
export const SET = 0;
/** Inserts the item at `at`, moving the ones after it. */
export const INSERT = 1;
/** Removes the item at `at`. */
export const REMOVE = 2;

/**
 * Edits, applied in order, as a flat list of triples: what each does
 * (`SET`, `INSERT`, `REMOVE`), where, and the item it puts there
 * (`undefined` for a removal). Flat, so that an edit costs no array of
 * its own: a delta's path makes one per event.
 * @typedef {readonly any[]} Edits
 */
/**
 * A frozen array, or the same list as edits over one, made when read.
 * @template T
 * @typedef {readonly T[] | PatchedList<T>} List
 */

/**
 * A list as edits over a frozen base, made into a frozen array once, when
 * first read (`items`); then it drops the base and the edits.
 * @template T
 */
export class PatchedList {
  /**
   * The list edited: an array, or a patched list over one (a delta's
   * edits over a record's, see `replaced`); never deeper.
   * @type {List<T> | undefined}
   */
  #base;
  /** @type {Edits} */
  #edits;
  /** @type {readonly T[] | undefined} */
  #made;
  #length;

  /**
   * @param {List<T>} base
   * @param {Edits} edits
   * @param {number} length
   */
  constructor(base, edits, length) {
    this.#base = base;
    this.#edits = edits;
    this.#length = length;
  }

  /** The list as a frozen array, made once. */
  items() {
    if (this.#made === undefined) {
      const base = /** @type {List<T>} */ (this.#base);
      // Over a record's edits, one copy: that list is made when read itself.
      if (!(base instanceof PatchedList)) this.#made = made(base, this.#edits);
      else if (base.#made !== undefined) this.#made = made(base.#made, this.#edits);
      else this.#made = made(/** @type {readonly T[]} */ (base.#base), base.#edits, this.#edits);
      // The array holds the items now: the base and the replaced items are
      // no longer kept alive by this list.
      this.#base = undefined;
      this.#edits = [];
    }
    return this.#made;
  }

  /**
   * `list` after `edits`, applied in order.
   * @template T
   * @param {List<T>} list
   * @param {Edits} edits
   * @returns {List<T>}
   */
  static edited(list, edits) {
    if (list instanceof PatchedList) {
      if (list.#made !== undefined) return PatchedList.edited(list.#made, edits);
      // A delta's edits over a record's: one level again.
      if (list.#base instanceof PatchedList) return PatchedList.edited(list.#base, merged(list.#edits, edits));
      const all = merged(list.#edits, edits);
      const base = /** @type {readonly T[]} */ (list.#base);
      return all.length > 3 * MAX_EDITS ? made(base, all) : new PatchedList(base, all, lengthAfter(list.#length, edits));
    }
    if (list.length < PATCH_FROM) return made(list, edits);
    return new PatchedList(list, edits, lengthAfter(list.length, edits));
  }

  /**
   * `list` with `item` at `at`: `edited` with one `SET`, on a delta's
   * path. A short list is copied without the edit's array. A delta
   * copies the edits it goes over, so over a list with many (a long
   * thread's records since it was made) its edits are a level of their
   * own, and a delta copies those few.
   * @template T
   * @param {List<T>} list
   * @param {number} at
   * @param {T} item
   * @returns {List<T>}
   */
  static replaced(list, at, item) {
    if (!(list instanceof PatchedList) && list.length < PATCH_FROM) {
      const next = [...list];
      next[at] = item;
      return Object.freeze(next);
    }
    const edit = [SET, at, item];
    if (list instanceof PatchedList && list.#made === undefined) {
      const length = Math.max(list.#length, at + 1);
      if (list.#edits.length <= 3 * FEW_EDITS) return new PatchedList(/** @type {List<T>} */ (list.#base), merged(list.#edits, edit), length);
      if (!(list.#base instanceof PatchedList)) return new PatchedList(list, edit, length);
    }
    return PatchedList.edited(list, edit);
  }

  /**
   * `list[index]`, without making it. For a list edited by `SET` alone
   * (`calls`): an insertion or a removal moves the indices.
   * @template T
   * @param {List<T>} list
   * @param {number} index
   * @returns {T | undefined}
   */
  static at(list, index) {
    return list instanceof PatchedList ? list.#at(index) : list[index];
  }

  /**
   * `at` for a patched list.
   * @param {number} index
   * @returns {T | undefined}
   */
  #at(index) {
    if (this.#made !== undefined) return this.#made[index];
    const edits = this.#edits;
    for (let i = edits.length - 3; i >= 0; i -= 3) if (edits[i + 1] === index) return edits[i + 2];
    return PatchedList.at(/** @type {List<T>} */ (this.#base), index);
  }

  /**
   * `list.length`, without making it.
   * @param {List<unknown>} list
   */
  static size(list) {
    return list instanceof PatchedList ? list.#length : list.length;
  }

  /**
   * The list as a frozen array (made, if it is a patched one).
   * @template T
   * @param {List<T>} list
   * @returns {readonly T[]}
   */
  static items(list) {
    return list instanceof PatchedList ? list.items() : list;
  }
}

/**
 * A frozen copy of `base` with `edits`, then `more`, applied.
 * @template T
 * @param {readonly T[]} base
 * @param {Edits} edits
 * @param {Edits} [more]
 * @returns {readonly T[]}
 */
function made(base, edits, more) {
  // Spread, not `slice`: engines take a slow path for `slice` on frozen
  // arrays (measured 30-50x slower at 200 items).
  const next = [...base];
  apply(next, edits);
  if (more !== undefined) apply(next, more);
  return Object.freeze(next);
}

/**
 * Applies `edits` to `list`, in order.
 * @param {any[]} list
 * @param {Edits} edits
 */
function apply(list, edits) {
  for (let i = 0; i < edits.length; i += 3) {
    const kind = edits[i];
    if (kind === SET) list[edits[i + 1]] = edits[i + 2];
    else if (kind === INSERT) list.splice(edits[i + 1], 0, edits[i + 2]);
    else list.splice(edits[i + 1], 1);
  }
}

/**
 * Where among `edits` the `SET` of `at` is that no insertion or removal
 * has moved since (so a later `SET` of `at` may replace it), or -1.
 * @param {Edits} edits
 * @param {number} at
 */
function lastSet(edits, at) {
  for (let i = edits.length - 3; i >= 0 && edits[i] === SET; i -= 3) if (edits[i + 1] === at) return i;
  return -1;
}

/**
 * `before` then `edits`, where a `SET` replaces an earlier `SET` of the
 * same place (see `lastSet`): a call streaming its arguments stays one
 * edit however many deltas it gets.
 * @param {Edits} before
 * @param {Edits} edits
 */
function merged(before, edits) {
  const all = [...before];
  for (let i = 0; i < edits.length; i += 3) {
    const last = edits[i] === SET ? lastSet(all, edits[i + 1]) : -1;
    if (last >= 0) all[last + 2] = edits[i + 2];
    else all.push(edits[i], edits[i + 1], edits[i + 2]);
  }
  return all;
}

/**
 * The length of a list of `length` items after `edits`.
 * @param {number} length
 * @param {Edits} edits
 */
function lengthAfter(length, edits) {
  for (let i = 0; i < edits.length; i += 3) {
    if (edits[i] === INSERT) length++;
    else if (edits[i] === REMOVE) length--;
    else if (edits[i + 1] >= length) length = edits[i + 1] + 1;
  }
  return length;
}
