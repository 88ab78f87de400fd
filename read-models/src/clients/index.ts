/**
 * The clients read model: one document per client, from its `client-<id>` stream and the
 * allowance and consumption on `quota-<id>`. Each stream's last applied version is kept in the
 * document, so a redelivered event is skipped (SearchPerformed subtracts, which is not idempotent
 * by itself).
 */
import { isEventOf, type ClientEvent, type QuotaEvent } from '@rna/domain';
import { updateDocument, type Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const CLIENTS_COLLECTION = 'clients';

export interface ClientReadModel extends Doc {
  email: string;
  taxCode: string | null;
  active: boolean;
  invitedAt: number;
  activationTime: number | null;
  lastAccessTime: number | null;
  endDate: number;
  availableYearlySearches: number;
  remainingSearches: number;
  enableVariationAlerts: boolean;
  pdfEnabled: boolean;
  logoId: number | null;
  /** Last applied versions of client-<id> and quota-<id>. */
  clientVersion: number;
  quotaVersion: number;
}

const clientEventTypes: readonly ClientEvent['type'][] = [
  'ClientInvited',
  'ClientActivated',
  'ClientAccessed',
  'ClientLimitsSet',
  'ClientFixedTaxCodeSet',
  'ClientFixedTaxCodeRemoved',
  'ClientPdfEnabledSet',
  'ClientVariationAlertsEnabledSet',
  'ClientLogoAssigned',
  'ClientAccessRenewed',
  'ClientRemoved',
];
const quotaEventTypes: readonly QuotaEvent['type'][] = [
  'SearchAllowanceGranted',
  'SearchPerformed',
  'SearchRefused',
  'SearchRefunded',
];

const ms = (iso: string) => new Date(iso).getTime();

/** Pure: the client document after one of its client-stream events (null = removed). */
export function evolveClient(
  doc: ClientReadModel | null,
  event: ClientEvent,
  version: number,
): ClientReadModel | null {
  if (event.type === 'ClientInvited') {
    if (doc) return doc;
    const d = event.data;
    return {
      id: d.clientId,
      email: d.email,
      taxCode: d.fixedTaxCode,
      active: false,
      invitedAt: ms(d.invitedAt),
      activationTime: null,
      lastAccessTime: null,
      endDate: 0,
      availableYearlySearches: 0,
      remainingSearches: 0,
      enableVariationAlerts: false,
      pdfEnabled: false,
      logoId: null,
      clientVersion: version,
      quotaVersion: -1,
    };
  }
  if (!doc) return null;
  const next = { ...doc, clientVersion: version };
  switch (event.type) {
    case 'ClientActivated':
      return { ...next, active: true, activationTime: ms(event.data.activatedAt) };
    case 'ClientAccessed':
      return { ...next, lastAccessTime: ms(event.data.accessedAt) };
    // Allowances are decided on the quota stream; these two only record the admin's action.
    case 'ClientLimitsSet':
    case 'ClientAccessRenewed':
      return next;
    case 'ClientFixedTaxCodeSet':
      return { ...next, taxCode: event.data.fixedTaxCode };
    case 'ClientFixedTaxCodeRemoved':
      return { ...next, taxCode: null };
    case 'ClientPdfEnabledSet':
      return { ...next, pdfEnabled: event.data.enabled };
    case 'ClientVariationAlertsEnabledSet':
      return { ...next, enableVariationAlerts: event.data.enabled };
    case 'ClientLogoAssigned':
      return { ...next, logoId: event.data.logoId };
    case 'ClientRemoved':
      return null;
  }
}

/** Pure: the client document after one of its quota-stream events. */
export function evolveClientQuota(doc: ClientReadModel, event: QuotaEvent, version: number): ClientReadModel {
  const next = { ...doc, quotaVersion: version };
  switch (event.type) {
    case 'SearchAllowanceGranted':
      return {
        ...next,
        availableYearlySearches: event.data.availableYearlySearches,
        remainingSearches: event.data.remainingSearches,
        endDate: event.data.endDate,
      };
    case 'SearchPerformed':
      return { ...next, remainingSearches: Math.max(0, doc.remainingSearches - event.data.cost) };
    case 'SearchRefunded':
      return { ...next, remainingSearches: doc.remainingSearches + event.data.cost };
    default:
      return next;
  }
}

export const clientsProjection: Projection<ClientEvent | QuotaEvent> = {
  name: 'clients',
  collections: [CLIENTS_COLLECTION],
  handles: [...clientEventTypes, ...quotaEventTypes],
  async apply(event, stores) {
    const clients = stores.documents.collection<ClientReadModel>(CLIENTS_COLLECTION);
    if (isEventOf('client', event)) {
      const clientId = event.data.clientId;
      let removed = false;
      await updateDocument(clients, clientId, (current) => {
        if (current && event.streamVersion <= current.clientVersion) return current; // redelivery
        const next = evolveClient(current, event, event.streamVersion);
        removed = next === null && current !== null;
        return next;
      });
      if (removed) await clients.delete(clientId);
      return;
    }
    // Only a client's own quota stream moves its counters (an ADMIN's audit stream holds the same events).
    if (isEventOf('quota', event) && event.streamName.startsWith('quota-')) {
      await updateDocument(clients, event.data.clientId, (current) =>
        !current || event.streamVersion <= current.quotaVersion
          ? current
          : evolveClientQuota(current, event, event.streamVersion),
      );
    }
  },
  async reset(stores) {
    await stores.documents.collection(CLIENTS_COLLECTION).clear();
  },
};
