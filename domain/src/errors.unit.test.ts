import { DomainError, ERROR_CATALOGUE, errorI18nKey, errorStatus, isErrorCode } from './errors';

describe('error catalogue', () => {
  it('has every code of the spec with an HTTP error status', () => {
    const specCodes = [
      'G001',
      'G002',
      'G003',
      'G007',
      'J001',
      'J002',
      'J003',
      'J004',
      'J005',
      'A001',
      'A002',
      'P001',
      'U001',
      'U002',
      'U003',
      'U004',
      'T001',
      'T002',
      'C001',
      'C002',
      'F001',
      'F002',
    ];
    for (const code of specCodes) {
      expect(isErrorCode(code)).toBe(true);
      if (isErrorCode(code)) expect(errorStatus(code)).toBeGreaterThanOrEqual(400);
    }
    expect(Object.keys(ERROR_CATALOGUE)).toEqual(expect.arrayContaining(specCodes));
  });

  it('maps codes to i18n keys and refuses unknown codes', () => {
    expect(errorI18nKey('T002')).toBe('errors.T002');
    expect(isErrorCode('X999')).toBe(false);
    expect(new DomainError('A001').code).toBe('A001');
    expect(errorStatus('A001')).toBe(401);
    expect(errorStatus('P001')).toBe(403);
  });
});
