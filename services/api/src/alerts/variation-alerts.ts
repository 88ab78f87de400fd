/**
 * Variation alerts: a user asks to be told when a sync changes the aids of some tax codes.
 * Written as events on `user-<id>` (ownership decided on that stream), listed from the read model.
 */
import { randomUUID } from 'node:crypto';
import {
  assertOnlyFixedTaxCode,
  DomainError,
  parseSearchTaxCodes,
  streams,
  type AlertCompanyDto,
  type StoredVariationAlert,
  type UndertakingGroupDto,
  type UserDecisionState,
  type UserEvent,
  type VariationAlertDto,
} from '@rna/domain';
import { ConcurrencyError, type AidIndex, type DocumentStore, type EventStore } from '@rna/infra';
import { alertDto, VARIATION_ALERTS_COLLECTION, type VariationAlertReadModel } from '@rna/read-models/alerts';
import { readFolded } from '../http/snapshot-folds';

/** Alerts a user may keep at once: each one is checked after every sync. */
export const MAX_VARIATION_ALERTS = 50;

export interface AlertOwner {
  userId: string;
  role: 'ADMIN' | 'CLIENT';
  /** CLIENT only: whether the administrator enabled alerts for this client. */
  enableVariationAlerts: boolean;
  /** A client with a fixed tax code may watch only that code, as it may search only that code. */
  fixedTaxCode: string | null;
}

export function assertMayUseAlerts(owner: AlertOwner): void {
  if (owner.role !== 'ADMIN' && !owner.enableVariationAlerts) throw new DomainError('P001');
}

export async function listAlerts(documents: DocumentStore, userId: string): Promise<StoredVariationAlert[]> {
  const alerts = await documents
    .collection<VariationAlertReadModel>(VARIATION_ALERTS_COLLECTION)
    .find({ userId, removed: false }, { sortBy: 'createdAt', order: 'asc' });
  return alerts.map(alertDto);
}

/**
 * The company behind each watched code, so that a user reads "ACME S.R.L." rather than a bare tax
 * code: the name the archive's newest aid of that code writes (null when the archive has none, or
 * the index cannot answer now: a name is a help, never a reason to hide the alerts).
 */
export async function withCompanies(
  aidIndex: Pick<AidIndex, 'search'>,
  alerts: readonly StoredVariationAlert[],
): Promise<VariationAlertDto[]> {
  const codes = [...new Set(alerts.flatMap((alert) => alert.taxCodes))];
  const names = new Map<string, string | null>();
  // one code at a time: a user keeps at most MAX_VARIATION_ALERTS alerts, each a look-up of one aid
  for (const taxCode of codes) names.set(taxCode, await companyName(aidIndex, taxCode));
  return alerts.map((alert) => ({
    ...alert,
    companies: alert.taxCodes.map((taxCode): AlertCompanyDto => ({
      taxCode,
      name: names.get(taxCode) ?? null,
    })),
  }));
}

async function companyName(aidIndex: Pick<AidIndex, 'search'>, taxCode: string): Promise<string | null> {
  try {
    const [newest] = await aidIndex.search({ taxCodes: [taxCode], limit: 1 });
    return newest?.denominazioneBeneficiario.trim() || null;
  } catch {
    return null;
  }
}

export async function addAlert(
  deps: { eventStore: EventStore; clock: () => Date },
  owner: AlertOwner,
  rawTaxCodes: string | readonly string[],
  /** an alert on one of the owner's groups: its members now, followed as the group changes */
  group?: UndertakingGroupDto,
): Promise<StoredVariationAlert> {
  assertMayUseAlerts(owner);
  const taxCodes = group ? group.members.map((member) => member.taxCode) : parseSearchTaxCodes(rawTaxCodes);
  assertOnlyFixedTaxCode(owner.fixedTaxCode, taxCodes);
  const onGroup = group ? { id: group.id, name: group.name } : null;
  for (;;) {
    // The limit is decided on the user's own stream, so parallel requests cannot pass it together.
    const { version, ids } = await activeAlertIds(deps.eventStore, owner.userId);
    if (ids.size >= MAX_VARIATION_ALERTS) throw new DomainError('V001');
    const now = deps.clock();
    const event: UserEvent = {
      type: 'VariationAlertAdded',
      data: {
        userId: owner.userId,
        alertId: randomUUID(),
        taxCodes,
        at: now.toISOString(),
        ...(onGroup ? { group: onGroup } : {}),
      },
    };
    try {
      await deps.eventStore.appendToStream(streams.user(owner.userId), [event], { expectedVersion: version });
      return {
        id: event.data.alertId,
        taxCodes,
        group: onGroup,
        createdAt: now.getTime(),
        lastNotification: null,
      };
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}

/** Folds a user stream's events into what its decisions need: its live alerts and groups. */
export function evolveUserDecisions(state: UserDecisionState, event: UserEvent): UserDecisionState {
  if (event.type === 'VariationAlertAdded')
    return { ...state, alertIds: [...state.alertIds, event.data.alertId] };
  if (event.type === 'VariationAlertRemoved')
    return { ...state, alertIds: state.alertIds.filter((id) => id !== event.data.alertId) };
  const groups = state.groupIds ?? [];
  if (event.type === 'UndertakingGroupSaved' && !groups.includes(event.data.groupId))
    return { ...state, groupIds: [...groups, event.data.groupId] };
  if (event.type === 'UndertakingGroupDeleted')
    return { ...state, groupIds: groups.filter((id) => id !== event.data.groupId) };
  return state;
}

/** The decisions' view of a user's stream (alerts and groups), from its snapshot (see snapshot-folds). */
export function readUserDecisionState(eventStore: EventStore, userId: string) {
  return readFolded(eventStore, {
    stream: streams.user(userId),
    snapshots: streams.userSnapshots(userId),
    snapshotType: 'UserSnapshotTaken',
    initial: { alertIds: [], groupIds: [] },
    evolve: evolveUserDecisions,
  });
}

/**
 * The user's live alert ids, folded from the user's own stream (no projection lag), from a snapshot
 * and this process's last fold: a user stream only grows (saved searches, alerts triggered by every
 * sync), and replaying it whole made each alert change slower than the last.
 */
async function activeAlertIds(
  eventStore: EventStore,
  userId: string,
): Promise<{ version: number; ids: Set<string> }> {
  const { version, state } = await readUserDecisionState(eventStore, userId);
  return { version, ids: new Set(state.alertIds) };
}

/** Only the owner removes an alert; an unknown (or someone else's) alert is J005 (not found). */
export async function removeAlert(
  deps: { eventStore: EventStore; clock: () => Date },
  owner: AlertOwner,
  alertId: string,
): Promise<void> {
  for (;;) {
    const { version, ids } = await activeAlertIds(deps.eventStore, owner.userId);
    if (!ids.has(alertId)) throw new DomainError('J005', 'Avviso non trovato');
    const event: UserEvent = {
      type: 'VariationAlertRemoved',
      data: { userId: owner.userId, alertId, at: deps.clock().toISOString() },
    };
    try {
      await deps.eventStore.appendToStream(streams.user(owner.userId), [event], { expectedVersion: version });
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}
