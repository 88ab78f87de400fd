/** SPEC §4: a falsy value means never updated, -1 means real-time data. */
export type LastUpdateView = { kind: 'never' } | { kind: 'live' } | { kind: 'date'; at: number };

export function lastUpdateView(
  value: number | null | undefined,
  forced: number | null = null,
): LastUpdateView {
  const effective = forced ?? value;
  if (!effective) return { kind: 'never' };
  if (effective === -1) return { kind: 'live' };
  return { kind: 'date', at: effective };
}
