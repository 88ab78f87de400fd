import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { sampleAid } from '../aid-index/contract';
import { openFileBlobStore } from '../blobs/file-blob-store';
import { parseAidStream } from './aid-parser';
import { RegisterArchive } from './archive';
import { registerXmlOf } from './register-xml';

const zipOf = (name: string, content: string) =>
  new Promise<Buffer>((resolve, reject) => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(content), name);
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });

describe('register archive', () => {
  let dir: string;
  let archive: RegisterArchive;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-archive-'));
    archive = new RegisterArchive(openFileBlobStore(path.join(dir, 'blobs')));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const aids = Array.from({ length: 50 }, (_, i) =>
    sampleAid({ idComponenteAiuto: String(100 + i), elementoDiAiutoCents: 1_000 + i }),
  );
  const keep = async (transferred: 'zip' | 'xml', bytes: Buffer) => {
    const receiver = archive.receive(transferred);
    for (let i = 0; i < bytes.length; i += 1_000) receiver.sink.write(bytes.subarray(i, i + 1_000));
    receiver.sink.end();
    return receiver.done();
  };
  const parsed = async (file: Parameters<RegisterArchive['openXml']>[0]) => {
    const records: unknown[] = [];
    await parseAidStream((await archive.openXml(file))!, {
      sourceFile: '2024_03_001',
      importId: 'import-1',
      now: Date.parse('2024-06-01'),
      inline: true,
      onBatch: async (batch) => void records.push(...batch),
    });
    return records;
  };

  it('keeps a zip as sent and a plain XML gzipped, and gives back the same aids from either', async () => {
    const xml = registerXmlOf(aids);
    const zip = await zipOf('OpenData_Aiuti_2024_03_001.xml', xml);
    const fromZip = await keep('zip', zip);
    expect(fromZip).toMatchObject({
      format: 'zip',
      bytes: zip.length,
      blob: `register-${fromZip.sha256}.zip`,
    });
    const fromXml = await keep('xml', Buffer.from(xml));
    expect(fromXml.format).toBe('xml.gz');
    expect(fromXml.bytes).toBeLessThan(xml.length / 5);
    expect(await parsed(fromZip)).toEqual(aids);
    expect(await parsed(fromXml)).toEqual(aids);
  });

  it('keeps one copy of a file imported again unchanged, and no half copy of a failed transfer', async () => {
    const zip = await zipOf('OpenData_Aiuti_2024_03_001.xml', registerXmlOf(aids));
    const first = await keep('zip', zip);
    const again = await keep('zip', zip);
    expect(again).toEqual(first);
    const failed = archive.receive('zip');
    failed.sink.write(zip.subarray(0, 100));
    failed.sink.destroy(new Error('connection reset'));
    await expect(failed.done()).rejects.toThrow();
    const kept = fs.readdirSync(path.join(dir, 'blobs')).filter((name) => !name.startsWith('.'));
    expect(kept).toEqual([first.blob]);
  });
});
