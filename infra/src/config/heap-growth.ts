/**
 * How far V8 lets a heap grow past what it kept at its last full collection before it marks the
 * whole heap again.
 *
 * With the portal's 512 MB heap limit V8 allows at most ~1.3× the live size, so the sync's main
 * thread (~50 MB live: the API, the projections, a batch of messages in flight) was marked again as
 * soon as a few tens of MB had been allocated: 267 full collections in a 90 s sync of a million aids,
 * one every third of a second, which took V8's helper threads about a fifth of the process's CPU.
 * Growing to twice the live size, 26–43 of them; the sync used ~13 % less CPU (a million generated
 * aids, same machine, same process otherwise). The limit stays the configured maximum: a heap near
 * it is collected as before.
 */
import v8 from 'node:v8';

/** The heap's limit after a full collection: live size × (1 + this / 100). */
export const HEAP_GROWING_PERCENT = 100;

/**
 * For the processes that sync, project or rebuild (bulk work, not latency): call first thing. V8
 * reads the flag at each full collection, for every isolate of the process (the parser and index
 * writer threads too); `--heap-growing-percent` is not accepted in NODE_OPTIONS, hence here.
 */
export function growHeapForBulkWork(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
