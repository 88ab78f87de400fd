import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { AidRecord } from '@rna/domain';
import { sampleAid } from '../aid-index/contract';
import { parseAidStream } from './aid-parser';
import { registerXmlOf } from './register-xml';
import { unzippedXml } from './unzipped-xml';

const aids = Array.from({ length: 300 }, (_, i) =>
  sampleAid({ idComponenteAiuto: String(5_000 + i), elementoDiAiutoCents: 10_000 + i }),
);

/** Parsed on a parser thread (the default), records as the XML gives them. */
async function parsedInWorker(xml: Readable): Promise<AidRecord[]> {
  const records: AidRecord[] = [];
  await parseAidStream(xml, {
    sourceFile: 'f',
    importId: 'i',
    now: Date.parse('2024-06-01'),
    batchSize: 64,
    onBatch: async (batch) => void records.push(...batch),
  });
  return records.map(({ sourceFile: _file, importId: _import, ...aid }) => aid as AidRecord);
}

const expected = aids.map(({ sourceFile: _file, importId: _import, ...aid }) => aid);

describe('parseAidStream on a parser thread', () => {
  it("leaves the buffers of a caller's stream as they were: only its own copies go to the thread", async () => {
    const xml = Buffer.from(registerXmlOf(aids));
    // each chunk spans the whole of its own ArrayBuffer: the kind a transfer would take away
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < xml.length; at += 7_000) chunks.push(new Uint8Array(xml.subarray(at, at + 7_000)));
    const before = chunks.map((chunk) => Buffer.from(chunk).toString('base64'));

    expect(await parsedInWorker(Readable.from(chunks))).toEqual(expected);
    expect(chunks.map((chunk) => Buffer.from(chunk).toString('base64'))).toEqual(before);
  });

  it('parses an unzipped XML handed over chunk by chunk into the same aids', async () => {
    const zip = await new Promise<Buffer>((resolve, reject) => {
      const file = new yazl.ZipFile();
      file.addBuffer(Buffer.from(registerXmlOf(aids)), 'OpenData_Aiuti_2024_03.xml');
      file.end();
      const parts: Buffer[] = [];
      file.outputStream.on('data', (part: Buffer) => parts.push(part));
      file.outputStream.on('end', () => resolve(Buffer.concat(parts)));
      file.outputStream.on('error', reject);
    });
    const pieces = Array.from({ length: Math.ceil(zip.length / 1_000) }, (_, i) =>
      zip.subarray(i * 1_000, (i + 1) * 1_000),
    );

    expect(await parsedInWorker(unzippedXml(Readable.from(pieces)))).toEqual(expected);
  });
});
