import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { AIDS_TOPIC, type AidMessage, type AidRecord } from '@rna/domain';
import { openStores } from '@rna/infra/stores';
import { CLIENTS_COLLECTION } from '@rna/read-models/clients';
import { LOGOS_COLLECTION } from '@rna/read-models/logos';
import { USERS_COLLECTION } from '@rna/read-models/users';
import { loadConfig } from '@rna/infra/config';
import { startPortal } from './portal';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { RegisterArchive, registerXmlOf } from '@rna/infra/register';
import { LEASES_COLLECTION, runWhileHoldingLease, tryHoldLease, type LeaseDoc } from '@rna/infra/leases';
import { openTemporaryStores, until } from '@rna/infra/embedded/testing';
import { FILE_STATE_COLLECTION, subscriberIdOf, type FileState } from '@rna/read-models';
import { allProjections } from './projections';
import { startAidIndexProjection } from '@rna/projector/aids';
import {
  holdProjectionLeases,
  rebuildProjections,
  rebuildArguments,
  RebuildShortError,
  shortFiles,
} from './rebuild-projections';

jest.setTimeout(90_000);

function aid(id: number, taxCode: string, importId: string): AidRecord {
  return {
    idComponenteAiuto: String(id),
    cor: String(1000 + id),
    car: '10001',
    titoloMisura: 'Misura di prova',
    desTipoMisura: 'Regime di aiuti',
    soggettoConcedente: 'Regione Umbria',
    titoloProgetto: 'Progetto',
    dataConcessione: `2025-0${1 + (id % 9)}-15`,
    cup: 'n.d.',
    denominazioneBeneficiario: 'ALFA S.R.L.',
    codiceFiscaleBeneficiario: taxCode,
    desTipoBeneficiario: 'Piccola impresa',
    regioneBeneficiario: 'Umbria',
    codProcedimento: '1',
    desProcedimento: 'De Minimis',
    codRegolamento: 'CE2831/23',
    desRegolamento: 'Reg. UE 2023/2831',
    codObiettivo: '1',
    desObiettivo: 'Sviluppo',
    settoreAttivita: 'C.25.1',
    elementoDiAiutoCents: 100_000 + id,
    importoNominaleCents: 200_000 + id,
    sourceFile: '2025_06',
    importId,
  };
}

