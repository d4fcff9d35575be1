// @ts-check
// Which line of the input each event started on, kept as runs of events
// whose lines advance by a constant step: a regular recording (one event a
// line, or one `data:` line and a blank line an event) costs a few numbers
// however long it is; an irregular one costs at most three numbers an event.

/** Event index -> line number (1-based) of the line the event began on. */
export class LineMap {
  #starts = []; // first event index of each run
  #lines = []; // line of that first event
  #steps = []; // lines between consecutive events of the run (null: one event so far)
  #count = 0;
  #last = 0;

  /** Records the line of the next event. */
  record(line) {
    const n = this.#steps.length;
    if (n > 0) {
      const step = this.#steps[n - 1];
      if (step === null) {
        this.#steps[n - 1] = line - this.#last;
        return this.#advance(line);
      }
      if (line - this.#last === step) return this.#advance(line);
    }
    this.#starts.push(this.#count);
    this.#lines.push(line);
    this.#steps.push(null);
    this.#advance(line);
  }

  #advance(line) {
    this.#last = line;
    this.#count++;
  }

  /** How many events were recorded. */
  get size() {
    return this.#count;
  }

  /** The line event `index` began on, or null when it was never recorded. */
  lineOf(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this.#count) return null;
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.#lines[lo] + (index - this.#starts[lo]) * (this.#steps[lo] ?? 0);
  }
}
