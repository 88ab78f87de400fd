import {
  decodeFenceState,
  encodeFenceState,
  fenceHeaders,
  fenceOfHeaders,
  sortOutFenced,
  type FenceState,
} from './kafka-fencing';

/** A consumed record as kafkajs gives it: header values are buffers. */
function record(id: string, fence?: { name: string; token: number }, marker = false) {
  const headers = fence
    ? Object.fromEntries(
        Object.entries(fenceHeaders(fence, marker)).map(([name, value]) => [name, Buffer.from(value)]),
      )
    : undefined;
  return { id, headers };
}
const ids = (records: { id: string }[]) => records.map((r) => r.id);

describe('Kafka fences, read where the messages are consumed', () => {
  it("delivers a holder's messages until a later holder's marker, and none of the former's after it", () => {
    const { deliver, shutOut, state } = sortOutFenced(
      [
        record('a1', { name: 'sync', token: 1 }),
        record('fence-2', { name: 'sync', token: 2 }, true),
        record('a2-late', { name: 'sync', token: 1 }),
        record('b1', { name: 'sync', token: 2 }),
        record('a3-late', { name: 'sync', token: 1 }),
      ],
      new Map(),
    );
    expect(ids(deliver)).toEqual(['a1', 'b1']);
    expect(shutOut.map((s) => [s.record.id, s.fence.token, s.laterToken])).toEqual([
      ['a2-late', 1, 2],
      ['a3-late', 1, 2],
    ]);
    expect(state).toEqual(new Map([['sync', 2]]));
  });

  it("a later holder's message raises the fence as a marker does; the same token is never shut out", () => {
    const { deliver } = sortOutFenced(
      [
        record('b1', { name: 'sync', token: 2 }),
        record('b2', { name: 'sync', token: 2 }),
        record('a-late', { name: 'sync', token: 1 }),
      ],
      new Map(),
    );
    expect(ids(deliver)).toEqual(['b1', 'b2']);
  });

  it('compares tokens of one lease only, and lets messages without a fence through', () => {
    const { deliver, state } = sortOutFenced(
      [
        record('other-1', { name: 'notifier', token: 1 }),
        record('plain'),
        record('sync-3', { name: 'sync', token: 3 }),
      ],
      new Map([['sync', 3]]),
    );
    expect(ids(deliver)).toEqual(['other-1', 'plain', 'sync-3']);
    expect(state).toEqual(
      new Map([
        ['sync', 3],
        ['notifier', 1],
      ]),
    );
  });

  it('starts from the state committed before (a consumer resuming after the marker) and leaves it unchanged', () => {
    const before: FenceState = new Map([['sync', 5]]);
    const { deliver, state } = sortOutFenced(
      [record('late', { name: 'sync', token: 4 }), record('next', { name: 'sync', token: 6 })],
      before,
    );
    expect(ids(deliver)).toEqual(['next']);
    expect(before).toEqual(new Map([['sync', 5]]));
    expect(state).toEqual(new Map([['sync', 6]]));
  });

  it('never hands a marker on, whatever its token', () => {
    const { deliver, shutOut } = sortOutFenced(
      [record('m3', { name: 'sync', token: 3 }, true), record('m2', { name: 'sync', token: 2 }, true)],
      new Map(),
    );
    expect(deliver).toEqual([]);
    expect(shutOut).toEqual([]);
  });

  it('reads a fence from string or buffer headers, and ignores headers that are not one', () => {
    expect(fenceOfHeaders({ 'rna-fence-lease': 'sync', 'rna-fence-token': ['7'] })).toEqual({
      fence: { name: 'sync', token: 7 },
      marker: false,
    });
    expect(fenceOfHeaders(undefined)).toBeNull();
    expect(fenceOfHeaders({ 'rna-fence-lease': 'sync', 'rna-fence-token': 'seven' })).toBeNull();
    expect(fenceOfHeaders({ 'rna-fence-lease': 'sync', 'rna-fence-token': '0' })).toBeNull();
    expect(fenceOfHeaders({ 'rna-fence-token': '3' })).toBeNull();
    expect(() => fenceHeaders({ name: 'sync', token: 0 })).toThrow(TypeError);
  });

  it('keeps the state in the committed offset metadata, and reads anything else there as none', () => {
    const state = new Map([
      ['sync', 12],
      ['bulk-runner', 3],
    ]);
    expect(decodeFenceState(encodeFenceState(state))).toEqual(state);
    expect(encodeFenceState(new Map())).toBeNull();
    expect(decodeFenceState(null)).toEqual(new Map());
    expect(decodeFenceState('')).toEqual(new Map());
    expect(decodeFenceState('not json')).toEqual(new Map());
    expect(decodeFenceState('[1,2]')).toEqual(new Map());
    expect(decodeFenceState('{"sync":"12","ok":4,"neg":-1,"frac":1.5}')).toEqual(new Map([['ok', 4]]));
  });
});
