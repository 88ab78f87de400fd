/**
 * The bulk charge's decisions one by one (found by mutation testing: each test below failed on a
 * change to commands.ts that the HTTP journeys of bulk-searches-api.int.test.ts let through): the
 * price shown before a list runs, the list's codes and groups as requested, a charge that cannot be
 * recorded, a refusal that comes after the job exists, the charge found past the quota's first page,
 * and what a download leaves in the audit.
 */
import request from 'supertest';
import {
  BULK_MAX_CODES,
  bulkJobDecider,
  DomainError,
  stateOf,
  streams,
  type BulkSearchEvent,
} from '@rna/domain';
import { ConcurrencyError, type EventStore } from '@rna/infra';
import { anAid, startApiHarness, type ApiHarness } from '../documents/testing';
import { QUOTA_PAGE, readQuota } from '../documents/quota-metering';
import {
  bulkBlobName,
  cleanSourceName,
  decideOnJob,
  downloadBulkResult,
  getBulkJob,
  listBulkJobs,
  previewBulkSearch,
  requestBulkSearch,
  settleUnchargedJob,
  type JobAt,
} from './commands';
import { startBulkSearchRunner } from './runner';

const ACME = '01234567897';
const BETA = '12345678903';
const WRONG_CHECK_DIGIT = '01234567890';

/** Eleven-digit codes, well formed (their check digits are not checked here: warnings only). */
const numberedCodes = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => String(40_000_000_000 + from + i));

/** The event store with one call replaced: `append` decides, for each append, to throw or go on. */
function appending(
  store: EventStore,
  append: (stream: string, types: string[], go: () => Promise<unknown>) => Promise<unknown>,
): EventStore {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== 'appendToStream' || typeof value !== 'function') return value;
      return (stream: string, events: { type: string }[], options: unknown) =>
        append(
          stream,
          events.map((event) => event.type),
          () => (value as (...a: unknown[]) => Promise<unknown>).call(target, stream, events, options),
        );
    },
  });
}

