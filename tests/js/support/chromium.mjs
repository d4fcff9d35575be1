// Headless Debian Chromium through playwright-core (never a downloaded browser);
// playwright gives each launch a new empty profile. `args` adds command-line
// switches (the benchmarks' V8 flags, `--js-flags=...`).
import { chromium } from "playwright-core";

export async function launchChromium({ args = [] } = {}) {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...args,
    ],
  });
}
