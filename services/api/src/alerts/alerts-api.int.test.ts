import request from 'supertest';
import type { Collection, Doc, DocumentStore } from '@rna/infra';
import { streams, type SyncEvent, type VariationAlertDto } from '@rna/domain';
import { anAid, startApiHarness, type ApiHarness } from '../documents/testing';
import { MAX_VARIATION_ALERTS } from './variation-alerts';
import {
  FORMER_AID_CHANGES_COLLECTION,
  INDEXED_IMPORTS_COLLECTION,
  latestAidChanges,
  noteAidChanges,
  type IndexedImportDoc,
} from '@rna/read-models';
import { notifyVariations, startVariationAlertNotifier } from './notifier';

describe('/api/variation-alerts and their notifications', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(() => api.close());

  /** Moves the API's pinned clock on, so that "before" and "after" are different instants. */
  const tick = () => api.setNow(new Date(api.now().getTime() + 1_000));

  const as = (token: string) => ({
    list: () => request(api.app).get('/api/variation-alerts').set('Authorization', `Bearer ${token}`),
    add: (taxCodes: unknown) =>
      request(api.app)
        .post('/api/variation-alerts')
        .set('Authorization', `Bearer ${token}`)
        .send({ taxCodes }),
    remove: (id: string) =>
      request(api.app).delete(`/api/variation-alerts/${id}`).set('Authorization', `Bearer ${token}`),
  });

  it('is refused with P001 to a client without variation alerts', async () => {
    const client = await api.client({ enableVariationAlerts: false });
    expect((await as(client.token).add(['01234567897']).expect(403)).body.code).toBe('P001');
    expect((await as(client.token).list().expect(403)).body.code).toBe('P001');
  });

  it('adds, lists and removes alerts of their owner only', async () => {
    const client = await api.client({ enableVariationAlerts: true });
    const created = (await as(client.token).add(['01234567897', '98765432109']).expect(201))
      .body as VariationAlertDto;
    expect(created).toMatchObject({ taxCodes: ['01234567897', '98765432109'], lastNotification: null });
    expect((await as(client.token).list().expect(200)).body).toEqual([created]);
    expect((await as(api.adminToken).list().expect(200)).body).toEqual([]);
    expect((await as(api.adminToken).remove(created.id).expect(404)).body.code).toBe('J005');
    await as(client.token).remove(created.id).expect(204);
    expect((await as(client.token).list().expect(200)).body).toEqual([]);
    expect((await as(client.token).add(['123']).expect(400)).body.code).toBe('T002');
  });

  it('names the company behind each watched code, as the newest indexed aid writes it', async () => {
    await api.indexAids([
      anAid({
        codiceFiscaleBeneficiario: '12312312312',
        denominazioneBeneficiario: 'VECCHIO NOME S.R.L.',
        dataConcessione: '2023-01-10',
      }),
      anAid({
        codiceFiscaleBeneficiario: '12312312312',
        denominazioneBeneficiario: 'BIANCHI COSTRUZIONI S.P.A.',
        dataConcessione: '2025-03-10',
      }),
    ]);
    const client = await api.client({ enableVariationAlerts: true });
    const created = (await as(client.token).add(['12312312312', '45645645645']).expect(201))
      .body as VariationAlertDto;
    const companies = [
      { taxCode: '12312312312', name: 'BIANCHI COSTRUZIONI S.P.A.' },
      // a code the archive has no aid of: no name, still listed
      { taxCode: '45645645645', name: null },
    ];
    expect(created.companies).toEqual(companies);
    const [listed] = (await as(client.token).list().expect(200)).body as VariationAlertDto[];
    expect(listed).toEqual({
      id: created.id,
      taxCodes: ['12312312312', '45645645645'],
      group: null,
      createdAt: api.now().getTime(),
      lastNotification: null,
      companies,
    });
  });

  it('lets a client with a fixed tax code watch only that code (P001 otherwise)', async () => {
    const client = await api.client({ enableVariationAlerts: true, fixedTaxCode: '01234567897' });
    expect((await as(client.token).add(['98765432109']).expect(403)).body.code).toBe('P001');
    expect((await as(client.token).add(['01234567897', '98765432109']).expect(403)).body.code).toBe('P001');
    await as(client.token).add([' 0123 4567 897 ']).expect(201);
  });

  it(`keeps at most ${MAX_VARIATION_ALERTS} alerts per user, even when they are added all at once`, async () => {
    const client = await api.client({ enableVariationAlerts: true });
    const codes = Array.from({ length: MAX_VARIATION_ALERTS + 10 }, (_, i) => String(10_000_000_000 + i));
    const answers = await Promise.all(codes.map((code) => as(client.token).add([code])));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(MAX_VARIATION_ALERTS);
    const refused = answers.filter((res) => res.status !== 201);
    expect(refused.map((res) => [res.status, res.body.code])).toEqual(refused.map(() => [409, 'V001']));
    // removing one makes room for one more
    const listed = (await as(client.token).list().expect(200)).body as VariationAlertDto[];
    await as(client.token).remove(listed[0]!.id).expect(204);
    await as(client.token).add(['99999999999']).expect(201);
    expect((await as(client.token).add(['88888888888']).expect(409)).body.code).toBe('V001');
  });

  it('mails nobody whose access ended or whose alerts were switched off since the alert was set', async () => {
    const expiring = await api.client({ enableVariationAlerts: true });
    const switchedOff = await api.client({ enableVariationAlerts: true });
    await as(expiring.token).add(['44444444444']).expect(201);
    await as(switchedOff.token).add(['44444444444']).expect(201);
    const admin = (path: string) =>
      request(api.app).put(`/api/clients/${path}`).set('Authorization', `Bearer ${api.adminToken}`);
    await admin(`${expiring.id}/limits`)
      .send({
        availableYearlySearches: 10,
        remainingSearches: 10,
        endDate: api.now().getTime() - 2 * 86_400_000,
      })
      .expect(200);
    await admin(`${switchedOff.id}/enable-variation-alerts`).send({ enable: false }).expect(200);
    await api.deps.awaitProjections?.();
    tick();
    await noteAidChanges(api.deps.documents, ['44444444444'], api.now().getTime());
    tick();
    api.mails.length = 0;
    const notifierDeps = { ...api.deps, publicUrl: api.deps.config.publicUrl };
    expect(await notifyVariations(notifierDeps, { runId: 'run-owners', at: api.now().toISOString() })).toBe(
      0,
    );
    expect(api.mails.map((m) => m.to)).toEqual([]);
  });

  it('after a sync, mails the owner of every alert whose codes changed and shows the notification', async () => {
    const client = await api.client({ enableVariationAlerts: true });
    const watched = (await as(client.token).add(['11111111111']).expect(201)).body as VariationAlertDto;
    const untouched = (await as(client.token).add(['22222222222']).expect(201)).body as VariationAlertDto;
    tick();
    await noteAidChanges(api.deps.documents, ['11111111111'], api.now().getTime());
    tick();
    const completed: SyncEvent = {
      type: 'SyncCompleted',
      data: {
        runId: 'run-1',
        at: api.now().toISOString(),
        succeeded: 1,
        failed: 0,
        skipped: 0,
        records: 10,
      },
    };
    await api.deps.eventStore.appendToStream(streams.sync('run-1'), [completed]);
    const notifierDeps = { ...api.deps, publicUrl: api.deps.config.publicUrl };
    api.mails.length = 0;
    expect(await notifyVariations(notifierDeps, completed.data)).toBe(1);
    // a redelivered SyncCompleted does not notify twice
    expect(await notifyVariations(notifierDeps, completed.data)).toBe(0);

    expect(api.mails).toHaveLength(1);
    expect(api.mails[0]).toMatchObject({ to: client.email });
    expect(api.mails[0]?.text).toContain('11111111111');
    await api.deps.awaitProjections?.();
    const listed = (await as(client.token).list().expect(200)).body as VariationAlertDto[];
    expect(listed.find((a) => a.id === watched.id)?.lastNotification).toEqual({
      at: expect.any(Number),
      changes: 1,
    });
    expect(listed.find((a) => a.id === untouched.id)?.lastNotification).toBeNull();

    // nothing changed since the last check: the next sync stays silent
    tick();
    expect(await notifyVariations(notifierDeps, { runId: 'run-2', at: api.now().toISOString() })).toBe(0);
  });

  it('after a crash between the mail and its record, sends the same message again, never a second one', async () => {
    /** A client watching `code`, a change of it indexed, and the run that completed after it. */
    const watchedAndChanged = async (code: string, runId: string) => {
      const owner = await api.client({ enableVariationAlerts: true });
      await as(owner.token).add([code]).expect(201);
      tick();
      await noteAidChanges(api.deps.documents, [code], api.now().getTime());
      tick();
      api.mails.length = 0;
      return { owner, run: { runId, at: api.now().toISOString() } };
    };
    const { owner: client, run } = await watchedAndChanged('13131313131', 'run-crash');
    const errors: unknown[] = [];
    const base = {
      ...api.deps,
      publicUrl: api.deps.config.publicUrl,
      onError: (e: unknown) => errors.push(e),
    };

    // the SMTP server took the mail, then the process died before it knew: the next delivery sends it
    // again under the same Message-ID
    let failSend = true;
    const crashingMailer = {
      send: async (message: Parameters<typeof api.deps.mailer.send>[0]) => {
        await api.deps.mailer.send(message);
        if (failSend) {
          failSend = false;
          throw new Error('connection reset after DATA');
        }
      },
    };
    expect(await notifyVariations({ ...base, mailer: crashingMailer }, run)).toBe(0);
    expect(errors).toHaveLength(1);
    expect(await notifyVariations({ ...base, mailer: crashingMailer }, run)).toBe(1);
    expect(api.mails.map((m) => m.to)).toEqual([client.email, client.email]);
    expect(api.mails[0]?.messageId).toMatch(/^<variazione-.+-run-crash@.+>$/);
    expect(api.mails[1]?.messageId).toBe(api.mails[0]?.messageId);

    // a mail known as sent is not sent again when what follows it failed (the event's append)
    const { owner: client2, run: run2 } = await watchedAndChanged('14141414141', 'run-crash-2');
    let failAppend = true;
    const eventStore = Object.create(api.deps.eventStore) as typeof api.deps.eventStore;
    eventStore.appendToStream = async (...args: Parameters<typeof api.deps.eventStore.appendToStream>) => {
      if (failAppend && args[0] === streams.user(client2.id)) {
        failAppend = false;
        throw new Error('event store unavailable');
      }
      return api.deps.eventStore.appendToStream(...args);
    };
    expect(await notifyVariations({ ...base, eventStore }, run2)).toBe(0);
    expect(await notifyVariations({ ...base, eventStore }, run2)).toBe(1);
    expect(await notifyVariations({ ...base, eventStore }, run2)).toBe(0);
    expect(api.mails.map((m) => m.to)).toEqual([client2.email]);
    const triggered = (await api.deps.eventStore.readStream(streams.user(client2.id))).events.filter(
      (e) => e.type === 'VariationAlertTriggered',
    );
    expect(triggered).toHaveLength(1);
  });

  it('mails a change the projector indexes after the run completed (its last file) once, in that run', async () => {
    const client = await api.client({ enableVariationAlerts: true });
    await as(client.token).add(['77777777777']).expect(201);
    tick();
    const completedAt = api.now().getTime();
    const runEvents: SyncEvent[] = [
      {
        type: 'RegisterFileSucceeded',
        data: {
          runId: 'run-late',
          name: '2025_09',
          importId: 'import-late',
          records: 1,
          withdrawn: 0,
          controlBytesRemoved: 0,
          etag: null,
          lastModified: null,
          at: new Date(completedAt).toISOString(),
          recordsRejected: 0,
          rejected: [],
        },
      },
      {
        type: 'SyncCompleted',
        data: {
          runId: 'run-late',
          at: new Date(completedAt).toISOString(),
          succeeded: 1,
          failed: 0,
          skipped: 0,
          records: 1,
        },
      },
    ];
    await api.deps.eventStore.appendToStream(streams.sync('run-late'), runEvents);
    api.mails.length = 0;
    // the notifier's store, telling when it looked for the run's import and did not find it yet
    let lookedInVain: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (lookedInVain = resolve));
    const documents: DocumentStore = Object.assign(Object.create(api.deps.documents) as DocumentStore, {
      collection: <T extends Doc>(name: string): Collection<T> => {
        const inner = api.deps.documents.collection<T>(name);
        if (name !== INDEXED_IMPORTS_COLLECTION) return inner;
        return Object.assign(Object.create(inner) as Collection<T>, {
          get: async (id: string) => {
            const found = await inner.get(id);
            if (!found) lookedInVain();
            return found;
          },
        });
      },
    });
    const notifierDeps = { ...api.deps, documents, publicUrl: api.deps.config.publicUrl };
    // scale-out: the sync worker completed the run while the projector still indexes its last file
    const notified = notifyVariations(notifierDeps, {
      runId: 'run-late',
      at: new Date(completedAt).toISOString(),
    });
    await waiting; // the notifier is waiting for the index, not mailing what it has
    const indexedAt = completedAt + 5_000;
    await noteAidChanges(api.deps.documents, ['77777777777'], indexedAt);
    await api.deps.documents.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION).put({
      id: 'import-late',
      sourceFile: '2025_09',
      runId: 'run-late',
      records: 1,
      indexedAt,
    });
    expect(await notified).toBe(1);
    expect(api.mails.filter((mail) => mail.to === client.email).map((mail) => mail.text)).toEqual([
      expect.stringContaining('77777777777'),
    ]);
    // the next run, with nothing new for this code, does not mail it again
    api.setNow(new Date(indexedAt + 60_000));
    expect(await notifyVariations(notifierDeps, { runId: 'run-after', at: api.now().toISOString() })).toBe(0);
  });

  it('watches a group’s members as they are at each sync: a change to any of them is one mail naming the group', async () => {
    const client = await api.client({ enableVariationAlerts: true });
    const auth = (test: request.Test) => test.set('Authorization', `Bearer ${client.token}`);
    const group = (
      await auth(request(api.app).post('/api/groups'))
        .send({ name: 'Gruppo Verdi', members: [{ taxCode: '33333333333' }, { taxCode: '55555555555' }] })
        .expect(201)
    ).body as { id: string };
    const alert = (
      await auth(request(api.app).post('/api/variation-alerts')).send({ group: group.id }).expect(201)
    ).body as VariationAlertDto;
    expect(alert).toMatchObject({
      taxCodes: ['33333333333', '55555555555'],
      group: { id: group.id, name: 'Gruppo Verdi' },
    });
    // a member joins the group after the alert was set; then two members' aids change in one sync
    await auth(request(api.app).put(`/api/groups/${group.id}`))
      .send({ name: 'Gruppo Verdi', members: [{ taxCode: '33333333333' }, { taxCode: '66666666666' }] })
      .expect(200);
    tick();
    await noteAidChanges(api.deps.documents, ['66666666666'], api.now().getTime());
    await noteAidChanges(api.deps.documents, ['33333333333'], api.now().getTime());
    // the member that left the group is not watched any more
    await noteAidChanges(api.deps.documents, ['55555555555'], api.now().getTime());
    tick();
    api.mails.length = 0;
    const notifierDeps = { ...api.deps, publicUrl: api.deps.config.publicUrl };
    expect(await notifyVariations(notifierDeps, { runId: 'run-group', at: api.now().toISOString() })).toBe(1);
    const mine = api.mails.filter((mail) => mail.to === client.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.subject).toContain('Gruppo Verdi');
    expect(mine[0]?.text).toContain('66666666666');
    expect(mine[0]?.text).toContain('33333333333');
    expect(mine[0]?.text).not.toMatch(/^\s+55555555555$/m);
    // an alert on another user's group is refused as not found
    const other = await api.client({ enableVariationAlerts: true });
    const refused = await request(api.app)
      .post('/api/variation-alerts')
      .set('Authorization', `Bearer ${other.token}`)
      .send({ group: group.id });
    expect([refused.status, refused.body.code]).toEqual([404, 'I003']);
  });

  it('runs by itself on every SyncCompleted once started', async () => {
    const client = await api.client({ enableVariationAlerts: true });
    await as(client.token).add(['33333333333']).expect(201);
    const notifier = startVariationAlertNotifier({ ...api.deps, publicUrl: api.deps.config.publicUrl });
    try {
      await noteAidChanges(api.deps.documents, ['33333333333'], api.now().getTime() + 1);
      tick();
      await api.deps.eventStore.appendToStream(streams.sync('run-auto'), [
        {
          type: 'SyncCompleted',
          data: {
            runId: 'run-auto',
            at: api.now().toISOString(),
            succeeded: 1,
            failed: 0,
            skipped: 0,
            records: 1,
          },
        },
      ]);
      await notifier.caughtUp();
      expect(
        api.mails.filter((mail) => mail.to === client.email && mail.text.includes('33333333333')),
      ).toHaveLength(1);
    } finally {
      await notifier.stop();
    }
  });

  it('tells of a change made before the run was complete even when the code changed again after it', async () => {
    const client = await api.client({ enableVariationAlerts: true });
    await as(client.token).add(['81818181818']).expect(201);
    tick();
    await noteAidChanges(api.deps.documents, ['81818181818'], api.now().getTime());
    tick();
    const run = { runId: 'run-changed-twice', at: api.now().toISOString() };
    tick();
    // the next run is already indexing when this one's notification goes out
    await noteAidChanges(api.deps.documents, ['81818181818'], api.now().getTime());
    const notifierDeps = { ...api.deps, publicUrl: api.deps.config.publicUrl };
    api.mails.length = 0;
    expect(await notifyVariations(notifierDeps, run)).toBe(1);
    expect(api.mails.map((m) => m.to)).toEqual([client.email]);
    // the later change is told once, with the run it belongs to
    tick();
    expect(await notifyVariations(notifierDeps, { runId: 'run-next', at: api.now().toISOString() })).toBe(1);
    tick();
    expect(await notifyVariations(notifierDeps, { runId: 'run-quiet', at: api.now().toISOString() })).toBe(0);
  });
});

