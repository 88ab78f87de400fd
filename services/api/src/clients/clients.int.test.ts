import ExcelJS from 'exceljs';
import request from 'supertest';
import { renewedEndDate, streams, type ClientDto, type InvitedClientDto } from '@rna/domain';
import { CREDENTIALS_COLLECTION, type Credential } from '../accounts/credentials';
import { ADMIN_EMAIL, startTestApi, type TestApi } from '../testing/harness';
import { INVITATION_GRACE_MS } from './invite';

jest.setTimeout(60_000);

describe('client administration', () => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.adminToken();
  });
  afterAll(() => api.close());

  const asAdmin = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    request(api.app)[method](`/api${path}`).set('Authorization', `Bearer ${admin}`);
  const list = async () => (await asAdmin('get', '/clients').expect(200)).body as ClientDto[];

  it('invites a client by mail in Italian; the code is given back once, never listed, and stops at the first sign-in', async () => {
    const res = await asAdmin('post', '/clients/invite')
      .send({ email: ' Nuovo.Cliente@Example.it ', fixedTaxCode: '01234567897' })
      .expect(200);
    const client = res.body as InvitedClientDto;
    expect(client).toMatchObject({
      email: 'nuovo.cliente@example.it',
      taxCode: '01234567897',
      active: false,
      status: 'In attesa',
      invitedAt: api.deps.clock().getTime(),
      activationTime: null,
      remainingSearches: 100,
    });
    const code = client.invitationCode;
    const mail = await api.smtp.waitFor('nuovo.cliente@example.it');
    expect(mail.subject).toBe('Invito al Portale Aiuti di Stato');
    expect(mail.text).toContain('http://portale.test/');
    expect(mail.text.split(/\r?\n/)).toContain(`Codice di invito: ${code}`);
    expect(mail.text).toContain('Al primo accesso dovrà scegliere una nuova password');
    // the administrator's list and the client's own answer never carry the code again
    const listed = await asAdmin('get', '/clients').expect(200);
    expect(listed.text).not.toContain(code);
    expect(listed.text).not.toContain('invitationCode');

    // signing in with the code only opens the choice of a password: still waiting
    const first = await api.signIn('nuovo.cliente@example.it', code);
    expect(first.passwordChangeRequired).toBe(true);
    expect((await list()).find((c) => c.id === client.id)).toMatchObject({
      active: false,
      lastAccessTime: null,
    });

    const tokens = await api.firstSignIn('nuovo.cliente@example.it', code, 'scelta-dal-cliente');
    expect(tokens.user.taxCode).toBe('01234567897');
    expect(tokens.passwordChangeRequired).toBeUndefined();
    const after = (await list()).find((c) => c.id === client.id)!;
    expect(after).toMatchObject({ active: true, status: 'Attivo' });
    expect(after.activationTime).toBe(api.deps.clock().getTime());
    expect(after.lastAccessTime).toBe(api.deps.clock().getTime());
    const events = await api.deps.eventStore.readStream(streams.client(client.id));
    expect(events.events.map((e) => e.type)).toEqual(['ClientInvited', 'ClientActivated', 'ClientAccessed']);
    // No secret in any event.
    expect(JSON.stringify(events.events)).not.toContain(code);
    expect(JSON.stringify(events.events)).not.toContain('scelta-dal-cliente');
  });

  it('refuses an email already in use (U002), the administrator’s included', async () => {
    await api.inviteClient('doppio@example.it');
    const again = await asAdmin('post', '/clients/invite').send({ email: 'DOPPIO@example.it' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('U002');
    expect((await asAdmin('post', '/clients/invite').send({ email: ADMIN_EMAIL })).body.code).toBe('U002');
  });

  it('frees an email an invitation that died halfway left reserved, once no request can still be on its way', async () => {
    const credentials = api.deps.documents.collection<Credential>(CREDENTIALS_COLLECTION);
    // a process killed after reserving the email and before anything else: no client was created
    const reserve = (email: string, userId: string, agoMs: number) =>
      credentials.put({
        id: email,
        userId,
        role: 'CLIENT',
        passwordHash: 'x',
        invitationCode: 'x',
        activated: false,
        status: 'pending',
        reservedAt: api.deps.clock().getTime() - agoMs,
      });
    await reserve('morto@example.it', 'ghost-1', 60_000);
    // a minute ago: it may still be sending the mail
    expect((await asAdmin('post', '/clients/invite').send({ email: 'morto@example.it' })).body.code).toBe(
      'U002',
    );
    await reserve('morto@example.it', 'ghost-1', INVITATION_GRACE_MS + 1_000);
    const invited = (await asAdmin('post', '/clients/invite').send({ email: 'morto@example.it' }).expect(200))
      .body as InvitedClientDto;
    expect(invited).toMatchObject({ email: 'morto@example.it', status: 'In attesa' });
    await api.signIn('morto@example.it', invited.invitationCode);

    // one that died after the client was created, before it was marked ready: the client stands
    const created = await api.inviteClient('quasi@example.it');
    const half = await credentials.getWithRevision('quasi@example.it');
    await credentials.put(
      {
        ...half!.doc,
        status: 'pending',
        reservedAt: api.deps.clock().getTime() - INVITATION_GRACE_MS - 1_000,
      },
      { expectedRevision: half!.revision },
    );
    expect((await asAdmin('post', '/clients/invite').send({ email: 'quasi@example.it' })).body.code).toBe(
      'U002',
    );
    expect((await credentials.get('quasi@example.it'))?.status).toBe('ready');
    await api.signIn('quasi@example.it', created.code);
  });

  it('leaves no client behind when the invitation mail cannot be sent (G003)', async () => {
    api.smtp.refuseAll(true);
    try {
      const res = await asAdmin('post', '/clients/invite').send({ email: 'irraggiungibile@example.it' });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('G003');
    } finally {
      api.smtp.refuseAll(false);
    }
    expect((await list()).some((c) => c.email === 'irraggiungibile@example.it')).toBe(false);
    await api.inviteClient('irraggiungibile@example.it');
  });

  it('sets limits (end date at 12:00 Rome), renews by one year, and reflects searches from the quota stream', async () => {
    const { id } = await api.inviteClient('quote@example.it');
    const limited = (
      await asAdmin('put', `/clients/${id}/limits`)
        .send({ availableYearlySearches: 50, remainingSearches: 20, endDate: '2026-06-30' })
        .expect(200)
    ).body as ClientDto;
    expect(limited).toMatchObject({ availableYearlySearches: 50, remainingSearches: 20 });
    expect(new Date(limited.endDate).toISOString()).toBe('2026-06-30T10:00:00.000Z');

    await api.deps.eventStore.appendToStream(streams.quota(id), [
      {
        type: 'SearchPerformed',
        data: {
          clientId: id,
          taxCodes: ['01234567897', '12345678903'],
          deMinimis: false,
          last3Years: false,
          at: api.deps.clock().toISOString(),
          by: { userId: id, email: 'quote@example.it', role: 'CLIENT' },
          dataSource: 'ARCHIVE',
          resultCount: 3,
          cost: 2,
        },
      },
    ]);
    await api.deps.awaitProjections!();
    expect((await list()).find((c) => c.id === id)!.remainingSearches).toBe(18);

    const renewed = (await asAdmin('post', `/clients/${id}/renew`).expect(200)).body as ClientDto;
    expect(new Date(renewed.endDate).toISOString()).toBe('2027-06-30T10:00:00.000Z');
    expect(renewed.remainingSearches).toBe(50);
    const quota = await api.deps.eventStore.readStream(streams.quota(id));
    expect(quota.events.map((e) => e.type)).toEqual([
      'SearchAllowanceGranted',
      'SearchAllowanceGranted',
      'SearchPerformed',
      'SearchAllowanceGranted',
    ]);
  });

  it('shows Scaduto at the end date', async () => {
    const { id } = await api.inviteClient('breve@example.it');
    await asAdmin('put', `/clients/${id}/limits`)
      .send({ availableYearlySearches: 5, remainingSearches: 5, endDate: Date.parse('2026-03-10T11:00:00Z') })
      .expect(200);
    expect((await list()).find((c) => c.id === id)!.status).toBe('In attesa');
    api.advance(3 * 3_600_000);
    admin = await api.adminToken();
    expect((await list()).find((c) => c.id === id)!.status).toBe('Scaduto');
  });

  it('renews a client whose access ended long ago for a year from today: active again at once', async () => {
    const { id, code } = await api.inviteClient('rinnovo-scaduto@example.it');
    await asAdmin('put', `/clients/${id}/limits`)
      .send({ availableYearlySearches: 12, remainingSearches: 0, endDate: '2024-12-01' })
      .expect(200);
    const today = api.deps.clock();
    const renewed = (await asAdmin('post', `/clients/${id}/renew`).expect(200)).body as ClientDto;
    expect(renewed.endDate).toBe(renewedEndDate(null, today));
    expect(renewed.endDate).toBeGreaterThan(today.getTime() + 364 * 86_400_000);
    expect(renewed.status).not.toBe('Scaduto');
    expect(renewed.remainingSearches).toBe(12);
    // and it can sign in again
    await api.signIn('rinnovo-scaduto@example.it', code);
  });

  it('changes the tax-code limit, the permissions and the logo', async () => {
    const { id } = await api.inviteClient('impostazioni@example.it');
    const short = await asAdmin('put', `/clients/${id}/fixed-tax-code/12345`);
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('T002');
    expect(
      (await asAdmin('put', `/clients/${id}/fixed-tax-code/rssmra85t10a562s`).expect(200)).body.taxCode,
    ).toBe('RSSMRA85T10A562S');
    expect((await asAdmin('delete', `/clients/${id}/fixed-tax-code`).expect(200)).body.taxCode).toBeNull();
    const flags = (await asAdmin('put', `/clients/${id}`).send({ pdfEnabled: true }).expect(200))
      .body as ClientDto;
    expect(flags).toMatchObject({ pdfEnabled: true, enableVariationAlerts: false });
    await asAdmin('put', `/clients/${id}/enable-variation-alerts`).send({ enable: true }).expect(200);
    const pdfOff = (await asAdmin('put', `/clients/${id}/pdf-enabled`).send({ enabled: false }).expect(200))
      .body as ClientDto;
    expect(pdfOff).toMatchObject({ pdfEnabled: false, enableVariationAlerts: true });
    const withLogo = (await asAdmin('post', `/clients/${id}/change-logo`).send({ logoId: -1 }).expect(200))
      .body as ClientDto;
    expect(withLogo.logo).toEqual({ id: -1, name: 'default' });
    expect((await asAdmin('post', `/clients/${id}/change-logo`).send({ logoId: 4242 })).status).toBe(400);
    expect((await asAdmin('put', '/clients/missing-id/pdf-enabled').send({ enabled: true })).body.code).toBe(
      'U001',
    );
  });

  it('removes a client: gone from the list, its sign-in and tokens stop working, its email is free', async () => {
    const email = 'uscente@example.it';
    const { id, code } = await api.inviteClient(email);
    const tokens = await api.signIn(email, code);
    await asAdmin('delete', `/clients/${id}`).expect(204);
    expect((await list()).some((c) => c.id === id)).toBe(false);
    await request(api.app)
      .get('/api/users/me')
      .set('Authorization', `Bearer ${tokens.accessToken}`)
      .expect(401);
    await request(api.app).post('/api/auth/refresh').send({ refreshToken: tokens.refreshToken }).expect(401);
    await request(api.app).post('/api/auth/login').send({ email, password: code }).expect(401);
    await asAdmin('delete', `/clients/${id}`).expect(404);
    await api.inviteClient(email);
  });

  it('exports every client with every column to clienti-<day>.xlsx', async () => {
    const res = await asAdmin('get', '/clients/export')
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-disposition']).toMatch(/filename="?clienti-\d{4}-\d{2}-\d{2}\.xlsx"?$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(
      expect.arrayContaining(['Email', 'Stato', 'Data invito', 'Scadenza', 'Ricerche rimanenti', 'Logo']),
    );
    const clients = await list();
    expect(sheet.rowCount).toBe(clients.length + 1);
    const emails = [];
    for (let row = 2; row <= sheet.rowCount; row++) emails.push(sheet.getRow(row).getCell(2).value);
    expect(emails).toEqual(clients.map((c) => c.email));
    expect(sheet.getRow(2).getCell(9).value).toBeInstanceOf(Date);
  });
});