describe('rebuild projections', () => {
  it('forgets every read model and the aid index, replays the events and the kept register files, and ends in the same state', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rebuild-'));
    try {
      const config = loadConfig({ DATA_DIR: dir, PORT: '0', ADMIN_PASSWORD: 'a-long-admin-password' }, dir);
      const portal = await startPortal(config, { logger: pino({ level: 'silent' }), host: '127.0.0.1' });
      const login = await request(portal.url)
        .post('/api/auth/login')
        .send({ email: 'admin@portale.local', password: 'a-long-admin-password' });
      const auth = { authorization: `Bearer ${login.body.accessToken as string}` };
      await request(portal.url)
        .post('/api/clients/invite')
        .set(auth)
        .send({ email: 'cliente@example.it' })
        .expect(200);
      // Two imports of one file: the second drops aid 3, which the marker then withdraws.
      const first = [1, 2, 3].map((id) => aid(id, '01234567897', 'import-1'));
      const second = [1, 2].map((id) => aid(id, '01234567897', 'import-2'));
      const messages = (records: AidRecord[], importId: string): AidMessage[] => [
        ...records.map((a): AidMessage => ({ type: 'AidRecorded', aid: a })),
        {
          type: 'SourceFileImported',
          sourceFile: '2025_06',
          importId,
          runId: 'run',
          records: records.length,
        },
      ];
      for (const [records, importId] of [
        [first, 'import-1'],
        [second, 'import-2'],
      ] as const)
        await portal.stores.messageLog.publish(
          AIDS_TOPIC,
          messages([...records], importId).map((value) => ({ key: '01234567897', value })),
        );
      await portal.deps.awaitProjections?.();
      for (let i = 0; i < 100 && (await portal.stores.aidIndex.count()) !== 2; i++)
        await new Promise((r) => setTimeout(r, 50));
      // the sync keeps the file of each import it completes: the second import's file has 1 and 2
      const receiver = new RegisterArchive(portal.stores.blobs).receive('xml');
      receiver.sink.end(registerXmlOf(second));
      await portal.stores.documents.collection<FileState>(FILE_STATE_COLLECTION).put({
        id: '2025_06',
        etag: null,
        lastModified: null,
        records: 2,
        importId: 'import-2',
        succeededAt: '2025-07-01T10:00:00.000Z',
        archive: await receiver.done(),
      });

      const snapshot = async (stores: typeof portal.stores) => ({
        clients: await stores.documents.collection(CLIENTS_COLLECTION).find({}, { sortBy: 'id' }),
        users: await stores.documents.collection(USERS_COLLECTION).find({}, { sortBy: 'id' }),
        logos: await stores.documents.collection(LOGOS_COLLECTION).find({}, { sortBy: 'id' }),
        aids: await stores.aidIndex.search({ taxCodes: ['01234567897'] }),
      });
      const before = await snapshot(portal.stores);
      expect(before.clients).toHaveLength(1);
      expect(before.aids.map((a) => a.idComponenteAiuto).sort()).toEqual(['1', '2']);
      await portal.stop();

      const stores = openStores({ dataDir: dir });
      try {
        // Damage the read side: a rebuild must not keep anything that the logs do not say.
        await stores.documents
          .collection<{ id: string; email: string }>(CLIENTS_COLLECTION)
          .put({ id: 'ghost', email: 'ghost@example.it' });
        await stores.aidIndex.upsert([aid(99, '01234567897', 'stray')]);
        // what the API reads while the rebuild runs, looked at the moment the rebuilt index is complete
        const servedMeanwhile: number[] = [];
        const begin = stores.aidIndex.beginRebuild.bind(stores.aidIndex);
        jest.spyOn(stores.aidIndex, 'beginRebuild').mockImplementation(async () => {
          const rebuild = await begin();
          return {
            ...rebuild,
            complete: async () => {
              servedMeanwhile.push(await stores.documents.collection(CLIENTS_COLLECTION).count());
              await rebuild.complete();
            },
          };
        });
        const summary = await rebuildProjections(stores);
        // the read models in service were read as they were (the ghost included) until the swap
        expect(servedMeanwhile).toEqual([2]);
        // the log is a transport: what the index consumed is gone from it, the file is the source
        expect(summary).toMatchObject({ aids: 2, files: 1, notKept: [] });
        expect(await snapshot(stores)).toEqual(before);
      } finally {
        await stores.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rebuild on shared engines', () => {
  it('refuses while a projector process holds a projection, and keeps projectors out while it runs', async () => {
    const stores = openTemporaryStores('rebuild-leases-');
    // a live projector process, renewing its lease (its lease time, long, is in the lease: no stall of
    // this machine can make the rebuild think it died; the rebuild sees the renewals and refuses)
    const projections = allProjections();
    const projector = runWhileHoldingLease(
      stores.documents,
      { name: subscriberIdOf(projections[1]!), holder: 'projector-1', ttlMs: 60_000, renewEveryMs: 50 },
      () => ({ stop: async () => undefined }),
    );
    try {
      await until(() => projector.holding());
      await expect(
        holdProjectionLeases(stores.documents, projections, { holder: 'rebuild', ttlMs: 300 }),
      ).rejects.toThrow(/stop every projector before rebuilding/);
      expect(projector.holding()).toBe(true);
      // it let go of the leases it had taken before finding the busy one
      const first = { name: subscriberIdOf(projections[0]!), holder: 'projector-2', ttlMs: 300 };
      expect(await tryHoldLease(stores.documents, first)).toBe(true);

      await projector.stop();
      await stores.documents.collection(LEASES_COLLECTION).clear();
      const release = await holdProjectionLeases(stores.documents, projections, {
        holder: 'rebuild',
        ttlMs: 60_000,
      });
      expect(await tryHoldLease(stores.documents, first)).toBe(false);
      await release();
      expect(await tryHoldLease(stores.documents, first)).toBe(true);
    } finally {
      await projector.stop();
      await stores.dispose();
    }
  });

  it('takes over the projection of a projector that died, once its lease went unrenewed for the lease time', async () => {
    const stores = openTemporaryStores('rebuild-dead-');
    try {
      const projections = allProjections();
      // a projector took the lease, then was killed: it never renews it
      const dead = { name: subscriberIdOf(projections[1]!), holder: 'projector-1', ttlMs: 300 };
      expect(await tryHoldLease(stores.documents, dead)).toBe(true);
      const release = await holdProjectionLeases(stores.documents, projections, {
        holder: 'rebuild',
        ttlMs: 300,
      });
      try {
        const leases = stores.documents.collection<LeaseDoc>(LEASES_COLLECTION);
        expect(await leases.get(dead.name)).toMatchObject({ holder: 'rebuild' });
        expect(await tryHoldLease(stores.documents, { ...dead, holder: 'projector-2' })).toBe(false);
      } finally {
        await release();
      }
    } finally {
      await stores.dispose();
    }
  });

  it('fills the aid index beside the one in service, puts it in service only when complete, then applies what the log still holds', async () => {
    const stores = openTemporaryStores('rebuild-target-');
    const dir = mkdtempSync(path.join(tmpdir(), 'rebuild-target-index-'));
    const target = openSqliteAidIndex(path.join(dir, 'aids.db'));
    const inService = async () =>
      (await stores.aidIndex.search({ taxCodes: ['01234567897'] })).map((a) => a.idComponenteAiuto).sort();
    try {
      // a kept file (the source of the rebuild) and two aids published but not consumed yet
      const receiver = new RegisterArchive(stores.blobs).receive('xml');
      receiver.sink.end(registerXmlOf([aid(7, '01234567897', 'i0')]));
      const fileStates = stores.documents.collection<FileState>(FILE_STATE_COLLECTION);
      await fileStates.put({
        id: '2025_06',
        etag: null,
        lastModified: null,
        records: 1,
        importId: 'i0',
        succeededAt: '2025-07-01T10:00:00.000Z',
        archive: await receiver.done(),
      });
      await stores.messageLog.publish(AIDS_TOPIC, [
        { key: '01234567897', value: { type: 'AidRecorded', aid: aid(1, '01234567897', 'i1') } },
        { key: '01234567897', value: { type: 'AidRecorded', aid: aid(2, '01234567897', 'i1') } },
      ]);
      await stores.aidIndex.upsert([aid(99, '01234567897', 'stray')]);
      const complete = jest.fn(async () => {
        // what searches read is still the index in service, untouched, until this moment
        expect(await inService()).toEqual(['99']);
        expect((await target.search({ taxCodes: ['01234567897'] })).map((a) => a.idComponenteAiuto)).toEqual([
          '7',
        ]);
      });
      const abandon = jest.fn(async () => undefined);
      jest.spyOn(stores.aidIndex, 'beginRebuild').mockResolvedValue({ target, complete, abandon });
      await rebuildProjections(stores);
      expect(complete).toHaveBeenCalledTimes(1);
      expect(abandon).not.toHaveBeenCalled();
      // the log's aids go to the index in service once the rebuilt one is (here: the mock kept the old)
      expect(await inService()).toEqual(['1', '2', '99']);

      // a rebuild that fails (a kept file damaged) drops what it filled, leaves the index in service
      // as it was, and consumes nothing of the log: what was published waits for the projector
      const damaged = new RegisterArchive(stores.blobs).receive('xml');
      damaged.sink.end('<LISTA_AIUTI><AIUTO><COR>1</COR>');
      await fileStates.put({ ...(await fileStates.get('2025_06'))!, archive: await damaged.done() });
      await stores.messageLog.publish(AIDS_TOPIC, [
        { key: '01234567897', value: { type: 'AidRecorded', aid: aid(5, '01234567897', 'i2') } },
      ]);
      await expect(rebuildProjections(stores)).rejects.toThrow();
      expect(abandon).toHaveBeenCalledTimes(1);
      expect(complete).toHaveBeenCalledTimes(1);
      expect(await inService()).toEqual(['1', '2', '99']);
      const projector = startAidIndexProjection({
        messageLog: stores.messageLog,
        aidIndex: stores.aidIndex,
        documents: stores.documents,
      });
      await projector.caughtUp();
      await projector.stop();
      expect(await inService()).toEqual(['1', '2', '5', '99']);
    } finally {
      await target.close();
      await stores.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the index in service when the rebuilt one would hold fewer aids of a file, unless told to accept it', async () => {
    const stores = openTemporaryStores('rebuild-short-');
    const dir = mkdtempSync(path.join(tmpdir(), 'rebuild-short-index-'));
    const target = openSqliteAidIndex(path.join(dir, 'aids.db'));
    const inService = async () =>
      (await stores.aidIndex.search({ taxCodes: ['01234567897'] })).map((a) => a.idComponenteAiuto).sort();
    try {
      // the index in service holds the three aids the file's import published; the kept copy holds two
      await stores.aidIndex.upsert([1, 2, 3].map((id) => aid(id, '01234567897', 'i0')));
      const kept = new RegisterArchive(stores.blobs).receive('xml');
      kept.sink.end(registerXmlOf([1, 2].map((id) => aid(id, '01234567897', 'i0'))));
      await stores.documents.collection<FileState>(FILE_STATE_COLLECTION).put({
        id: '2025_06',
        etag: null,
        lastModified: null,
        records: 3,
        importId: 'i0',
        succeededAt: '2025-07-01T10:00:00.000Z',
        archive: await kept.done(),
      });
      const complete = jest.fn(async () => undefined);
      const abandon = jest.fn(async () => undefined);
      jest.spyOn(stores.aidIndex, 'beginRebuild').mockResolvedValue({ target, complete, abandon });
      const refused = await rebuildProjections(stores).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RebuildShortError);
      expect((refused as RebuildShortError).files).toEqual([
        { sourceFile: '2025_06', inService: 3, rebuilt: 2 },
      ]);
      expect((refused as Error).message).toContain('2025_06 (2 invece di 3)');
      expect(complete).not.toHaveBeenCalled();
      expect(abandon).toHaveBeenCalledTimes(1);
      expect(await inService()).toEqual(['1', '2', '3']);

      // the operator accepts it: the rebuilt index goes in service
      await rebuildProjections(stores, { allowFewerAids: true });
      expect(complete).toHaveBeenCalledTimes(1);
    } finally {
      await target.close();
      await stores.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what a rebuilt index owes each file', () => {
  it('as many aids as the index in service, or as the last import published when that is fewer', () => {
    const published = new Map([
      ['2025_01', 10],
      ['2025_02', 5],
    ]);
    expect(
      shortFiles(
        [
          { sourceFile: '2025_01', count: 10 },
          { sourceFile: '2025_02', count: 7 }, // two strays of an older import
          { sourceFile: '2025_03', count: 4 }, // no marker: all of them
          { sourceFile: '2025_04', count: 2 },
        ],
        [
          { sourceFile: '2025_01', count: 9 },
          { sourceFile: '2025_02', count: 5 },
          { sourceFile: '2025_04', count: 2 },
        ],
        published,
      ),
    ).toEqual([
      { sourceFile: '2025_01', inService: 10, rebuilt: 9 },
      { sourceFile: '2025_03', inService: 4, rebuilt: 0 },
    ]);
  });
});

describe("the command's arguments", () => {
  it('accept fewer aids and a number of files parsed at once, and refuse anything else by name', () => {
    expect(rebuildArguments([])).toEqual({ allowFewerAids: false });
    expect(rebuildArguments(['--allow-fewer-aids', '--parallel-files=1'])).toEqual({
      allowFewerAids: true,
      parallelFiles: 1,
    });
    expect(rebuildArguments(['--parallel-files=12'])).toEqual({ allowFewerAids: false, parallelFiles: 12 });
    for (const bad of ['0', '', '-1', '1.5', 'due', '01', '1000'])
      expect(() => rebuildArguments([`--parallel-files=${bad}`])).toThrow(`"${bad}"`);
    // a typo must not run a rebuild the operator did not ask for
    expect(() => rebuildArguments(['--allow-fewer'])).toThrow('--allow-fewer');
  });
});