describe('The bulk charge, decision by decision', () => {
  let api: ApiHarness;
  let adminId: string;
  const principalOf = (client: { id: string; email: string }) => ({
    userId: client.id,
    email: client.email,
    role: 'CLIENT' as const,
  });
  const admin = () => ({ userId: adminId, email: 'admin', role: 'ADMIN' as const });
  const jobEvents = async (jobId: string) =>
    (await api.deps.eventStore.readStream<BulkSearchEvent>(streams.bulk(jobId))).events;
  const quotaEvents = async (clientId: string) =>
    (await api.deps.eventStore.readStream(streams.quota(clientId))).events;
  /** Every event of the store, in order (a few thousand in this file). */
  const allEvents = () => api.deps.eventStore.readAll({ after: 0, maxCount: 200_000 });
  /** The job a client requested last, read from the store (a request that failed never answered it). */
  const lastRequestedJobId = async (clientId: string) => {
    const requested = (await allEvents()).filter(
      (e) => e.type === 'BulkSearchRequested' && (e.data as { userId: string }).userId === clientId,
    );
    return (requested.at(-1)!.data as { jobId: string }).jobId;
  };
  const remaining = async (token: string) =>
    (await request(api.app).get('/api/clients/me').set('Authorization', `Bearer ${token}`).expect(200)).body
      .remainingSearches as number;

  beforeAll(async () => {
    api = await startApiHarness();
    adminId = (
      await request(api.app).get('/api/users/me').set('Authorization', `Bearer ${api.adminToken}`).expect(200)
    ).body.id as string;
    await api.indexAids([
      anAid({ codiceFiscaleBeneficiario: ACME, denominazioneBeneficiario: 'ACME S.R.L.' }),
    ]);
  });
  afterAll(async () => {
    await api.close();
  });

  describe('names', () => {
    it('keeps a job’s workbook and PDF under names that say which is which', () => {
      expect(bulkBlobName('j1', 'sheet')).toBe('bulk-j1.xlsx');
      expect(bulkBlobName('j1', 'pdf')).toBe('bulk-j1.pdf');
    });

    it('shows a file name sent as UTF-8 read as Latin-1 as it was written, a Latin-1 one as it is, and at most 200 characters', () => {
      const asMulterGivesIt = (name: string) => Buffer.from(name, 'utf8').toString('latin1');
      expect(cleanSourceName(asMulterGivesIt('àèìòù'))).toBe('àèìòù');
      expect(cleanSourceName(asMulterGivesIt('fatture città.csv'))).toBe('fatture città.csv');
      // not UTF-8 once turned back into bytes: a real Latin-1 name, left alone
      expect(cleanSourceName('Citt\u00e0.csv')).toBe('Città.csv');
      expect(cleanSourceName('a'.repeat(300))).toBe('a'.repeat(200));
    });
  });

  describe('the price before a list runs', () => {
    it('costs an administrator nothing, with no allowance to show', async () => {
      const price = await previewBulkSearch(api.deps, admin(), { file: null, text: `${ACME}\n${BETA}` });
      expect(price).toMatchObject({ newToday: 2, cost: 0, remainingSearches: null, affordable: true });
    });

    it('is affordable with exactly as many searches left as new codes, not with one less', async () => {
      const exact = await api.client({ remainingSearches: 2 });
      const text = `${ACME}\n${BETA}`;
      expect(await previewBulkSearch(api.deps, principalOf(exact), { file: null, text })).toMatchObject({
        cost: 2,
        remainingSearches: 2,
        affordable: true,
      });
      const short = await api.client({ remainingSearches: 1 });
      expect(await previewBulkSearch(api.deps, principalOf(short), { file: null, text })).toMatchObject({
        affordable: false,
      });
    });

    it('is not affordable from the subscription’s end date on, the very instant included', async () => {
      const client = await api.client({ remainingSearches: 10, endDate: api.now().getTime() + 86_400_000 });
      const { state } = await readQuota(api.deps.eventStore, client.id);
      const endDate = state.endDate!;
      const affordableAt = async (instant: number) => {
        api.setNow(new Date(instant));
        return (await previewBulkSearch(api.deps, principalOf(client), { file: null, text: ACME }))
          .affordable;
      };
      const now = api.now();
      try {
        expect(await affordableAt(endDate - 1)).toBe(true);
        expect(await affordableAt(endDate)).toBe(false);
        expect(await affordableAt(endDate + 86_400_000)).toBe(false);
      } finally {
        api.setNow(now);
      }
    });

    it('refuses an empty request (B005) and reads a column chosen with spaces around it, or none', async () => {
      const client = await api.client({ remainingSearches: 10 });
      await expect(previewBulkSearch(api.deps, principalOf(client), { file: null })).rejects.toMatchObject({
        code: 'B005',
      });
      // two columns of codes: the first is the one found by itself, the second only when chosen
      const csv = `Codice fiscale;Capogruppo\n${ACME};${BETA}\n`;
      const file = {
        fieldName: 'file',
        bytes: Buffer.from(csv),
        originalName: 'lista.csv',
        mimeType: 'text/csv',
      };
      const padded = await previewBulkSearch(api.deps, principalOf(client), {
        file,
        column: '  Capogruppo  ',
      });
      expect(padded.taxCodes).toEqual([BETA]);
      // only spaces: no column chosen, read as if none were (the tax codes' column found by itself)
      const none = await previewBulkSearch(api.deps, principalOf(client), { file, column: '   ' });
      expect(none).toMatchObject({ column: 'Codice fiscale', taxCodes: [ACME] });
    });
  });

  describe('the list as requested', () => {
    it('takes each code once, skips empty entries and warns of wrong check digits only', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const job = await requestBulkSearch(api.deps, principalOf(client), {
        taxCodes: [ACME, '', '  ', ` ${BETA} `, ACME, WRONG_CHECK_DIGIT],
        sourceName: 'lista.csv',
      });
      expect(job).toMatchObject({ totalCodes: 3, cost: 3 });
      const requested = (await jobEvents(job.jobId))[0]!;
      expect(requested).toMatchObject({
        type: 'BulkSearchRequested',
        data: {
          taxCodes: [ACME, BETA, WRONG_CHECK_DIGIT],
          warnings: [{ taxCode: WRONG_CHECK_DIGIT, reason: 'CHECK_DIGIT' }],
          clientId: client.id,
        },
      });
      expect(requested.data).not.toHaveProperty('groups');
    });

    it(`takes ${BULK_MAX_CODES} codes and refuses one more (B003), charging nothing`, async () => {
      const client = await api.client({ remainingSearches: BULK_MAX_CODES });
      await expect(
        requestBulkSearch(api.deps, principalOf(client), {
          taxCodes: numberedCodes(BULK_MAX_CODES + 1),
          sourceName: 'troppi.csv',
        }),
      ).rejects.toMatchObject({ code: 'B003' });
      expect(await remaining(client.token)).toBe(BULK_MAX_CODES);
      const job = await requestBulkSearch(api.deps, principalOf(client), {
        taxCodes: numberedCodes(BULK_MAX_CODES),
        sourceName: 'tanti.csv',
      });
      expect(job).toMatchObject({ totalCodes: BULK_MAX_CODES, cost: BULK_MAX_CODES });
    });

    it('keeps a group only for a listed code, the first one given, and never an empty group', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const job = await requestBulkSearch(api.deps, principalOf(client), {
        taxCodes: [ACME, BETA],
        sourceName: 'gruppi.csv',
        groups: [
          { taxCode: 'RSSMRA85T10A562S', group: 'Non in lista' },
          { taxCode: ACME.toLowerCase(), group: 'Gruppo Rossi' },
          { taxCode: ACME, group: 'Gruppo Bianchi' },
          { taxCode: BETA, group: '   ' },
        ],
      });
      expect((await jobEvents(job.jobId))[0]!.data).toMatchObject({
        groups: [{ taxCode: ACME, group: 'Gruppo Rossi' }],
      });
    });

    it('records an administrator’s list as no client’s, not awaiting a charge, audited as a plain search', async () => {
      const job = await requestBulkSearch(api.deps, admin(), { taxCodes: [ACME], sourceName: 'admin.csv' });
      const requested = (await jobEvents(job.jobId))[0]!;
      expect(requested.data).toMatchObject({ clientId: null });
      expect(requested.data).not.toHaveProperty('awaitingCharge');
      const audit = (await api.deps.eventStore.readStream(streams.audit(adminId))).events.at(-1)!;
      expect(audit).toMatchObject({
        type: 'SearchPerformed',
        data: { taxCodes: [ACME], deMinimis: false, last3Years: false, cost: 0 },
      });
    });
  });

  describe('a charge that goes wrong', () => {
    it('fails the job at once with the refusal’s code when the quota refuses after the job exists', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const refusing = appending(api.deps.eventStore, (stream, _types, go) =>
        stream === streams.quota(client.id) ? Promise.reject(new DomainError('U004')) : go(),
      );
      await expect(
        requestBulkSearch({ ...api.deps, eventStore: refusing }, principalOf(client), {
          taxCodes: [ACME],
          sourceName: 'rifiutata.csv',
        }),
      ).rejects.toMatchObject({ code: 'U004' });
      const failed = await allEvents();
      const job = failed.filter((e) => e.type === 'BulkSearchFailed').at(-1)!;
      expect(job.data).toMatchObject({ code: 'U004', reason: 'Nessuna ricerca addebitata' });
      expect(await remaining(client.token)).toBe(10);
    });

    it('fails it as B008 when the refusal is a server error, and as B008 when it is no domain error', async () => {
      for (const error of [new DomainError('G001'), new Error('store gone')]) {
        const client = await api.client({ remainingSearches: 10 });
        let refusedOnce = false;
        const failing = appending(api.deps.eventStore, (stream, _types, go) => {
          if (stream !== streams.quota(client.id) || refusedOnce) return go();
          refusedOnce = true;
          return Promise.reject(error);
        });
        const before = (await allEvents()).length;
        await expect(
          requestBulkSearch({ ...api.deps, eventStore: failing }, principalOf(client), {
            taxCodes: [ACME],
            sourceName: 'errore.csv',
          }),
        ).rejects.toBe(error);
        const appended = (await allEvents()).slice(before);
        expect(appended.filter((e) => e.type === 'BulkSearchFailed').map((e) => e.data)).toEqual([
          expect.objectContaining({ code: 'B008' }),
        ]);
      }
    });

    it('keeps nothing when the quota refuses before the job exists', async () => {
      const poor = await api.client({ remainingSearches: 1 });
      const before = (await allEvents()).length;
      await expect(
        requestBulkSearch(api.deps, principalOf(poor), { taxCodes: [ACME, BETA], sourceName: 'povera.csv' }),
      ).rejects.toMatchObject({ code: 'U004' });
      const appended = (await allEvents()).slice(before);
      expect(appended.filter((e) => e.type.startsWith('BulkSearch'))).toEqual([]);
    });

    it('gives up recording the charge after five conflicts in a row, rereading the job each time', async () => {
      const client = await api.client({ remainingSearches: 10 });
      let attempts = 0;
      const conflicting = appending(api.deps.eventStore, (stream, types, go) => {
        if (!types.includes('BulkSearchCharged')) return go();
        attempts += 1;
        return Promise.reject(new ConcurrencyError(stream, 0, 1));
      });
      await expect(
        requestBulkSearch({ ...api.deps, eventStore: conflicting }, principalOf(client), {
          taxCodes: [ACME],
          sourceName: 'conflitti.csv',
        }),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      expect(attempts).toBe(5);
    });

    /**
     * The request stalls just before its charge lands (a paused process); meanwhile the runner, past a
     * request's time, finds no charge and settles the job as never charged: the request answers B008.
     */
    const stalledAndSettled = async (client: { id: string; email: string }, taxCodes: string[]) => {
      const stalling = appending(api.deps.eventStore, async (stream, types, go) => {
        if (stream === streams.quota(client.id) && types.includes('SearchPerformed'))
          expect(await settleUnchargedJob(api.deps, await lastRequestedJobId(client.id))).toBe('FAILED');
        return go();
      });
      await expect(
        requestBulkSearch({ ...api.deps, eventStore: stalling }, principalOf(client), {
          taxCodes,
          sourceName: 'in-ritardo.csv',
        }),
      ).rejects.toMatchObject({ code: 'B008' });
    };

    it('settled as B008 while a free list stalled: nothing to give back, and no refund recorded', async () => {
      const client = await api.client({ remainingSearches: 10 });
      await request(api.app)
        .get(`/api/documents?taxCodes=${ACME}`)
        .set('Authorization', `Bearer ${client.token}`)
        .expect(200);
      await stalledAndSettled(client, [ACME]);
      expect((await quotaEvents(client.id)).map((e) => e.type)).not.toContain('SearchRefunded');
    });

    it('settled as B008 while a paid list stalled: the refund says why', async () => {
      const client = await api.client({ remainingSearches: 10 });
      await stalledAndSettled(client, [BETA]);
      expect((await quotaEvents(client.id)).at(-1)).toMatchObject({
        type: 'SearchRefunded',
        data: { cost: 1, reason: expect.stringContaining('senza addebito') },
      });
    });

    /** The client's quota stream padded with `count` downloads, so that its charge is read past them. */
    const padQuota = async (client: { id: string; email: string }, count: number) => {
      const at = api.now().toISOString();
      const by = { userId: client.id, email: client.email, role: 'CLIENT' as const };
      await api.deps.eventStore.appendToStream(
        streams.quota(client.id),
        Array.from({ length: count }, () => ({
          type: 'ReportDownloaded',
          data: {
            taxCodes: [],
            deMinimis: false,
            last3Years: false,
            clientId: client.id,
            at,
            by,
            kind: 'sheet',
          },
        })),
        { expectedVersion: 'any' },
      );
    };

    /** A request whose process dies when it appends `type`: nothing it appends from then on lands. */
    const requestDyingAt = async (client: { id: string; email: string }, type: string) => {
      let dead = false;
      const dying = appending(api.deps.eventStore, (_stream, types, go) => {
        if (types.includes(type)) dead = true;
        return dead ? Promise.reject(new Error('the process died')) : go();
      });
      await expect(
        requestBulkSearch({ ...api.deps, eventStore: dying }, principalOf(client), {
          taxCodes: [ACME],
          sourceName: 'morta.csv',
        }),
      ).rejects.toThrow('the process died');
      return lastRequestedJobId(client.id);
    };

    it(`finds a dead request’s charge past the quota’s first page of ${QUOTA_PAGE} events`, async () => {
      const client = await api.client({ remainingSearches: 10 });
      await padQuota(client, QUOTA_PAGE);
      const jobId = await requestDyingAt(client, 'BulkSearchCharged');
      expect(await settleUnchargedJob(api.deps, jobId)).toBe('CHARGED');
      expect((await jobEvents(jobId)).map((e) => e.type)).toEqual([
        'BulkSearchRequested',
        'BulkSearchCharged',
      ]);
    });

    it(`settles as never charged a job whose charge is nowhere, reading a quota stream longer than a page of ${QUOTA_PAGE} to its end`, async () => {
      const client = await api.client({ remainingSearches: 10 });
      await padQuota(client, QUOTA_PAGE + 1);
      // the process dies before its charge is written
      const jobId = await requestDyingAt(client, 'SearchPerformed');
      expect(await settleUnchargedJob(api.deps, jobId)).toBe('FAILED');
    });
  });

  describe('a decision with nothing to record', () => {
    it('writes nothing, even on a job read before another write to it', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const job = await requestBulkSearch(api.deps, principalOf(client), {
        taxCodes: [ACME],
        sourceName: 'niente.csv',
      });
      const before = await jobEvents(job.jobId);
      // read when only the request was there: the job has been charged since
      const stale: JobAt = {
        state: stateOf(bulkJobDecider, before.slice(0, 1)),
        version: 0,
      };
      const charged = { ...stale, state: stateOf(bulkJobDecider, before) };
      await decideOnJob(
        api.deps.eventStore,
        job.jobId,
        { type: 'RecordCharge', data: { at: api.now().toISOString(), cost: 1 } },
        { ...charged, version: stale.version },
      );
      expect(await jobEvents(job.jobId)).toEqual(before);
    });
  });

  describe('reading and downloading a job', () => {
    it('finds a job the moment it was requested, before the read model has caught up', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const job = await requestBulkSearch(api.deps, principalOf(client), {
        taxCodes: [ACME],
        sourceName: 'subito.csv',
      });
      expect(await getBulkJob(api.deps, principalOf(client), job.jobId)).toMatchObject({ jobId: job.jobId });
    });

    it('lists a user’s jobs newest first, without those refused at their request, and no one else’s', async () => {
      const client = await api.client({ remainingSearches: 20 });
      const other = await api.client({ remainingSearches: 20 });
      const pinned = api.now();
      const refusing = appending(api.deps.eventStore, (stream, _types, go) =>
        stream === streams.quota(client.id) ? Promise.reject(new DomainError('U004')) : go(),
      );
      try {
        const names = ['prima.csv', 'seconda.csv', 'rifiutata.csv', 'terza.csv', 'quarta.csv'];
        for (const [minute, sourceName] of names.entries()) {
          api.setNow(new Date(pinned.getTime() + minute * 60_000));
          const deps = sourceName === 'rifiutata.csv' ? { ...api.deps, eventStore: refusing } : api.deps;
          await requestBulkSearch(deps, principalOf(client), { taxCodes: [ACME], sourceName }).catch(
            (error: unknown) => expect(error).toMatchObject({ code: 'U004' }),
          );
        }
        await requestBulkSearch(api.deps, principalOf(other), { taxCodes: [ACME], sourceName: 'altrui.csv' });
        const listed = await listBulkJobs(api.deps, principalOf(client));
        expect(listed.map((job) => job.sourceName)).toEqual([
          'quarta.csv',
          'terza.csv',
          'seconda.csv',
          'prima.csv',
        ]);
      } finally {
        api.setNow(pinned);
      }
    });

    it('audits a download naming no codes, the client’s on its quota stream and the administrator’s on its audit stream', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const own = await requestBulkSearch(api.deps, principalOf(client), {
        taxCodes: [ACME],
        sourceName: 'scarico.csv',
      });
      const adminJob = await requestBulkSearch(api.deps, admin(), { taxCodes: [ACME], sourceName: 'a.csv' });
      const runner = startBulkSearchRunner(api.deps, { pollMs: 20 });
      try {
        await api.deps.awaitProjections?.();
        await runner.idle();
        await api.deps.awaitProjections?.();
      } finally {
        await runner.stop();
      }
      await downloadBulkResult(api.deps, principalOf(client), own.jobId, 'sheet');
      expect((await quotaEvents(client.id)).at(-1)).toMatchObject({
        type: 'ReportDownloaded',
        data: { taxCodes: [], deMinimis: false, last3Years: false, kind: 'sheet' },
      });
      await downloadBulkResult(api.deps, admin(), adminJob.jobId, 'sheet');
      expect((await api.deps.eventStore.readStream(streams.audit(adminId))).events.at(-1)).toMatchObject({
        type: 'ReportDownloaded',
        data: { taxCodes: [], kind: 'sheet' },
      });
      expect((await quotaEvents(adminId)).map((e) => e.type)).not.toContain('ReportDownloaded');
      // each file named for its kind and the job's day
      const files = await Promise.all(
        (['sheet', 'pdf'] as const).map((kind) =>
          downloadBulkResult(api.deps, admin(), adminJob.jobId, kind),
        ),
      );
      expect(files.map((file) => file.fileName)).toEqual([
        expect.stringMatching(/^ricerca-massiva-\d{4}-\d{2}-\d{2}\.xlsx$/),
        expect.stringMatching(/^ricerca-massiva-\d{4}-\d{2}-\d{2}\.pdf$/),
      ]);
    });
  });
});
