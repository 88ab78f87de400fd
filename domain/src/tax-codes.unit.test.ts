import {
  assertOnlyFixedTaxCode,
  assertWellFormedTaxCode,
  checkTaxCode,
  parseTaxCodeList,
  codiceFiscaleCheckLetter,
  isValidCodiceFiscale,
  isValidPartitaIva,
  normalizeTaxCode,
  parseSearchTaxCodes,
  partitaIvaCheckDigit,
  splitTaxCodes,
  taxCodeError,
} from './tax-codes';

describe('normalising tax codes', () => {
  it('trims, uppercases and drops every space inside', () => {
    expect(normalizeTaxCode('  rss mra 85t10\ta562s ')).toBe('RSSMRA85T10A562S');
    expect(normalizeTaxCode('   ')).toBe('');
  });

  it('splits a comma list, dropping empty entries and duplicates and keeping order', () => {
    expect(splitTaxCodes('b12345678901, ,a1234567890,,B12345678901 , a 1234567890')).toEqual([
      'B12345678901',
      'A1234567890',
    ]);
    expect(splitTaxCodes(['x1234567890,y1234567890', 'X1234567890'])).toEqual(['X1234567890', 'Y1234567890']);
    expect(splitTaxCodes('')).toEqual([]);
    expect(splitTaxCodes(undefined)).toEqual([]);
  });
});

describe('the well-formed tax code rule', () => {
  it('accepts 11 characters and refuses 10 with T002', () => {
    expect(taxCodeError('01234567897')).toBeNull();
    expect(taxCodeError('0123456789')).toBe('T002');
    // spaces do not count
    expect(taxCodeError('01234 56789')).toBe('T002');
    expect(() => assertWellFormedTaxCode('0123456789')).toThrow(expect.objectContaining({ code: 'T002' }));
    expect(() => assertWellFormedTaxCode('01234567897')).not.toThrow();
  });

  it('accepts 11 to 16 letters and digits only, after normalisation', () => {
    expect(taxCodeError('rss mra 85t10 a562s')).toBeNull();
    expect(taxCodeError('DE123456789')).toBeNull();
    // markup, punctuation and other alphabets are not tax codes, whatever their length
    for (const hostile of [
      '<script>1234567',
      '01234567897;DROP',
      '0123456789%',
      '../../../etc/passwd',
      '01234567897\u0000',
      'ÀÈÌÒÙ123456',
      '０１２３４５６７８９７',
    ])
      expect(taxCodeError(hostile)).toBe('T002');
    // three codes pasted as one: too long to be one code
    expect(taxCodeError('000116594550001165945500011539822')).toBe('T002');
    expect(taxCodeError('A'.repeat(16))).toBeNull();
    expect(taxCodeError('A'.repeat(17))).toBe('T002');
  });

  it('checks a whole search request: T001 without codes, T002 when any code is short or malformed', () => {
    expect(parseSearchTaxCodes('01234567897, rssmra85t10a562s')).toEqual(['01234567897', 'RSSMRA85T10A562S']);
    expect(() => parseSearchTaxCodes(' , ')).toThrow(expect.objectContaining({ code: 'T001' }));
    expect(() => parseSearchTaxCodes(undefined)).toThrow(expect.objectContaining({ code: 'T001' }));
    expect(() => parseSearchTaxCodes('01234567897,123')).toThrow(expect.objectContaining({ code: 'T002' }));
    expect(() => parseSearchTaxCodes('<script>1234567')).toThrow(expect.objectContaining({ code: 'T002' }));
  });
});

describe('partita IVA check digit', () => {
  it('computes the check digit worked out by hand', () => {
    // odd positions 0+2+4+6+8 = 20; even 1,3,5,7,9 doubled → 2+6+1+5+9 = 23; (10 - 43 % 10) % 10 = 7
    expect(partitaIvaCheckDigit('0123456789')).toBe(7);
    // 1+3+5+7+9 = 25; 2,4,6,8,0 → 4+8+3+7+0 = 22; (10 - 47 % 10) % 10 = 3
    expect(partitaIvaCheckDigit('1234567890')).toBe(3);
  });

  it('accepts valid numbers and rejects a wrong check digit or a swap', () => {
    expect(isValidPartitaIva('01234567897')).toBe(true);
    expect(isValidPartitaIva('12345678903')).toBe(true);
    expect(isValidPartitaIva('00743110157')).toBe(true);
    expect(isValidPartitaIva('02116290848')).toBe(true);
    expect(isValidPartitaIva('01234567890')).toBe(false);
    expect(isValidPartitaIva('10234567897')).toBe(false);
  });
});

