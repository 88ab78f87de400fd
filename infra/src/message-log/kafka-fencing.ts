/**
 * Fencing on Kafka, checked where the messages are read. A Kafka producer cannot be refused by an
 * application's token (that needs transactions, which librdkafka's mock cannot serve), but a partition
 * is one total order that every consumer reads the same way: so the lease holder's token travels in
 * each message's headers, a new holder first writes a marker with its token to every partition of the
 * topic, and a consumer drops any message whose token is older than one it has already read on that
 * partition. A former holder that wakes up after its successor began sends messages that land after
 * the successor's marker: no consumer ever delivers them. Messages it wrote before the marker were
 * written before its successor began, and are delivered, as the embedded log would have accepted them.
 *
 * What a consumer has read of the fences (per lease, the highest token) is committed with its offset,
 * in the offset's metadata, so that a consumer resuming after the marker still knows it.
 */
import { assertFence, type Fence } from '../fencing';

/** Header naming the lease whose holder wrote the message, and the holder's token. */
export const FENCE_LEASE_HEADER = 'rna-fence-lease';
export const FENCE_TOKEN_HEADER = 'rna-fence-token';
/** Header of a fence marker: a record that only raises the fence (never handed to a handler). */
export const FENCE_MARKER_HEADER = 'rna-fence-marker';

/** Per lease, the highest token read so far on one partition. */
export type FenceState = ReadonlyMap<string, number>;

export function fenceHeaders(fence: Fence, marker = false): Record<string, string> {
  assertFence(fence);
  const headers: Record<string, string> = {
    [FENCE_LEASE_HEADER]: fence.name,
    [FENCE_TOKEN_HEADER]: String(fence.token),
  };
  if (marker) headers[FENCE_MARKER_HEADER] = '1';
  return headers;
}

type HeaderValue = Buffer | string | (Buffer | string)[] | undefined;

function headerText(value: HeaderValue): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/** The fence a consumed record carries, and whether it is a marker; nothing for a record without one. */
export function fenceOfHeaders(
  headers: Record<string, HeaderValue> | undefined,
): { fence: Fence; marker: boolean } | null {
  const name = headerText(headers?.[FENCE_LEASE_HEADER]);
  const token = Number(headerText(headers?.[FENCE_TOKEN_HEADER]));
  if (!name || !Number.isSafeInteger(token) || token < 1) return null;
  return { fence: { name, token }, marker: headerText(headers?.[FENCE_MARKER_HEADER]) === '1' };
}

/**
 * Sorts one partition's records, in offset order, into those to deliver and those a later holder's
 * fence shuts out, and gives the state after them (the input state is left as it was). Markers are
 * neither: they only raise the fence. Records without a fence are always delivered.
 */
export function sortOutFenced<R extends { headers?: Record<string, HeaderValue> }>(
  records: readonly R[],
  state: FenceState,
): { deliver: R[]; shutOut: { record: R; fence: Fence; laterToken: number }[]; state: FenceState } {
  const next = new Map(state);
  const deliver: R[] = [];
  const shutOut: { record: R; fence: Fence; laterToken: number }[] = [];
  for (const record of records) {
    const found = fenceOfHeaders(record.headers);
    if (!found) {
      deliver.push(record);
      continue;
    }
    const { fence, marker } = found;
    const highest = next.get(fence.name) ?? 0;
    if (fence.token < highest) {
      if (!marker) shutOut.push({ record, fence, laterToken: highest });
      continue;
    }
    next.set(fence.name, fence.token);
    if (!marker) deliver.push(record);
  }
  return { deliver, shutOut, state: next };
}

/** The state as the committed offset's metadata (null when there is none: the broker's default). */
export function encodeFenceState(state: FenceState): string | null {
  return state.size === 0 ? null : JSON.stringify(Object.fromEntries(state));
}

/**
 * The state read back from a committed offset's metadata. Anything else there (none, another tool's
 * text) is an empty state: the consumer then knows only the fences it reads from there on.
 */
export function decodeFenceState(metadata: string | null | undefined): FenceState {
  if (!metadata) return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return new Map();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new Map();
  const state = new Map<string, number>();
  for (const [name, token] of Object.entries(parsed as Record<string, unknown>))
    if (typeof token === 'number' && Number.isSafeInteger(token) && token >= 1) state.set(name, token);
  return state;
}
