import { readDocumentsQuery, readGroupParam, sameCodes } from './search-params';

describe('documents query parameters', () => {
  it('reads comma-separated codes and the two flags', () => {
    expect(
      readDocumentsQuery(
        new URLSearchParams('taxCode=a1234567890,,B1234567890&deMinimis=true&last3Years=false'),
      ),
    ).toEqual({
      taxCodes: ['A1234567890', 'B1234567890'],
      deMinimis: true,
      last3Years: false,
    });
  });
  it('is null without a tax code (T001)', () => {
    expect(readDocumentsQuery(new URLSearchParams('deMinimis=true'))).toBeNull();
    expect(readDocumentsQuery(new URLSearchParams('taxCode='))).toBeNull();
  });
  it('lets a fixed tax code override the address', () => {
    expect(readDocumentsQuery(new URLSearchParams('taxCode=OTHER123456'), '01234567890')?.taxCodes).toEqual([
      '01234567890',
    ]);
    expect(readDocumentsQuery(new URLSearchParams(''), '01234567890')?.taxCodes).toEqual(['01234567890']);
  });
  it('reads the group the codes come from, except for a fixed tax code', () => {
    expect(readGroupParam(new URLSearchParams('taxCode=A1234567890&group=g-1'))).toBe('g-1');
    expect(readGroupParam(new URLSearchParams('taxCode=A1234567890&group='))).toBeNull();
    expect(readGroupParam(new URLSearchParams('taxCode=A1234567890'))).toBeNull();
    expect(readGroupParam(new URLSearchParams('group=g-1'), '01234567890')).toBeNull();
  });
  it('matches saved searches regardless of code order', () => {
    expect(sameCodes(['B', 'A'], ['A', 'B'])).toBe(true);
    expect(sameCodes(['A'], ['A', 'B'])).toBe(false);
  });
});
