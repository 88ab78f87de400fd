import { downloadFileName } from './file-names';

describe('the names of downloaded files', () => {
  const at = new Date('2026-11-25T10:00:00Z');

  it('say what the file holds, for which tax code and the day, in Italian', () => {
    expect(downloadFileName('aiuti', 'xlsx', at, ['RSSMRA80A01H501U'])).toBe(
      'aiuti-RSSMRA80A01H501U-2026-11-25.xlsx',
    );
    expect(downloadFileName('aiuti', 'pdf', at, ['01234567897', 'rssmra80a01h501u'])).toBe(
      'aiuti-01234567897_RSSMRA80A01H501U-2026-11-25.pdf',
    );
    expect(downloadFileName('clienti', 'xlsx', at)).toBe('clienti-2026-11-25.xlsx');
    expect(downloadFileName('registro-attivita', 'xlsx', at)).toBe('registro-attivita-2026-11-25.xlsx');
  });

  it('count the codes when there are many, and keep only letters and digits of each', () => {
    const codes = ['01234567897', '12345678903', '23456789016', '34567890129'];
    expect(downloadFileName('aiuti', 'xlsx', at, codes)).toBe('aiuti-4-codici-2026-11-25.xlsx');
    expect(downloadFileName('aiuti', 'xlsx', at, ['../x y'])).toBe('aiuti-XY-2026-11-25.xlsx');
  });

  it('name up to three codes one by one, each once, and leave out a code with no letter or digit', () => {
    expect(downloadFileName('aiuti', 'xlsx', at, ['01234567897', '12345678903', '23456789016'])).toBe(
      'aiuti-01234567897_12345678903_23456789016-2026-11-25.xlsx',
    );
    // the same code typed twice, in two cases, is one code
    expect(downloadFileName('aiuti', 'pdf', at, ['rssmra80a01h501u', 'RSSMRA80A01H501U'])).toBe(
      'aiuti-RSSMRA80A01H501U-2026-11-25.pdf',
    );
    expect(downloadFileName('aiuti', 'xlsx', at, ['--', '01234567897'])).toBe(
      'aiuti-01234567897-2026-11-25.xlsx',
    );
    expect(downloadFileName('aiuti', 'xlsx', at, ['  '])).toBe('aiuti-2026-11-25.xlsx');
  });

  it('take the day in Rome: late on 31 December UTC is already the new year', () => {
    expect(downloadFileName('clienti', 'xlsx', new Date('2025-12-31T23:30:00Z'))).toBe(
      'clienti-2026-01-01.xlsx',
    );
  });
});
