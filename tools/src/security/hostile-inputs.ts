/**
 * The worst inputs we can build for each route that takes an upload or a pasted list, within what
 * the route accepts (its byte limits): each one is work for a parser, a decoder or a loop if the
 * route does not bound it first. Used by the event-loop test (nobody else waits while one of these
 * is read) and by the bench (`npm run bench event-loop`: the worst delay per route).
 */
import sharp from 'sharp';
import yazl from 'yazl';

export interface HostileRequest {
  /** what the input is, for reports */
  what: string;
  /** METHOD /path, as the route table names it */
  route: string;
  path: string;
  method: 'GET' | 'POST';
  /** a JSON body, or a file sent as multipart field `file` (with form fields) */
  json?: unknown;
  file?: { name: string; bytes: Buffer; type: string; fields?: Record<string, string> };
}

const distinctCodes = (count: number) => Array.from({ length: count }, (_, i) => String(10_000_000_000 + i));

async function zipOf(entries: [string, Buffer][], compress = true): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(bytes, name, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A workbook whose sheet inflates to `megabytes` MB of cells (a few hundred KB zipped). */
async function inflatingWorkbook(megabytes: number): Promise<Buffer> {
  const row = (r: number) =>
    `<row r="${r}">${Array.from({ length: 20 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r}" t="inlineStr"><is><t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</t></is></c>`).join('')}</row>`;
  const rowBytes = row(100000).length;
  const rows = Math.floor((megabytes * 1024 * 1024) / rowBytes);
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${Array.from({ length: rows }, (_, i) => row(i + 1)).join('')}</sheetData></worksheet>`;
  return zipOf([
    [
      'xl/workbook.xml',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    ],
    ['xl/worksheets/sheet1.xml', Buffer.from(sheet)],
  ]);
}

/** Every hostile request, built once (a few seconds: the images and zips are real). */
export async function hostileRequests(): Promise<HostileRequest[]> {
  const preview = {
    route: 'POST /bulk-searches/preview',
    path: '/api/bulk-searches/preview',
    method: 'POST',
  } as const;
  // as many codes as fit in the route's 1 MB of JSON
  const pasted80k = distinctCodes(80_000).join('\n');
  const emptyEntries = await zipOf(
    Array.from({ length: 50_000 }, (_, i): [string, Buffer] => [`x/${i}`, Buffer.alloc(0)]),
    false,
  );
  const csvFields = Buffer.from(`01234567897;${'x;'.repeat(2_400_000)}\n`);
  const csvLines = Buffer.from(`${distinctCodes(1).join('')}\n${';\n'.repeat(2_400_000)}`);
  const pixelBomb = await sharp({
    create: { width: 16_000, height: 16_000, channels: 3, background: '#fff' },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return [
    { ...preview, what: '80,000 pasted codes (1 MB of JSON)', json: { text: pasted80k } },
    {
      ...preview,
      what: '80,000 pasted codes on one line, comma-separated',
      json: { text: distinctCodes(80_000).join(',') },
    },
    {
      ...preview,
      what: '80,000 pasted codes as a table with a chosen column',
      json: { text: `Codice fiscale\n${pasted80k}`, column: 'Codice fiscale' },
    },
    {
      ...preview,
      what: 'a zip of 50,000 empty entries',
      file: { name: 'vuoti.xlsx', bytes: emptyEntries, type: 'application/octet-stream' },
    },
    {
      ...preview,
      what: 'a CSV line of 2.4 million fields',
      file: { name: 'campi.csv', bytes: csvFields, type: 'text/csv' },
    },
    {
      ...preview,
      what: 'a CSV of 2.4 million empty lines',
      file: { name: 'righe.csv', bytes: csvLines, type: 'text/csv' },
    },
    {
      ...preview,
      what: 'a workbook inflating to 60 MB of cells',
      file: { name: 'bomba.xlsx', bytes: await inflatingWorkbook(60), type: 'application/octet-stream' },
    },
    {
      route: 'POST /bulk-searches',
      path: '/api/bulk-searches',
      method: 'POST',
      what: '10,000 codes in a job request',
      json: { taxCodes: distinctCodes(10_000), sourceName: 'x'.repeat(500) },
    },
    {
      route: 'POST /logos',
      path: '/api/logos',
      method: 'POST',
      what: `a PNG of 16,000 × 16,000 pixels in ${Math.round(pixelBomb.length / 1024)} KB`,
      file: { name: 'logo.png', bytes: pixelBomb, type: 'image/png', fields: { name: 'bomba' } },
    },
    {
      route: 'GET /documents',
      path: `/api/documents?taxCodes=${encodeURIComponent(distinctCodes(700).join(','))}`,
      method: 'GET',
      what: '700 codes in one search query',
    },
  ];
}

/** Sends one hostile request; resolves with its status and error code (never throws for an HTTP error). */
export async function sendHostile(
  base: string,
  token: string,
  request: HostileRequest,
): Promise<{ status: number; code: string | null }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: string | FormData | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.file) {
    const form = new FormData();
    for (const [name, value] of Object.entries(request.file.fields ?? {})) form.append(name, value);
    form.append('file', new Blob([request.file.bytes], { type: request.file.type }), request.file.name);
    body = form;
  }
  const response = await fetch(`${base}${request.path}`, { method: request.method, headers, body });
  const text = await response.text();
  let code: string | null = null;
  try {
    code = (JSON.parse(text) as { code?: string }).code ?? null;
  } catch {
    code = null;
  }
  return { status: response.status, code };
}
