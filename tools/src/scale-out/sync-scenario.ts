/**
 * What the sync fault scenarios share: one DATA_DIR with its stores open in the test, a register
 * mirror throttled so that a file is still on its way when a process is hurt, the services the test
 * starts (killed, paused ones woken first, at the end), and the probes they wait on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openStores, type Stores } from '@rna/infra/stores';
import { startMirror, type RunningMirror } from '../rna-mirror/server';
import { generateArchive, type TruthRecord } from '../generator/generate';
import { readTruth } from '../rna-mirror/sync-harness';
import { startService, until as untilReady, type ServiceProcess } from './processes';

interface ArchiveFileDoc {
  id: string;
  status: string | null;
  lastUpdate: number | null;
}
interface SyncHistoryDoc {
  id: string;
  status: string;
}

export interface SyncScenario {
  mirrorDir: string;
  dataDir: string;
  stores: Stores;
  start(name: string, service: 'sync' | 'projector'): ServiceProcess;
  /** Polls `probe` until it answers non-null (2 minutes at most; the services' output on failure). */
  until<T>(what: string, probe: () => Promise<T | null>): Promise<T>;
  /**
   * Two months of the register, zipped, in parts of a quarter of the aids each, for 40 companies,
   * served by the mirror: the generated truth.
   */
  generateRegister(options: { aids: number; seed: number }): Promise<TruthRecord[]>;
  /** The files done while another is being imported, once that is the case. */
  fileDoneAndNextUnderWay(): Promise<ArchiveFileDoc[]>;
  /** The runs, once none is running any more. */
  runEnded(): Promise<SyncHistoryDoc[]>;
  close(): Promise<void>;
}

export async function openSyncScenario(
  name: string,
  options: {
    bytesPerSecond: number;
    env?: Record<string, string>;
    /** The message log on these Kafka brokers (librdkafka's mock: no idempotent producer) instead of embedded. */
    kafkaBrokers?: string[];
  },
): Promise<SyncScenario> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `rna-${name}-data-`));
  const mirrorDir = await mkdtemp(path.join(os.tmpdir(), `rna-${name}-mirror-`));
  const mirror: RunningMirror = await startMirror({
    dir: mirrorDir,
    faults: { bytesPerSecond: options.bytesPerSecond },
  });
  const kafkaBrokers = options.kafkaBrokers ?? [];
  const kafkaEnv: Record<string, string> =
    kafkaBrokers.length > 0 ? { KAFKA_BROKERS: kafkaBrokers.join(','), KAFKA_IDEMPOTENT: 'false' } : {};
  const stores = openStores({
    dataDir,
    engines: kafkaBrokers.length > 0 ? { kafkaBrokers, kafkaIdempotent: false } : {},
  });
  const children: ServiceProcess[] = [];
  const until = <T>(what: string, probe: () => Promise<T | null>) =>
    untilReady(what, probe, children, 120_000, 50);
  const files = stores.documents.collection<ArchiveFileDoc>('archive-files');
  return {
    mirrorDir,
    dataDir,
    stores,
    start: (serviceName, service) =>
      startService(children, serviceName, service, {
        DATA_DIR: dataDir,
        RNA_BASE_URL: mirror.url,
        ...kafkaEnv,
        ...options.env,
      }),
    until,
    async generateRegister({ aids, seed }) {
      const generated = await generateArchive({
        outDir: mirrorDir,
        months: ['2024_01', '2024_02'],
        aids,
        partSize: aids / 4,
        seed,
        zip: true,
        beneficiaries: 40,
      });
      return readTruth(generated.truthFile!);
    },
    fileDoneAndNextUnderWay: () =>
      until('a file imported and the next one under way', async () => {
        const all = await files.find();
        const done = all.filter((f) => f.status === 'SUCCESS');
        const busy = all.some((f) => f.status === 'DOWNLOADING' || f.status === 'PARSING');
        return done.length > 0 && busy ? done : null;
      }),
    runEnded: () =>
      until('the run to end', async () => {
        const runs = await stores.documents.collection<SyncHistoryDoc>('sync-history').find();
        return runs.length > 0 && runs.every((run) => run.status !== 'RUNNING') ? runs : null;
      }),
    async close() {
      for (const { child } of children) {
        if (child.exitCode !== null) continue;
        child.kill('SIGCONT'); // a paused process must run to die
        child.kill('SIGKILL');
      }
      await stores.close();
      await mirror.close();
      await rm(dataDir, { recursive: true, force: true });
      await rm(mirrorDir, { recursive: true, force: true });
    },
  };
}
