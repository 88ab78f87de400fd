/**
 * Variation alerts read model: one document per alert. A removed alert stays as a tombstone so
 * that a redelivered VariationAlertAdded cannot bring it back.
 */
import type { StoredVariationAlert, UserEvent } from '@rna/domain';
import { updateDocument, type Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const VARIATION_ALERTS_COLLECTION = 'variation-alerts';

export interface VariationAlertReadModel extends Doc {
  /** the alert id */
  id: string;
  userId: string;
  taxCodes: string[];
  /** the group the alert is on (absent on alerts on codes, and on older alerts) */
  group?: { id: string; name: string } | null;
  createdAt: number;
  removed: boolean;
  lastNotification: { at: number; changes: number; syncRunId: string } | null;
}

type AlertEvent = Extract<
  UserEvent,
  { type: 'VariationAlertAdded' | 'VariationAlertRemoved' | 'VariationAlertTriggered' }
>;

export function evolveAlert(
  current: VariationAlertReadModel | null,
  event: AlertEvent,
): VariationAlertReadModel | null {
  switch (event.type) {
    case 'VariationAlertAdded': {
      if (current) return current;
      const { alertId, userId, taxCodes, at, group } = event.data;
      return {
        id: alertId,
        userId,
        taxCodes,
        group: group ?? null,
        createdAt: Date.parse(at),
        removed: false,
        lastNotification: null,
      };
    }
    case 'VariationAlertRemoved':
      return current ? { ...current, removed: true } : null;
    case 'VariationAlertTriggered': {
      if (!current) return null;
      const { at, changes, syncRunId } = event.data;
      const when = Date.parse(at);
      if (current.lastNotification && current.lastNotification.at >= when) return current;
      return { ...current, lastNotification: { at: when, changes, syncRunId } };
    }
  }
}

export function alertDto(alert: VariationAlertReadModel): StoredVariationAlert {
  return {
    id: alert.id,
    taxCodes: alert.taxCodes,
    group: alert.group ?? null,
    createdAt: alert.createdAt,
    lastNotification: alert.lastNotification
      ? { at: alert.lastNotification.at, changes: alert.lastNotification.changes }
      : null,
  };
}

export const variationAlertsProjection: Projection = {
  name: 'variation-alerts',
  collections: [VARIATION_ALERTS_COLLECTION],
  handles: ['VariationAlertAdded', 'VariationAlertRemoved', 'VariationAlertTriggered'],
  async apply(event, stores) {
    const collection = stores.documents.collection<VariationAlertReadModel>(VARIATION_ALERTS_COLLECTION);
    const alertEvent = { type: event.type, data: event.data } as AlertEvent;
    await updateDocument(collection, alertEvent.data.alertId, (current) => evolveAlert(current, alertEvent));
  },
  async reset(stores) {
    await stores.documents.collection(VARIATION_ALERTS_COLLECTION).clear();
  },
};
