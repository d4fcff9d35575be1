// @ts-check
// A violation's message without the "event N: " the core puts first: the
// reports name the event next to the line already.

/** The message of `v`, without a leading "event <its index>: ". */
export function plainMessage(v) {
  const prefix = `event ${v.eventIndex}: `;
  return v.message.startsWith(prefix) ? v.message.slice(prefix.length) : v.message;
}
