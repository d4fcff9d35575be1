// Just enough of `node:test` to run the package's Node test files in a
// browser page: `test(name, fn)` registers, `run()` runs them in order.
const registered = [];

export function test(name, fn) {
  registered.push({ name, fn });
}

/** Runs every registered test; resolves to [{ name, ok, error? }]. */
export async function run() {
  const results = [];
  for (const { name, fn } of registered) {
    try {
      await fn();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, error: String(error?.stack ?? error) });
    }
  }
  return results;
}
