/** Reads the register's listing page (`/open-data/aiuti`): one link per file and format. */
import { parseRegisterFileName } from './file-names';

export interface ListingEntry {
  name: string;
  fileName: string;
  nid: string | null;
  formats: ('xml' | 'zip')[];
  year: number;
  month: number;
  part: number;
}

const LINK = /<a\b[^>]*>/gi;
const attribute = (tag: string, name: string): string | null => {
  const match = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? (match[2] ?? match[3] ?? null) : null;
};

/** Every file the page links to, once, with the formats offered. Unknown links are ignored. */
export function parseListingHtml(html: string): ListingEntry[] {
  const byName = new Map<string, ListingEntry>();
  for (const match of html.matchAll(LINK)) {
    const tag = match[0];
    const fileName = attribute(tag, 'data-filename');
    const ext = attribute(tag, 'data-file-ext')?.toLowerCase();
    if (!fileName || (ext !== 'xml' && ext !== 'zip')) continue;
    const parsed = parseRegisterFileName(fileName.trim());
    if (!parsed) continue;
    const entry = byName.get(parsed.name) ?? {
      ...parsed,
      fileName: `OpenData_Aiuti_${parsed.name}.xml`,
      nid: null,
      formats: [],
    };
    entry.nid ??= attribute(tag, 'data-nid');
    if (!entry.formats.includes(ext)) entry.formats.push(ext);
    byName.set(parsed.name, entry);
  }
  return [...byName.values()];
}
