import { isOlderImport, isOrderedImportId, orderedImportId } from './import-order';

describe('the order of a file’s imports', () => {
  it('sorts import ids as text in the order their sequence was taken, past every power of ten', () => {
    const sequences = [0, 1, 9, 10, 99, 100, 12_345, 999_999_999_999];
    const ids = sequences.map((n, i) => orderedImportId(n, `run-${9 - i}`, '2024_01'));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every(isOrderedImportId)).toBe(true);
    expect(() => orderedImportId(1e12, 'r', 'f')).toThrow();
    expect(() => orderedImportId(-1, 'r', 'f')).toThrow();
  });

  it('tells an older import from a newer one, and leaves ids without an order to the last write', () => {
    const older = orderedImportId(41, 'b-run', '2024_01');
    const newer = orderedImportId(42, 'a-run', '2024_01');
    expect(isOlderImport(older, newer)).toBe(true);
    expect(isOlderImport(newer, older)).toBe(false);
    expect(isOlderImport(newer, newer)).toBe(false);
    // an id written before imports were ordered: neither side wins by order
    const legacy = '3f2a9c1e-0000-4000-8000-000000000000:2024_01:1a2b3c4d';
    expect(isOrderedImportId(legacy)).toBe(false);
    expect(isOlderImport(legacy, newer)).toBe(false);
    expect(isOlderImport(older, legacy)).toBe(false);
    // every ordered id sorts after a legacy one, so a withdrawal of "older than" removes legacy rows
    expect(legacy < older).toBe(true);
  });
});