describe('codice fiscale check letter', () => {
  it('matches the well-known example and others', () => {
    expect(codiceFiscaleCheckLetter('RSSMRA85T10A562')).toBe('S');
    // a 9 in an even position (the year's second digit) counts 9, computed with the official tables
    expect(isValidCodiceFiscale('VRDLGU59A01H501T')).toBe(true);
    expect(isValidCodiceFiscale('BNCGNN69B49F205Z')).toBe(true);
    expect(isValidCodiceFiscale('RSSMRA85T10A562S')).toBe(true);
    expect(isValidCodiceFiscale('VRDGPP80A41H501Y')).toBe(true); // a woman: day 01 + 40
    expect(isValidCodiceFiscale('BNCLRA92M55F205P')).toBe(true);
    expect(isValidCodiceFiscale('RSSMRA85T10A562T')).toBe(false);
  });

  it('accepts omocodia letters at positions 7, 8, 10, 11, 13, 14, 15', () => {
    expect(isValidCodiceFiscale('RSSMRA85T10A56NH')).toBe(true);
    expect(isValidCodiceFiscale('RSSMRAURTMLARSNL')).toBe(true);
    // a letter outside L M N P Q R S T U V is not an omocodia substitute
    expect(isValidCodiceFiscale('RSSMRA85T10A56AH')).toBe(false);
  });
});

describe('checkTaxCode', () => {
  it("says 'valid' for correct Italian codes, whatever their case and spacing", () => {
    expect(checkTaxCode('01234567897')).toBe('valid');
    expect(checkTaxCode(' rssmra85t10a562s ')).toBe('valid');
    expect(checkTaxCode('RSSMRAURTMLARSNL')).toBe('valid');
  });

  it("says 'invalid' for Italian-shaped codes whose check fails", () => {
    expect(checkTaxCode('01234567890')).toBe('invalid');
    expect(checkTaxCode('RSSMRA85T10A562X')).toBe('invalid');
    expect(checkTaxCode('RSSMRA85T10A56NS')).toBe('invalid');
  });

  it("says 'other-format' for foreign VAT numbers and other shapes", () => {
    expect(checkTaxCode('DE123456789')).toBe('other-format');
    expect(checkTaxCode('ATU12345678')).toBe('other-format');
    expect(checkTaxCode('FR12345678901')).toBe('other-format');
    expect(checkTaxCode('123456789012')).toBe('other-format');
    expect(checkTaxCode('RSSMRA85Z10A562S')).toBe('other-format'); // Z is no month letter
  });
});

describe('a pasted list of tax codes', () => {
  it('splits on new lines, commas, semicolons, tabs and spaces, dropping blanks and duplicates', () => {
    const pasted =
      '00116594550\r\n00116594550\n00115398221\t01234567890;rssmra80a01h501u, 02345678901 03456789012\n\n';
    expect(parseTaxCodeList(pasted)).toEqual({
      codes: ['00116594550', '00115398221', '01234567890', 'RSSMRA80A01H501U', '02345678901', '03456789012'],
      malformed: [],
    });
  });

  it('keeps a code written with spaces inside as one code', () => {
    expect(parseTaxCodeList('rss mra 80a01 h501u\nbnc lgu 70b02 f205x')).toEqual({
      codes: ['RSSMRA80A01H501U', 'BNCLGU70B02F205X'],
      malformed: [],
    });
  });

  it('takes a column’s heading for what it is, not for a code of its letters run together', () => {
    expect(parseTaxCodeList('Codice fiscale\n00116594550\n00115398221\n')).toEqual({
      codes: ['00116594550', '00115398221'],
      malformed: ['Codice fiscale'],
    });
    expect(parseTaxCodeList('Partita IVA beneficiario\tNote\n01234567897\tx').codes).toEqual(['01234567897']);
    expect(parseTaxCodeList('Cod.fiscale.impresa\n01234567897').malformed).toEqual(['Cod.fiscale.impresa']);
    // a piece that is no code is named as written, without the blanks around it
    expect(parseTaxCodeList('01234567897;  pippo  ;12345678903')).toEqual({
      codes: ['01234567897', '12345678903'],
      malformed: ['pippo'],
    });
  });

  it('lists the pieces that are no tax code instead of running them together', () => {
    expect(parseTaxCodeList('00116594550\n123\n0011659455000116594550 abc-def')).toEqual({
      codes: ['00116594550'],
      malformed: ['123', '0011659455000116594550 abc-def'],
    });
    expect(parseTaxCodeList('01234567897 x12')).toEqual({ codes: ['01234567897'], malformed: ['x12'] });
    expect(parseTaxCodeList(' \n ,;')).toEqual({ codes: [], malformed: [] });
  });
});

describe('a user with a fixed tax code', () => {
  it('may look up only that code (P001 for any other), written in any case and spacing', () => {
    expect(() => assertOnlyFixedTaxCode('01234567897', ['01234567897', ' 0123 4567 897 '])).not.toThrow();
    expect(() => assertOnlyFixedTaxCode('rssmra85t10a562s', ['RSSMRA85T10A562S'])).not.toThrow();
    expect(() => assertOnlyFixedTaxCode('01234567897', ['01234567897', '12345678903'])).toThrow(
      expect.objectContaining({ code: 'P001' }),
    );
    expect(() => assertOnlyFixedTaxCode('01234567897', ['12345678903'])).toThrow(
      expect.objectContaining({ code: 'P001' }),
    );
  });

  it('is no limit for users without one', () => {
    expect(() => assertOnlyFixedTaxCode(null, ['01234567897', '12345678903'])).not.toThrow();
    expect(() => assertOnlyFixedTaxCode('', ['12345678903'])).not.toThrow();
  });
});
