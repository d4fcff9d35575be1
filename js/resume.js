// @ts-check
// The `resume` list nextRun sends (rule I5): one entry per open interrupt
// the application resolved or cancelled, in the interrupts' order, in the
// shape of @ag-ui/core 1.0's `ResumeEntry`. The core refuses the input
// after, naming each interrupt it leaves uncovered.

/**
 * `given` (the input's own `resume`, kept: the application's entries win)
 * completed with an entry for each decided interrupt it does not name;
 * `undefined` when there is nothing to send and nothing was given.
 */
export function resumeList(given, interrupts) {
  if (given != null && !Array.isArray(given)) return given; // startRun names what is wrong with it
  const list = given == null ? [] : [...given];
  const named = new Set(list.map((e) => e?.interruptId));
  for (const { interrupt, status, payload } of interrupts) {
    if (status === "open" || named.has(interrupt.id)) continue;
    list.push({ interruptId: interrupt.id, status, ...(payload !== undefined && { payload }) });
  }
  return list.length > 0 || given != null ? list : given;
}