describe('the changes noted for variation alerts', () => {
  it('are forgotten once every alert was checked past them, and kept for an alert not told yet', async () => {
    const api = await startApiHarness();
    try {
      const tick = () => api.setNow(new Date(api.now().getTime() + 1_000));
      const noted = async () =>
        [...(await latestAidChanges(api.deps.documents, { upTo: Infinity })).keys()].sort();
      const notifierDeps = { ...api.deps, publicUrl: api.deps.config.publicUrl };
      // a data directory from before the log: its per-code notes go with the first trim
      const former = api.deps.documents.collection(FORMER_AID_CHANGES_COLLECTION);
      await former.put({ id: '10101010101' });
      // no alert: a completed sync forgets what was noted before it, not what came after
      await noteAidChanges(api.deps.documents, ['10101010101'], api.now().getTime());
      tick();
      const quiet = { runId: 'run-no-alert', at: api.now().toISOString() };
      tick();
      await noteAidChanges(api.deps.documents, ['12121212121'], api.now().getTime());
      expect(await notifyVariations(notifierDeps, quiet)).toBe(0);
      expect(await noted()).toEqual(['12121212121']);
      expect(await former.count()).toBe(0);

      // an alert whose mail could not go keeps its change, and the codes noted with it, for the next sync
      const client = await api.client({ enableVariationAlerts: true });
      await request(api.app)
        .post('/api/variation-alerts')
        .set('Authorization', `Bearer ${client.token}`)
        .send({ taxCodes: ['20202020202'] })
        .expect(201);
      tick();
      await noteAidChanges(api.deps.documents, ['20202020202', '30303030303'], api.now().getTime());
      tick();
      const errors: unknown[] = [];
      const smtpDown = {
        ...notifierDeps,
        mailer: { send: () => Promise.reject(new Error('SMTP down')) },
        onError: (error: unknown) => errors.push(error),
      };
      expect(await notifyVariations(smtpDown, { runId: 'run-smtp-down', at: api.now().toISOString() })).toBe(
        0,
      );
      expect(errors).toHaveLength(1);
      expect(await noted()).toEqual(['20202020202', '30303030303']);

      tick();
      api.mails.length = 0;
      expect(
        await notifyVariations(notifierDeps, { runId: 'run-smtp-up', at: api.now().toISOString() }),
      ).toBe(1);
      expect(api.mails[0]?.text).toContain('20202020202');
      expect(await noted()).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
