// A `node --test` reporter that writes one line per test file, its path and
// wall milliseconds, for the summary `npm test` prints at its end.
export default async function* suiteTimes(source) {
  for await (const event of source) {
    // A file's own completion carries the file's path as its name.
    if (event.type === "test:complete" && event.data.nesting === 0 && event.data.name === event.data.file) {
      yield `${event.data.details.duration_ms.toFixed(0)}\t${event.data.file}\n`;
    }
  }
}
