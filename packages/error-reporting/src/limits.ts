/** The error reporter's limits (spec §9), for the browser and the servers alike. */

/** Reports sent per minute by one reporter (one page, one server process); the rest are dropped. */
export const ITEMS_PER_MINUTE = 60;
/** Telemetry (the last events before an error: navigations, failed calls, logs) kept and sent with a report. */
export const MAX_TELEMETRY_EVENTS = 100;
/** Largest report sent: a bigger one is shrunk (telemetry, long strings, frames), or cut down to its message. */
export const MAX_PAYLOAD_BYTES = 524_288;
/** Context strings (the page or operation, tags, extra values, telemetry) are cut to this length. */
export const MAX_CONTEXT_LENGTH = 255;
/** What replaces a scrubbed value. */
export const FILTERED = '[Filtered]';
