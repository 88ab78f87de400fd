/** The HTTP register client holds the register contract against the mirror of the RNA site. */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeRegisterContract, HttpRegisterClient } from '@rna/infra/register';
import { startMirror } from './server';

describeRegisterContract('HTTP client against the register mirror', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'register-contract-'));
  const mirror = await startMirror({ dir });
  let published = 0;
  return {
    client: new HttpRegisterClient({ baseUrl: mirror.url, attempts: 2, backoffMs: 5 }),
    async publish(name, xml) {
      const file = path.join(dir, `OpenData_Aiuti_${name}.xml`);
      await writeFile(file, xml);
      // a distinct modification time per publication, as the register's files get (seconds apart)
      const at = new Date(Date.UTC(2024, 0, 1) + ++published * 60_000);
      await utimes(file, at, at);
    },
    async dispose() {
      await mirror.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
