import { PdfTextFont, wrapText } from './pdf-text';

describe('PdfTextFont', () => {
  const font = new PdfTextFont('Helvetica');

  it('keeps what WinAnsi can write and writes the rest as its base letter, else ?', () => {
    expect(font.printable('Città – “Sì” 1.000,00 €')).toBe('Città – “Sì” 1.000,00 €');
    expect(font.printable('Gödöllő Łódź')).toBe('Gödöllo ?ódz');
    expect(font.printable('Ω 😀')).toBe('? ?');
  });

  it('escapes the delimiters of a PDF string and writes non-ASCII as WinAnsi octal codes', () => {
    expect(font.literal('a(b)c\\d')).toBe('(a\\(b\\)c\\\\d)');
    expect(font.literal('è €')).toBe('(\\350 \\200)');
  });

  it('measures with the font widths: W is wider than i, and width scales with the size', () => {
    expect(font.width('W', 10)).toBeGreaterThan(font.width('i', 10));
    expect(font.width('Aiuti', 12)).toBeCloseTo(font.width('Aiuti', 6) * 2, 6);
  });
});

describe('wrapText', () => {
  const font = new PdfTextFont('Helvetica');

  it('breaks at spaces, keeping every word and every line within the width', () => {
    const text = 'Misura per il sostegno alle imprese colpite dalla crisi economica del settore turistico';
    const lines = wrapText(font, text, 6, 60);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(font.width(line, 6)).toBeLessThanOrEqual(60);
    expect(lines.join(' ')).toBe(text);
  });

  it('cuts a word wider than the column, and gives one empty line for no text', () => {
    const word = 'X'.repeat(80);
    const lines = wrapText(font, word, 6, 50);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(font.width(line, 6)).toBeLessThanOrEqual(50);
    expect(lines.join('')).toBe(word);
    expect(wrapText(font, '   ', 6, 50)).toEqual(['']);
  });
});
