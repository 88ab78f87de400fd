import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DomainEventType, EventOfType } from '@rna/domain';
import type { RecordedEvent } from '@rna/infra';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { openSqliteDocumentStore } from '@rna/infra/documents';
import type { ProjectionStores } from '../projection';
import { CLIENTS_COLLECTION, clientsProjection, type ClientReadModel } from '../clients';
import { LOGOS_COLLECTION, logosProjection, type LogoReadModel } from '../logos';

const by = { userId: 'admin', email: 'admin@x.it', role: 'ADMIN' as const };
let position = 0;
/** A recorded domain event; the data carries only the fields the projections read. */
function recorded<T extends DomainEventType>(
  streamName: string,
  streamVersion: number,
  type: T,
  data: Partial<EventOfType<T>['data']>,
): RecordedEvent<EventOfType<T>> {
  const event = { type, data } as unknown as EventOfType<T>;
  return { ...event, streamName, streamVersion, globalPosition: ++position, metadata: {}, createdAt: '' };
}

const clientEvents = [
  recorded('client-c1', 0, 'ClientInvited', {
    clientId: 'c1',
    email: 'c1@x.it',
    fixedTaxCode: null,
    invitedAt: '2026-01-01T10:00:00.000Z',
    by,
  }),
  recorded('quota-c1', 0, 'SearchAllowanceGranted', {
    clientId: 'c1',
    availableYearlySearches: 10,
    remainingSearches: 10,
    endDate: 1_900_000_000_000,
    at: '',
    by,
  }),
  recorded('client-c1', 1, 'ClientActivated', { clientId: 'c1', activatedAt: '2026-01-02T10:00:00.000Z' }),
  recorded('quota-c1', 1, 'SearchPerformed', {
    clientId: 'c1',
    cost: 3,
    taxCodes: [],
    deMinimis: false,
    last3Years: false,
  }),
  recorded('quota-c1', 2, 'SearchRefused', {
    clientId: 'c1',
    code: 'U004',
    taxCodes: [],
    deMinimis: false,
    last3Years: false,
  }),
  recorded('client-c1', 2, 'ClientPdfEnabledSet', { clientId: 'c1', enabled: true, by }),
];

describe('account projections', () => {
  let dir: string;
  let stores: ProjectionStores;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'projector-'));
    stores = {
      documents: openSqliteDocumentStore(path.join(dir, 'documents.db')),
      aidIndex: openSqliteAidIndex(path.join(dir, 'aids.db')),
    };
  });
  afterEach(async () => {
    await stores.documents.close();
    await stores.aidIndex.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const client = () => stores.documents.collection<ClientReadModel>(CLIENTS_COLLECTION).get('c1');

  it('builds a client from both of its streams', async () => {
    for (const event of clientEvents) await clientsProjection.apply(event, stores);
    expect(await client()).toMatchObject({
      email: 'c1@x.it',
      active: true,
      activationTime: Date.parse('2026-01-02T10:00:00.000Z'),
      remainingSearches: 7,
      availableYearlySearches: 10,
      pdfEnabled: true,
    });
  });

  it('is idempotent: redelivered events (at-least-once) change nothing, searches are not charged twice', async () => {
    for (const event of clientEvents) await clientsProjection.apply(event, stores);
    const once = await client();
    for (const event of clientEvents) await clientsProjection.apply(event, stores);
    expect(await client()).toEqual(once);
  });

  it('forgets a removed client, and a rebuild from zero gives the same read model', async () => {
    const removal = recorded('client-c1', 3, 'ClientRemoved', { clientId: 'c1', by });
    for (const event of [...clientEvents, removal]) await clientsProjection.apply(event, stores);
    expect(await client()).toBeNull();
    await clientsProjection.reset(stores);
    for (const event of clientEvents) await clientsProjection.apply(event, stores);
    expect((await client())?.remainingSearches).toBe(7);
  });

  it('keeps deleted logos as tombstones so their ids are not reused', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    await logosProjection.apply(
      recorded('logo-3', 0, 'LogoUploaded', {
        logoId: 3,
        name: 'A',
        fileName: 'logo-3.png',
        contentType: 'image/png',
        at,
        by,
      }),
      stores,
    );
    await logosProjection.apply(recorded('logo-3', 1, 'LogoDeleted', { logoId: 3, at, by }), stores);
    const logo = await stores.documents.collection<LogoReadModel>(LOGOS_COLLECTION).get('3');
    expect(logo).toMatchObject({ logoId: 3, deleted: true });
  });
});
