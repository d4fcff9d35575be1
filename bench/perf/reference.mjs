// What the bench uses of the reference consumer, @ag-ui/client 1.0 (and
// the rxjs Subject that feeds it): imported as is in Node, bundled for the
// Chromium page (bench/perf.bench.mjs).
export { AbstractAgent, defaultApplyEvents, transformHttpEventStream, verifyEvents } from "@ag-ui/client";
export { Subject } from "rxjs";
