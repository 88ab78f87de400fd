/**
 * The register contract: what the sync worker relies on from any RegisterClient (today the HTTP client
 * of the RNA open-data site, run against the register mirror of tools/rna-mirror). The harness
 * publishes files on the register the client reads.
 */
import type { Readable } from 'node:stream';
import type { RegisterClient, RegisterFileInfo } from './port';

export interface RegisterHarness {
  client: RegisterClient;
  /** Puts a file (display name, e.g. 2024_02 or 2024_02_002) with this XML on the register. */
  publish(name: string, xml: string): Promise<void>;
  dispose(): Promise<void>;
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

const xmlOf = (label: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<LISTA_AIUTI><AIUTO><NOTE>${label} — è così</NOTE></AIUTO></LISTA_AIUTI>\n`;

export function describeRegisterContract(name: string, factory: () => Promise<RegisterHarness>): void {
  describe(`RegisterClient contract: ${name}`, () => {
    let harness: RegisterHarness;
    beforeEach(async () => {
      harness = await factory();
    });
    afterEach(() => harness.dispose());

    const listed = async (fileName: string): Promise<RegisterFileInfo> => {
      const file = (await harness.client.listFiles()).find((f) => f.name === fileName);
      if (!file) throw new Error(`${fileName} is not in the listing`);
      return file;
    };

    it('lists every published file with its year, month, part and change signals', async () => {
      await harness.publish('2024_01', xmlOf('gennaio'));
      await harness.publish('2024_02', xmlOf('febbraio'));
      await harness.publish('2024_02_002', xmlOf('febbraio, seconda parte'));
      const files = await harness.client.listFiles();
      expect(files.map((f) => f.name).sort()).toEqual(['2024_01', '2024_02', '2024_02_002']);
      const second = files.find((f) => f.name === '2024_02_002')!;
      expect(second).toMatchObject({ year: 2024, month: 2, part: 2 });
      for (const file of files) expect(file.etag !== null || file.lastModified !== null).toBe(true);
    });

    it.each([
      ['the plain XML', false],
      ['the zip', true],
    ])('downloads a file through %s as the exact XML bytes', async (_flow, preferZip) => {
      const xml = xmlOf('marzo');
      await harness.publish('2024_03', xml);
      const result = await harness.client.download(await listed('2024_03'), { preferZip });
      if (result.status !== 'ok') throw new Error(`expected the file, got ${result.status}`);
      expect(await text(result.xml)).toBe(xml);
    });

    it('answers unchanged to the validators it gave, and the new content once the file changed', async () => {
      await harness.publish('2024_04', xmlOf('aprile'));
      const first = await listed('2024_04');
      const again = await harness.client.download(first, {
        ifNoneMatch: first.etag,
        ifModifiedSince: first.lastModified,
        preferZip: false,
      });
      expect(again.status).toBe('unchanged');

      const changed = xmlOf('aprile, corretto dal registro');
      await harness.publish('2024_04', changed);
      const after = await harness.client.download(await listed('2024_04'), {
        ifNoneMatch: first.etag,
        ifModifiedSince: first.lastModified,
        preferZip: false,
      });
      if (after.status !== 'ok') throw new Error(`expected the changed file, got ${after.status}`);
      expect(await text(after.xml)).toBe(changed);
    });
  });
}
