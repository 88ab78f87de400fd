/** The listing page `/open-data/aiuti` as the register shows it: a table, one row per file. */
import type { ServedFile } from './archive-folder';

const MONTHS = [
  'Gennaio', 'Febbraio', 'Marzo', 'Aprile', 'Maggio', 'Giugno',
  'Luglio', 'Agosto', 'Settembre', 'Ottobre', 'Novembre', 'Dicembre',
]; // prettier-ignore

export function monthLabel(file: Pick<ServedFile, 'year' | 'month' | 'part'>): string {
  const label = `${MONTHS[file.month - 1] ?? ''} ${file.year}`;
  return file.part > 1 ? `${label} (parte ${file.part})` : label;
}

export function renderListing(files: ServedFile[]): string {
  const rows = files
    .map((file) => {
      const base = `OpenData_Aiuti_${file.name}`;
      const link = (ext: 'xml' | 'zip') =>
        `<a href="#" class="download-opendata" data-nid="${file.nid}" data-filename="${base}.${ext}" ` +
        `data-file-ext="${ext}">${ext.toUpperCase()}</a>`;
      return `<tr><td>${monthLabel(file)}</td><td>${base}</td><td>${link('xml')} ${link('zip')}</td></tr>`;
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="it"><head><meta charset="utf-8"><title>Open Data - Aiuti | Registro Nazionale Aiuti di Stato</title></head>
<body><main><h1>Open Data Aiuti</h1>
<table class="table opendata"><thead><tr><th>Mese</th><th>File</th><th>Scarica</th></tr></thead>
<tbody>
${rows}
</tbody></table></main></body></html>
`;
}
