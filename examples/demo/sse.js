// A small reader of `text/event-stream` for the page's own use: it yields the
// JSON of each `data:` event so the chat can show the assistant's text. The
// tool calls do not come from here: the tracker reads the same bytes itself.
export class SseEvents {
  #decoder = new TextDecoder();
  #buffer = "";
  #data = [];

  /** Reads one chunk (split anywhere) and returns the events it completed. */
  push(chunk) {
    this.#buffer += typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    const events = [];
    // A line ends at CR, LF or CRLF; a CR at the very end may be half of a CRLF, so it waits.
    const lineEnd = /\r\n|\n|\r(?!$)/g;
    let start = 0;
    for (let m = lineEnd.exec(this.#buffer); m; m = lineEnd.exec(this.#buffer)) {
      this.#line(this.#buffer.slice(start, m.index), events);
      start = m.index + m[0].length;
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  #line(line, events) {
    if (line === "") {
      if (this.#data.length > 0) events.push(parse(this.#data.join("\n")));
      this.#data = [];
    } else if (line.startsWith("data:")) {
      this.#data.push(line.slice(line[5] === " " ? 6 : 5));
    }
  }
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null; // the tracker reports unparseable events; the chat just skips them
  }
}
