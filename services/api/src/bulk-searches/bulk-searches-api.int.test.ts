import ExcelJS from 'exceljs';
import pdfParse from 'pdf-parse';
import request from 'supertest';
import {
  addMonths,
  BULK_MAX_FILE_BYTES,
  firstDayOfMonth,
  romeMonth,
  streams,
  type BulkJobDto,
  type BulkPreviewDto,
} from '@rna/domain';
import type { AidIndex, EventStore } from '@rna/infra';
import { anAid, startApiHarness, type ApiHarness } from '../documents/testing';
import { signAccessToken } from '../http/tokens';
import { requestBulkSearch, settleUnchargedJob } from './commands';
import { startBulkSearchRunner, type RunningBulkRunner } from './runner';
import { binaryBody as binary } from '../testing/binary-body';

const ACME = '01234567897';
const BETA = '12345678903';
const NONE = 'RSSMRA85T10A562S';
const WRONG = '01234567890';

/**
 * The event store of a process that dies at the first append `dies` picks: that append and every
 * call after it fail, as nothing more of a dead process reaches the store.
 */
function dyingAt(store: EventStore, dies: (stream: string, types: string[]) => boolean): EventStore {
  let dead = false;
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (!dead && property === 'appendToStream')
          dead = dies(
            args[0] as string,
            (args[1] as { type: string }[]).map((event) => event.type),
          );
        if (dead) return Promise.reject(new Error('the process died'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * A zip whose headers say every file inflates to `size` bytes, whatever it holds: the sizes are the
 * sender's word (central directory header: offset 24; local header: offset 22).
 */
function declaringSizes(zip: Buffer, size: number): Buffer {
  const lying = Buffer.from(zip);
  for (let at = 0; at + 30 <= lying.length; at += 1) {
    const signature = lying.readUInt32LE(at);
    if (signature === 0x02014b50) lying.writeUInt32LE(size, at + 24);
    else if (signature === 0x04034b50 && (lying.readUInt16LE(at + 6) & 0x08) === 0)
      lying.writeUInt32LE(size, at + 22);
  }
  return lying;
}

async function xlsxOf(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Clienti');
  rows.forEach((row) => sheet.addRow(row));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('Ricerca massiva over HTTP', () => {
  let api: ApiHarness;
  let runner: RunningBulkRunner | null = null;
  // the harness's pinned now: 10 March 2026, Rome; the de minimis window starts on 1 March 2023
  let leavingDay: string;

  beforeAll(async () => {
    api = await startApiHarness();
    const windowStart = addMonths(firstDayOfMonth(romeMonth(api.now())), -36);
    leavingDay = addMonths(windowStart, 2); // in the window now, out of it in 6 months
    await api.indexAids([
      anAid({
        codiceFiscaleBeneficiario: ACME,
        denominazioneBeneficiario: 'ACME S.R.L.',
        dataConcessione: leavingDay,
        elementoDiAiutoCents: 200_000_00,
      }),
      anAid({
        codiceFiscaleBeneficiario: ACME,
        denominazioneBeneficiario: 'ACME S.R.L.',
        dataConcessione: '2025-06-01',
        elementoDiAiutoCents: 150_000_00,
      }),
      anAid({
        codiceFiscaleBeneficiario: BETA,
        denominazioneBeneficiario: 'BETA S.P.A.',
        dataConcessione: '2025-09-01',
        elementoDiAiutoCents: 10_000_00,
        codProcedimento: '2',
        desProcedimento: 'Regime notificato',
      }),
    ]);
  });
  afterEach(async () => {
    await runner?.stop();
    runner = null;
  });
  afterAll(async () => {
    await api.close();
  });

  const auth = (test: request.Test, token: string) => test.set('Authorization', `Bearer ${token}`);
  const preview = (token: string) => auth(request(api.app).post('/api/bulk-searches/preview'), token);
  const run = (token: string, taxCodes: string[], sourceName = 'clienti.xlsx') =>
    auth(request(api.app).post('/api/bulk-searches'), token).send({ taxCodes, sourceName });
  const remaining = async (token: string) =>
    (await auth(request(api.app).get('/api/clients/me'), token).expect(200)).body.remainingSearches as number;
  const lastPosition = async () => {
    let after = 0;
    for (;;) {
      const page = await api.deps.eventStore.readAll({ after, maxCount: 1000 });
      if (page.length === 0) return after;
      after = page[page.length - 1]!.globalPosition;
    }
  };
  const job = async (token: string, jobId: string) =>
    (await auth(request(api.app).get(`/api/bulk-searches/${jobId}`), token).expect(200)).body as BulkJobDto;
  const downloadWorkbook = async (token: string, jobId: string) => {
    const response = await auth(request(api.app).get(`/api/bulk-searches/${jobId}/sheet`), token)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.body as unknown as ArrayBuffer);
    return workbook;
  };
  const runAll = async (deps = api.deps) => {
    runner ??= startBulkSearchRunner(deps, { pollMs: 20 });
    await api.deps.awaitProjections?.();
    await runner.idle();
    await api.deps.awaitProjections?.();
  };

  describe('preview', () => {
    it('reads an xlsx’s first column under its header, and says what is new today and what it costs', async () => {
      const client = await api.client({ remainingSearches: 10 });
      await auth(request(api.app).get(`/api/documents?taxCodes=${ACME}`), client.token).expect(200);
      const before = await lastPosition();
      const file = await xlsxOf([
        ['Codice fiscale', 'Ragione sociale'],
        [ACME, 'ACME'],
        [BETA, 'Beta'],
        [ACME, 'ancora'],
        [WRONG, 'x'],
        ['n.d.', 'y'],
        [1234567897, 'numero'],
      ]);
      const response = await preview(client.token).attach('file', file, 'clienti.xlsx').expect(200);
      const body = response.body as BulkPreviewDto;
      expect(body).toMatchObject({
        sourceName: 'clienti.xlsx',
        column: 'Codice fiscale',
        columns: ['Codice fiscale', 'Ragione sociale'],
        taxCodes: [ACME, BETA, WRONG],
        warnings: [{ taxCode: WRONG, reason: 'CHECK_DIGIT' }],
        ignored: ['n.d.'],
        duplicates: 2, // ACME again, and 1234567897 typed as a number is ACME too
        newToday: 2,
        cost: 2,
        remainingSearches: 9,
        affordable: true,
      });
      expect(await lastPosition()).toBe(before); // nothing appended, nothing charged
      expect(await remaining(client.token)).toBe(9);
    });

    it('reads a CSV with ; and a header, a chosen column, and a pasted list', async () => {
      const client = await api.client({ remainingSearches: 1 });
      const csv = Buffer.from(
        `\uFEFFRagione sociale;P. IVA;Note\n"Acme; srl";${ACME};a\nBeta;${BETA};b\n`,
        'utf8',
      );
      const fromCsv = await preview(client.token).attach('file', csv, 'clienti.csv').expect(200);
      expect(fromCsv.body).toMatchObject({
        column: 'P. IVA',
        taxCodes: [ACME, BETA],
        cost: 2,
        affordable: false,
      });
      const chosen = await preview(client.token)
        .attach('file', csv, 'clienti.csv')
        .field('column', 'p.iva')
        .expect(200);
      expect(chosen.body.taxCodes).toEqual([ACME, BETA]);
      const pasted = await preview(client.token)
        .send({ text: `${ACME}\n${BETA}, ${ACME}\nciao` })
        .expect(200);
      expect(pasted.body).toMatchObject({
        sourceName: '',
        taxCodes: [ACME, BETA],
        duplicates: 1,
        ignored: ['ciao'],
      });
      const table = await preview(client.token)
        .send({ text: `Nome\tCF\nAcme\t${ACME}\n`, column: 'cf' })
        .expect(200);
      expect(table.body.taxCodes).toEqual([ACME]);
    });

    it('refuses bad input with its own code, keeping and charging nothing', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const before = await lastPosition();
      const ole = Buffer.concat([
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
        Buffer.alloc(504),
        Buffer.from('EncryptedPackage', 'utf16le'),
        Buffer.alloc(512),
      ]);
      const legacyXls = Buffer.concat([
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
        Buffer.alloc(1024),
      ]);
      const good = await xlsxOf([[ACME], [BETA]]);
      const many = Buffer.from(
        Array.from({ length: 5_001 }, (_, i) => String(10_000_000_000 + i)).join('\n'),
      );
      const cases: [string, Buffer, string, number][] = [
        ['B001', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n\u0000'), 'elenco.pdf', 415],
        [
          'B001',
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
          'elenco.xlsx',
          415,
        ],
        ['B001', legacyXls, 'elenco.xls', 415],
        ['B002', ole, 'protetto.xlsx', 400],
        ['B002', good.subarray(0, Math.floor(good.length / 2)), 'troncato.xlsx', 400],
        ['B003', many, 'troppi.csv', 400],
        ['B004', Buffer.alloc(BULK_MAX_FILE_BYTES + 1, 0x41), 'grande.csv', 413],
        ['B005', Buffer.from('Ragione sociale\nAcme\nBeta\n'), 'senza-codici.csv', 400],
      ];
      for (const [code, bytes, name, status] of cases) {
        const response = await preview(client.token).attach('file', bytes, name);
        expect({ name, status: response.status, code: response.body.code }).toEqual({ name, status, code });
      }
      expect((await preview(client.token).send({ text: ' \n ' }).expect(400)).body.code).toBe('B005');
      expect(await lastPosition()).toBe(before);
      expect(await remaining(client.token)).toBe(10);
    });

    // Building a 70 MB sheet and inflating it twice (to the 64 MB bound) is seconds of real work on
    // two busy cores: this case has its own time, not the 5 s default.
    it('refuses a zip bomb, honest or lying about its sizes, with B009 and keeps nothing', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const before = await lastPosition();
      // 70 MB of sheet text in a workbook of a few hundred KB, read at most to 64 MB
      const bomb = await xlsxOf([[ACME], ['A'.repeat(70 * 1024 * 1024)]]);
      expect(bomb.length).toBeLessThan(BULK_MAX_FILE_BYTES / 10);
      for (const [bytes, name] of [
        [bomb, 'bomba.xlsx'],
        [declaringSizes(bomb, 1_000), 'bomba-bugiarda.xlsx'],
      ] as const) {
        const response = await preview(client.token).attach('file', bytes, name);
        expect({ name, status: response.status, code: response.body.code }).toEqual({
          name,
          status: 413,
          code: 'B009',
        });
      }
      expect(await lastPosition()).toBe(before);
      expect(await remaining(client.token)).toBe(10);
    }, 60_000);
  });

  describe('running a list', () => {
    it('charges exactly the codes not looked up today, and ADMIN nothing', async () => {
      const client = await api.client({ remainingSearches: 10 });
      await auth(request(api.app).get(`/api/documents?taxCodes=${ACME}`), client.token).expect(200);
      const queued = (await run(client.token, [ACME, BETA, ` ${NONE.toLowerCase()} `, BETA]).expect(202))
        .body as BulkJobDto;
      expect(queued).toMatchObject({ status: 'QUEUED', totalCodes: 3, doneCodes: 0, cost: 2 });
      expect(await remaining(client.token)).toBe(7);
      // the same codes again that day: free
      expect((await run(client.token, [ACME, NONE]).expect(202)).body.cost).toBe(0);
      expect(await remaining(client.token)).toBe(7);
      expect((await run(client.token, ['123']).expect(400)).body.code).toBe('T002');
      expect((await run(client.token, []).expect(400)).body.code).toBe('B005');

      const admin = (await run(api.adminToken, [ACME, BETA]).expect(202)).body as BulkJobDto;
      expect(admin.cost).toBe(0);
      const adminId = (await auth(request(api.app).get('/api/users/me'), api.adminToken).expect(200)).body
        .id as string;
      const { events } = await api.deps.eventStore.readStream(streams.audit(adminId));
      expect(events.at(-1)).toMatchObject({
        type: 'SearchPerformed',
        data: { taxCodes: [ACME, BETA], cost: 0 },
      });
    });

    it('refuses a fixed-code client any other code (P001) and a list beyond what is left (U004)', async () => {
      const fixed = await api.client({ remainingSearches: 10, fixedTaxCode: ACME });
      expect((await run(fixed.token, [ACME, BETA]).expect(403)).body.code).toBe('P001');
      const poor = await api.client({ remainingSearches: 1 });
      expect((await run(poor.token, [ACME, BETA]).expect(429)).body.code).toBe('U004');
      expect(await remaining(poor.token)).toBe(1);
    });

    it('never overspends: two lists at once with searches left for one give one 202 and one U004', async () => {
      const client = await api.client({ remainingSearches: 3 });
      const lists = [
        ['10000000001', '10000000002', '10000000003'],
        ['10000000004', '10000000005', '10000000006'],
      ];
      const answers = await Promise.all(lists.map((codes) => run(client.token, codes)));
      expect(answers.map((a) => a.status).sort()).toEqual([202, 429]);
      expect(await remaining(client.token)).toBe(0);
      const jobs = (await auth(request(api.app).get('/api/bulk-searches'), client.token).expect(200))
        .body as BulkJobDto[];
      expect(jobs).toHaveLength(1);
    });
  });

  describe('a request that dies half-way', () => {
    const GRACE = 2 * 60_000;
    const codes = ['30000000001', '30000000002', ACME];
    const dieAt = async (
      client: { id: string; email: string; token: string },
      dies: (stream: string, types: string[]) => boolean,
    ) => {
      const principal = { userId: client.id, email: client.email, role: 'CLIENT' as const };
      await expect(
        requestBulkSearch({ ...api.deps, eventStore: dyingAt(api.deps.eventStore, dies) }, principal, {
          taxCodes: codes,
          sourceName: 'morto.csv',
        }),
      ).rejects.toThrow('the process died');
      const listed = (await auth(request(api.app).get('/api/bulk-searches'), client.token).expect(200))
        .body as BulkJobDto[];
      return listed.find((job) => job.sourceName === 'morto.csv')!;
    };
    const typesOf = async (jobId: string) =>
      (await api.deps.eventStore.readStream(streams.bulk(jobId))).events.map((e) => e.type);

    it('the job comes before its charge, and the charge names the job', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const { jobId, cost } = (await run(client.token, codes).expect(202)).body as BulkJobDto;
      expect(cost).toBe(3);
      expect(await typesOf(jobId)).toEqual(['BulkSearchRequested', 'BulkSearchCharged']);
      const quota = await api.deps.eventStore.readStream(streams.quota(client.id));
      const charges = quota.events.filter((e) => e.type === 'SearchPerformed');
      expect(charges).toHaveLength(1);
      expect(charges[0]!.data).toMatchObject({ bulkJobId: jobId, cost: 3, taxCodes: codes });
    });

    it('stalled past a request’s time before its charge lands: the job settled as B008 gets the charge back', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const principal = { userId: client.id, email: client.email, role: 'CLIENT' as const };
      // the request stalls (a paused process) just before its charge is appended; meanwhile the runner,
      // past a request's time, finds no charge and settles the job as never charged
      const stalling = new Proxy(api.deps.eventStore, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (property !== 'appendToStream' || typeof value !== 'function') return value;
          return async (
            stream: string,
            events: { type: string; data: { bulkJobId?: string } }[],
            options: unknown,
          ) => {
            const charge = events.find((e) => e.type === 'SearchPerformed' && e.data.bulkJobId);
            if (stream === streams.quota(client.id) && charge)
              expect(await settleUnchargedJob(api.deps, charge.data.bulkJobId!)).toBe('FAILED');
            return (value as (...a: unknown[]) => unknown).call(target, stream, events, options);
          };
        },
      });
      await expect(
        requestBulkSearch({ ...api.deps, eventStore: stalling }, principal, {
          taxCodes: codes,
          sourceName: 'in-ritardo.csv',
        }),
      ).rejects.toMatchObject({ code: 'B008' });
      const listed = (await auth(request(api.app).get('/api/bulk-searches'), client.token).expect(200))
        .body as BulkJobDto[];
      const settled = listed.find((job) => job.sourceName === 'in-ritardo.csv')!;
      expect(settled).toMatchObject({ status: 'FAILED', failureCode: 'B008', cost: 0 });
      // "nothing was charged" holds: the charge that landed late was given back, and the audit says so
      await api.deps.awaitProjections?.();
      expect(await remaining(client.token)).toBe(10);
      const quota = (await api.deps.eventStore.readStream(streams.quota(client.id))).events.map(
        (e) => e.type,
      );
      expect(quota.slice(-2)).toEqual(['SearchPerformed', 'SearchRefunded']);
    });

    it('dead before the charge: nothing charged, the job waits out a request’s time and then fails (B008)', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const dead = await dieAt(client, (stream) => stream === streams.quota(client.id));
      expect(dead).toMatchObject({ status: 'QUEUED', cost: 0 });
      expect(await remaining(client.token)).toBe(10);

      // while the request could still be charging, the runner leaves the job alone
      await runAll();
      expect(await typesOf(dead.jobId)).toEqual(['BulkSearchRequested']);

      const requestedAt = api.now();
      try {
        api.setNow(new Date(requestedAt.getTime() + GRACE + 1_000));
        await runner!.stop();
        runner = null;
        await runAll();
        expect((await typesOf(dead.jobId)).at(-1)).toBe('BulkSearchFailed');
        expect(await job(client.token, dead.jobId)).toMatchObject({
          status: 'FAILED',
          failureCode: 'B008',
          cost: 0,
        });
        // told by mail, as of any job that failed, and that nothing was charged
        expect(
          api.mails.filter((mail) => mail.to === client.email && mail.subject.startsWith('Ricerca')),
        ).toEqual([
          expect.objectContaining({
            subject: 'Ricerca massiva non riuscita',
            text: expect.stringContaining('nessuna ricerca è stata addebitata'),
          }),
        ]);
        expect(await remaining(client.token)).toBe(10);
        // nothing was looked up: the codes are not free today, a new list pays for them
        expect((await run(client.token, codes).expect(202)).body.cost).toBe(3);
      } finally {
        api.setNow(requestedAt);
      }
    });

    it('dead after the charge: the runner finds the charge by the job’s id and runs the job, charged once', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const dead = await dieAt(client, (_stream, types) => types.includes('BulkSearchCharged'));
      expect(await remaining(client.token)).toBe(7);
      const requestedAt = api.now();
      try {
        api.setNow(new Date(requestedAt.getTime() + GRACE + 1_000));
        await runAll();
        expect(await job(client.token, dead.jobId)).toMatchObject({ status: 'COMPLETED', cost: 3, aids: 2 });
        expect(await typesOf(dead.jobId)).toEqual(
          expect.arrayContaining(['BulkSearchRequested', 'BulkSearchCharged', 'BulkSearchCompleted']),
        );
        expect(await remaining(client.token)).toBe(7);
        const quota = await api.deps.eventStore.readStream(streams.quota(client.id));
        expect(quota.events.filter((e) => e.type === 'SearchPerformed')).toHaveLength(1);
      } finally {
        api.setNow(requestedAt);
      }
    });
  });

  describe('groups (impresa unica) in a list', () => {
    it('reads a "Gruppo" column, and the workbook sums each group’s de minimis together', async () => {
      const client = await api.client({ remainingSearches: 10 });
      const csv = `Codice fiscale;Gruppo\n${ACME};Gruppo Rossi\n${BETA};Gruppo Rossi\n`;
      const previewed = (
        await preview(client.token).attach('file', Buffer.from(csv), 'gruppi.csv').expect(200)
      ).body as BulkPreviewDto;
      expect(previewed.groups).toEqual([
        { taxCode: ACME, group: 'Gruppo Rossi' },
        { taxCode: BETA, group: 'Gruppo Rossi' },
      ]);
      const jobId = (
        (
          await auth(request(api.app).post('/api/bulk-searches'), client.token)
            .send({ taxCodes: previewed.taxCodes, sourceName: 'gruppi.csv', groups: previewed.groups })
            .expect(202)
        ).body as BulkJobDto
      ).jobId;
      await runAll();
      const workbook = await downloadWorkbook(client.token, jobId);
      const sheet = workbook.getWorksheet('Imprese uniche')!;
      const row = (sheet.getRow(2).values as unknown[]).slice(1);
      // ACME's 200,000 + 150,000 of general de minimis count for the group (BETA's aid is not de minimis):
      // 350,000 against 300,000, nothing left
      expect(row[0]).toBe('Gruppo Rossi');
      expect(row[1]).toBe(2);
      expect(row[4]).toBe(350_000);
      expect(row[6]).toBe(0);
      // a list without a group column has no such sheet
      const plain = ((await run(client.token, [ACME]).expect(202)).body as BulkJobDto).jobId;
      await runAll();
      expect((await downloadWorkbook(client.token, plain)).getWorksheet('Imprese uniche')).toBeUndefined();
    });
  });

  describe('fair shares', () => {
    it('keeps at most 3 jobs of a user open (B010), and takes the other users’ jobs in turns', async () => {
      // no runner while the jobs are asked for: the order is the runner's choice among open jobs, not
      // a race between this test's requests and a runner already polling
      await runner?.stop();
      runner = null;
      const greedy = await api.client({ remainingSearches: 100 });
      const modest = await api.client({ remainingSearches: 100 });
      // requested a second apart: with one instant for all, the first pick among equals is the
      // store's order, and the modest job could come first by chance
      const start = api.now();
      const greedyJobs: string[] = [];
      for (let i = 0; i < 3; i++) {
        api.setNow(new Date(api.now().getTime() + 1_000));
        greedyJobs.push(
          ((await run(greedy.token, [ACME], `lista ${i}`).expect(202)).body as BulkJobDto).jobId,
        );
      }
      api.setNow(new Date(api.now().getTime() + 1_000));
      await api.deps.awaitProjections?.();
      const fourth = await run(greedy.token, [BETA]).expect(429);
      expect(fourth.body.code).toBe('B010');
      const modestJob = ((await run(modest.token, [BETA]).expect(202)).body as BulkJobDto).jobId;
      const from = await lastPosition();
      await runAll();
      const completed = (await api.deps.eventStore.readAll({ after: from, maxCount: 10_000 }))
        .filter((event) => event.type === 'BulkSearchCompleted')
        .map((event) => (event.data as { jobId: string }).jobId);
      // requested last, run second: the greedy user's first job, then the other user's
      expect(completed).toHaveLength(4);
      expect(completed[0]).toBe(greedyJobs[0]);
      expect(completed[1]).toBe(modestJob);
      expect(new Set(completed)).toEqual(new Set([...greedyJobs, modestJob]));
      // with its jobs done, the greedy client may ask again
      await run(greedy.token, [BETA]).expect(202);
      await runAll();
      api.setNow(start);
    });

    it('runs 5 free repeats of a list a day and refuses more with B011, charging nothing', async () => {
      const client = await api.client({ remainingSearches: 10 });
      await run(client.token, [ACME, BETA]).expect(202);
      await runAll();
      expect(await remaining(client.token)).toBe(8);
      const answers: number[] = [];
      for (let i = 0; i < 8; i++) {
        const response = await run(client.token, [ACME, BETA]);
        answers.push(response.status);
        if (response.status !== 202) expect(response.body.code).toBe('B011');
        await runAll();
      }
      expect(answers).toEqual([202, 202, 202, 202, 202, 429, 429, 429]);
      expect(await remaining(client.token)).toBe(8);
      // a list with a code not looked up today is paid work, and still runs
      await run(client.token, [ACME, '11111111111']).expect(202);
      await runAll();
      expect(await remaining(client.token)).toBe(7);
    });
  });

  describe('a job’s results', () => {
    let client: { id: string; email: string; token: string };
    let jobId: string;

    beforeAll(async () => {
      client = await api.client({ remainingSearches: 10, pdfEnabled: true });
      jobId = (
        (await run(client.token, [ACME, BETA, NONE, WRONG], 'clienti marzo.xlsx').expect(202))
          .body as BulkJobDto
      ).jobId;
    });

    it('completes with a workbook of one row per company and every aid, and mails the user', async () => {
      await runAll();
      expect(await job(client.token, jobId)).toMatchObject({
        status: 'COMPLETED',
        doneCodes: 4,
        totalCodes: 4,
        companiesWithAids: 2,
        aids: 3,
        overCeiling: 1,
        downloaded: false,
      });
      const list = (await auth(request(api.app).get('/api/bulk-searches'), client.token).expect(200))
        .body as BulkJobDto[];
      expect(list.map((j) => j.jobId)).toEqual([jobId]);
      expect(api.mails.find((m) => m.to === client.email && m.subject.startsWith('Ricerca'))).toMatchObject({
        subject: 'Ricerca massiva completata',
        text: expect.stringContaining('http://portale.test/ricerca-massiva'),
      });

      const before = await remaining(client.token);
      const response = await auth(request(api.app).get(`/api/bulk-searches/${jobId}/sheet`), client.token)
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(response.headers['content-disposition']).toMatch(/ricerca-massiva-\d{4}-\d{2}-\d{2}\.xlsx/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.body as unknown as ArrayBuffer);
      const summary = workbook.getWorksheet('Riepilogo per impresa')!;
      const rows = summary.getSheetValues().slice(2) as unknown[][];
      const acme = rows.find((row) => row?.[1] === ACME)!;
      // 350,000 € used now; the aid of 200,000 € leaves the window within 6 months
      expect(acme.slice(1, 10)).toEqual([
        ACME,
        'ACME S.R.L.',
        2,
        expect.any(Number),
        350_000,
        -50_000,
        150_000,
        150_000,
        'Sì',
      ]);
      expect(summary.getRow(2).getCell(1).fill).toMatchObject({ fgColor: { argb: 'FFFFE4E4' } });
      const none = rows.find((row) => row?.[1] === NONE)!;
      expect(none[10]).toBe('Nessun aiuto trovato nel Registro');
      const wrong = rows.find((row) => row?.[1] === WRONG)!;
      expect(wrong[10]).toContain('carattere di controllo errato');
      expect(rows.find((row) => row?.[1] === 'Totale')?.[3]).toBe(3);
      const aids = workbook.getWorksheet('Aiuti')!;
      expect(aids.rowCount).toBe(4);
      expect((aids.getRow(1).values as unknown[]).slice(1)).toEqual([
        'Codice fiscale',
        'Beneficiario',
        'Data concessione',
        'COR',
        'CAR',
        'ID componente aiuto',
        'Soggetto concedente',
        'Titolo misura',
        'Titolo progetto',
        'Procedimento',
        'Codice regolamento',
        'Regolamento',
        'CUP',
        'Obiettivo',
        'Settore di attività',
        'Regione',
        'Importo nominale',
        'Elemento di aiuto',
        'De minimis',
        'File del registro',
      ]);
      // each aid's own references, read back, are the index's (as the register's file gave them)
      const indexed = await api.deps.aidIndex.search({ taxCodes: [ACME, BETA] });
      const header = (aids.getRow(1).values as unknown[]).slice(1);
      const cell = (row: unknown[], name: string) => row[header.indexOf(name)];
      const rowsById = new Map<unknown, unknown[]>();
      aids.eachRow((row, n) => {
        if (n > 1) {
          const values = (row.values as unknown[]).slice(1);
          rowsById.set(cell(values, 'ID componente aiuto'), values);
        }
      });
      for (const aid of indexed) {
        const row = rowsById.get(aid.idComponenteAiuto)!;
        expect([
          cell(row, 'COR'),
          cell(row, 'CAR'),
          cell(row, 'CUP'),
          cell(row, 'Codice regolamento'),
          cell(row, 'Titolo progetto'),
          cell(row, 'File del registro'),
          cell(row, 'Elemento di aiuto'),
        ]).toEqual([
          aid.cor,
          aid.car,
          aid.cup,
          aid.codRegolamento,
          aid.titoloProgetto,
          aid.sourceFile,
          aid.elementoDiAiutoCents / 100,
        ]);
      }

      // audited like a report, never charged
      expect(await remaining(client.token)).toBe(before);
      const quota = await api.deps.eventStore.readStream(streams.quota(client.id));
      expect(quota.events.at(-1)).toMatchObject({ type: 'ReportDownloaded', data: { kind: 'sheet' } });
      const stream = await api.deps.eventStore.readStream(streams.bulk(jobId));
      expect(stream.events.at(-1)).toMatchObject({ type: 'BulkResultDownloaded', data: { kind: 'sheet' } });
      await api.deps.awaitProjections?.();
      expect((await job(client.token, jobId)).downloaded).toBe(true);
    });

    it('lists the aids company by company in the list’s order, newest first, up to the sheet’s row limit', async () => {
      const other = await api.client({ remainingSearches: 10 });
      const { jobId: limited } = (await run(other.token, [BETA, NONE, ACME]).expect(202)).body as BulkJobDto;
      runner = startBulkSearchRunner(api.deps, { pollMs: 20, maxAidRows: 2 });
      await runAll();
      expect(await job(other.token, limited)).toMatchObject({ status: 'COMPLETED', aids: 3 });
      const workbook = await downloadWorkbook(other.token, limited);
      // the summary is still the first sheet, and counts every aid
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Riepilogo per impresa', 'Aiuti']);
      const summary = workbook
        .getWorksheet('Riepilogo per impresa')!
        .getSheetValues()
        .slice(2) as unknown[][];
      // then a blank row and when the figures were taken
      expect(summary.map((row) => row?.[1])).toEqual([
        BETA,
        NONE,
        ACME,
        'Totale',
        undefined,
        'Data generazione',
      ]);
      expect(summary.at(-3)?.[3]).toBe(3);
      const aids = workbook.getWorksheet('Aiuti')!.getSheetValues().slice(2) as unknown[][];
      expect(aids.map((row) => row?.[1])).toEqual([
        BETA,
        ACME,
        expect.stringMatching(/^Un altro aiuto non elencato/),
      ]);
      // ACME's newest aid is the one listed
      expect(aids[1]?.[3]).toEqual(new Date('2025-06-01T00:00:00.000Z'));
    });

    it('looks large companies up a few at a time, so that a job holds a bounded number of aids', async () => {
      const large = Array.from({ length: 40 }, (_, i) => String(40_000_000_000 + i));
      await api.indexAids(
        large.flatMap((code, i) =>
          Array.from({ length: 10 }, (_, k) =>
            anAid({
              idComponenteAiuto: String(40_000_000 + i * 10 + k),
              codiceFiscaleBeneficiario: code,
              denominazioneBeneficiario: `Grande ${i}`,
            }),
          ),
        ),
      );
      const other = await api.client({ remainingSearches: 100 });
      const { jobId: big } = (await run(other.token, large).expect(202)).body as BulkJobDto;
      const lookUps: { codes: number; aids: number }[] = [];
      const counting: AidIndex = {
        ...api.deps.aidIndex,
        search: async (query) => {
          const aids = await api.deps.aidIndex.search(query);
          lookUps.push({ codes: query.taxCodes?.length ?? 0, aids: aids.length });
          return aids;
        },
      };
      runner = startBulkSearchRunner({ ...api.deps, aidIndex: counting }, { pollMs: 20, aidsPerChunk: 50 });
      await runAll();
      expect(await job(other.token, big)).toMatchObject({
        status: 'COMPLETED',
        aids: 400,
        companiesWithAids: 40,
      });
      // a few codes first, then as many as keep about 50 aids
      expect(lookUps[0]!.codes).toBeLessThanOrEqual(16);
      for (const lookUp of lookUps.slice(1)) expect(lookUp.aids).toBeLessThanOrEqual(50);
      expect(lookUps.reduce((sum, lookUp) => sum + lookUp.codes, 0)).toBe(40);
    });

    it('gives a branded PDF naming the companies', async () => {
      const response = await auth(request(api.app).get(`/api/bulk-searches/${jobId}/pdf`), client.token)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const { text } = await pdfParse(response.body as Buffer);
      expect(text).toContain('ACME S.R.L.');
      expect(text).toContain('BETA S.P.A.');
      expect(text).toContain('clienti marzo.xlsx');
      // four companies: the table starts under the summary, on the one page
      expect(text).toContain('Riepilogo per impresa (4)');
      expect(text).toContain('Pagina 1 di 1');
    });

    it('hides a job from another user (B007) and refuses the PDF without pdfEnabled (P001)', async () => {
      const other = await api.client({ remainingSearches: 10, pdfEnabled: false });
      expect(
        (await auth(request(api.app).get(`/api/bulk-searches/${jobId}`), other.token).expect(404)).body.code,
      ).toBe('B007');
      expect(
        (await auth(request(api.app).get(`/api/bulk-searches/${jobId}/sheet`), other.token).expect(404)).body
          .code,
      ).toBe('B007');
      const own = ((await run(other.token, [ACME]).expect(202)).body as BulkJobDto).jobId;
      await runAll();
      expect(
        (await auth(request(api.app).get(`/api/bulk-searches/${own}/pdf`), other.token).expect(403)).body
          .code,
      ).toBe('P001');
    });

    it('answers B006 once 30 days have passed, and the sweep deletes the files', async () => {
      const start = api.now();
      api.setNow(new Date(start.getTime() + 31 * 86_400_000));
      // a session of that day (the one signed in 31 days earlier has long expired)
      const token = signAccessToken(api.deps, { userId: client.id, email: client.email, role: 'CLIENT' });
      try {
        expect((await job(token, jobId)).status).toBe('EXPIRED');
        expect(
          (await auth(request(api.app).get(`/api/bulk-searches/${jobId}/sheet`), token).expect(410)).body
            .code,
        ).toBe('B006');
        // both result files are kept until the sweep: the workbook and the PDF
        expect(await api.deps.blobs.exists(`bulk-${jobId}.xlsx`)).toBe(true);
        expect(await api.deps.blobs.exists(`bulk-${jobId}.pdf`)).toBe(true);
        runner = startBulkSearchRunner(api.deps, { pollMs: 20, sweepEveryMs: 0 });
        await runner.idle();
        expect(await api.deps.blobs.exists(`bulk-${jobId}.xlsx`)).toBe(false);
        expect(await api.deps.blobs.exists(`bulk-${jobId}.pdf`)).toBe(false);
      } finally {
        api.setNow(start);
      }
      expect(
        (await auth(request(api.app).get(`/api/bulk-searches/${jobId}/sheet`), client.token).expect(410)).body
          .code,
      ).toBe('B006');
    });
  });

  it('a crash in the middle of a job (its runner frozen for good, another started) resumes it: every code done, charged once', async () => {
    const client = await api.client({ remainingSearches: 20 });
    const codes = [ACME, BETA, ...Array.from({ length: 8 }, (_, i) => String(20_000_000_000 + i))];
    const jobId = ((await run(client.token, codes).expect(202)).body as BulkJobDto).jobId;
    expect(await remaining(client.token)).toBe(10);
    // the first runner's process dies on its third code: that search never answers, nothing after it
    // runs there (no stop, no tidying up), as after a SIGKILL or a frozen VM
    let searches = 0;
    const dying: AidIndex = {
      ...api.deps.aidIndex,
      search: async (query) => {
        searches += 1;
        if (searches > 2) return new Promise<never>(() => undefined);
        return api.deps.aidIndex.search(query);
      },
    };
    const first = startBulkSearchRunner(
      { ...api.deps, aidIndex: dying },
      { pollMs: 20, chunkSize: 1, progressEveryMs: 0 },
    );
    await api.deps.awaitProjections?.();
    for (;;) {
      const { events } = await api.deps.eventStore.readStream(streams.bulk(jobId));
      const progressed = events.filter((e) => e.type === 'BulkSearchProgressed');
      if (searches > 2 && progressed.length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await api.deps.awaitProjections?.();
    const halfway = await job(client.token, jobId);
    expect(halfway).toMatchObject({ status: 'RUNNING', doneCodes: 2 });

    // the restarted process: a runner of its own finds the job open and runs it to the end
    runner = startBulkSearchRunner(api.deps, { pollMs: 20 });
    void first.stop(); // never settles (its search never answers): the dead process stays dead
    await runAll();
    expect(await job(client.token, jobId)).toMatchObject({
      status: 'COMPLETED',
      doneCodes: codes.length,
      aids: 3,
    });
    expect(await remaining(client.token)).toBe(10);
    const quota = await api.deps.eventStore.readStream(streams.quota(client.id));
    expect(quota.events.filter((e) => e.type === 'SearchPerformed')).toHaveLength(1);
    const workbook = await downloadWorkbook(client.token, jobId);
    // header, one row per code, totals, a blank row and the generation date
    expect(workbook.getWorksheet('Riepilogo per impresa')!.rowCount).toBe(codes.length + 4);
  });
});

describe('Ricerca massiva previews under the per-user limit of paid work', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness({ paidRequestsPerMinute: 2 });
  });
  afterAll(() => api.close());

  it('answers Q001 past the minute’s budget instead of reading yet another file', async () => {
    const client = await api.client({ remainingSearches: 10 });
    const preview = () =>
      request(api.app)
        .post('/api/bulk-searches/preview')
        .set('Authorization', `Bearer ${client.token}`)
        .send({ text: `${ACME}\n${BETA}` });
    await preview().expect(200);
    await preview().expect(200);
    const refused = await preview().expect(429);
    expect(refused.body).toMatchObject({ code: 'Q001' });
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
