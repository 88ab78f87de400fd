/**
 * Text for the PDF pages the portal draws itself: Helvetica (one of the 14 fonts every viewer has,
 * so nothing is embedded) in WinAnsi, measured and encoded one character at a time from cached
 * metrics. A character WinAnsi lacks is written as its base letter when it has one (ő → o), else '?'.
 */
import type { StandardFontEmbedder } from 'pdf-lib';
import { pdfLibrary } from '../http/document-libraries';

/** pdf-lib's name type for the 14 standard fonts (it lives in a package of its own). */
type StandardFontName = Parameters<typeof StandardFontEmbedder.for>[0];

const UNSEEN = 0;
const KNOWN = 1;
const MISSING = 2;

/** A font's per-character width (at size 1) and WinAnsi code, looked up once per character. */
export class PdfTextFont {
  private readonly embedder: StandardFontEmbedder;
  private readonly states = new Uint8Array(0x10000);
  private readonly widths = new Float64Array(0x10000);
  private readonly codes = new Uint8Array(0x10000);
  /** What an unencodable character is written as. */
  private readonly substitutes = new Map<number, string>();

  constructor(readonly baseFont: 'Helvetica' | 'Helvetica-Bold') {
    this.embedder = pdfLibrary().StandardFontEmbedder.for(baseFont as StandardFontName);
    this.encodable(63); // '?', the width of anything unprintable
  }

  /** The text in characters this font can write (substitutes applied). */
  printable(text: string): string {
    let out = text;
    for (let i = 0; i < text.length; i++) {
      if (!this.encodable(text.charCodeAt(i))) {
        out = this.substitute(text);
        break;
      }
    }
    return out;
  }

  /** Width of printable text at `size` points. */
  width(text: string, size: number): number {
    let total = 0;
    for (let i = 0; i < text.length; i++) total += this.charWidth(text.charCodeAt(i));
    return total * size;
  }

  charWidth(unit: number): number {
    return this.encodable(unit) ? this.widths[unit]! : this.widths[63]!;
  }

  /** A PDF literal string of printable text: ASCII as is, the rest as octal escapes. */
  literal(text: string): string {
    let out = '(';
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      const code = this.encodable(unit) ? this.codes[unit]! : 63;
      if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${String.fromCharCode(code)}`;
      else if (code >= 0x20 && code < 0x7f) out += String.fromCharCode(code);
      else out += `\\${code.toString(8).padStart(3, '0')}`;
    }
    return `${out})`;
  }

  private encodable(unit: number): boolean {
    const state = this.states[unit]!;
    return state === KNOWN || (state === UNSEEN && this.lookUp(unit));
  }

  /** Asks pdf-lib once per character (it throws for one WinAnsi lacks: far too slow to repeat). */
  private lookUp(unit: number): boolean {
    this.states[unit] = MISSING;
    if (unit >= 0xd800 && unit <= 0xdfff) return false; // half of an astral character
    const char = String.fromCharCode(unit);
    try {
      const bytes = this.embedder.encodeText(char).asBytes();
      if (bytes.length !== 1) return false;
      this.codes[unit] = bytes[0]!;
      this.widths[unit] = this.embedder.widthOfTextAtSize(char, 1);
      this.states[unit] = KNOWN;
      return true;
    } catch {
      return false;
    }
  }

  private substitute(text: string): string {
    let out = '';
    for (const char of text.normalize('NFC')) {
      const unit = char.charCodeAt(0);
      if (char.length === 1 && this.encodable(unit)) {
        out += char;
        continue;
      }
      let replacement = this.substitutes.get(unit);
      if (replacement === undefined) {
        const base = [...char.normalize('NFKD')].filter(
          (part) => part.length === 1 && !/\p{M}/u.test(part) && this.encodable(part.charCodeAt(0)),
        );
        replacement = base.length > 0 ? base.join('') : '?';
        if (char.length === 1) this.substitutes.set(unit, replacement);
      }
      out += replacement;
    }
    return out;
  }
}

/**
 * Printable text broken into lines of at most `maxWidth` points: at spaces, and inside a word only
 * when the word alone is wider than a line (as the browser's overflow-wrap would).
 */
export function wrapText(font: PdfTextFont, text: string, size: number, maxWidth: number): string[] {
  const limit = maxWidth / size;
  const lines: string[] = [];
  const words = text.split(/\s+/).filter((word) => word !== '');
  let line = '';
  let lineWidth = 0;
  const space = font.charWidth(32);
  for (const word of words) {
    let wordWidth = 0;
    for (let i = 0; i < word.length; i++) wordWidth += font.charWidth(word.charCodeAt(i));
    if (line !== '' && lineWidth + space + wordWidth <= limit) {
      line += ` ${word}`;
      lineWidth += space + wordWidth;
      continue;
    }
    if (line !== '') lines.push(line);
    if (wordWidth <= limit) {
      line = word;
      lineWidth = wordWidth;
      continue;
    }
    // a word wider than the column: cut it where it overflows
    line = '';
    lineWidth = 0;
    for (let i = 0; i < word.length; i++) {
      const w = font.charWidth(word.charCodeAt(i));
      if (line !== '' && lineWidth + w > limit) {
        lines.push(line);
        line = '';
        lineWidth = 0;
      }
      line += word[i];
      lineWidth += w;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
