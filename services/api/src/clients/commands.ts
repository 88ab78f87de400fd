/** Administration of an existing client: every change is an event on client-<id> or quota-<id>. */
import {
  DomainError,
  evolveQuota,
  initialQuotaState,
  renewedEndDate,
  romeDay,
  romeNoonEpochMs,
  streams,
  type Actor,
  type ClientEvent,
  type QuotaEvent,
  type QuotaState,
} from '@rna/domain';
import { ConcurrencyError } from '@rna/infra';
import { credentials } from '../accounts/credentials';
import { findLogo } from '../accounts/read-models';
import { appendClientEvents, loadClientStream } from '../accounts/streams';
import { revokeAllSessions } from '../auth/sessions';
import type { ApiDeps } from '../http/deps';

/** Appends client-stream events built from its current state, at the version they were decided on. */
export async function changeClient(
  deps: ApiDeps,
  clientId: string,
  decide: (state: { email: string }) => ClientEvent[] | Promise<ClientEvent[]>,
): Promise<void> {
  const state = await loadClientStream(deps, clientId);
  const events = await decide(state);
  if (events.length) await appendClientEvents(deps, clientId, events, state.version);
}

export function setFixedTaxCode(deps: ApiDeps, by: Actor, clientId: string, fixedTaxCode: string | null) {
  return changeClient(deps, clientId, () => [
    fixedTaxCode === null
      ? { type: 'ClientFixedTaxCodeRemoved', data: { clientId, by } }
      : { type: 'ClientFixedTaxCodeSet', data: { clientId, fixedTaxCode, by } },
  ]);
}

export function setFlags(
  deps: ApiDeps,
  by: Actor,
  clientId: string,
  flags: { pdfEnabled?: boolean; enableVariationAlerts?: boolean },
) {
  return changeClient(deps, clientId, () => {
    const events: ClientEvent[] = [];
    if (flags.pdfEnabled !== undefined)
      events.push({ type: 'ClientPdfEnabledSet', data: { clientId, enabled: flags.pdfEnabled, by } });
    if (flags.enableVariationAlerts !== undefined)
      events.push({
        type: 'ClientVariationAlertsEnabledSet',
        data: { clientId, enabled: flags.enableVariationAlerts, by },
      });
    return events;
  });
}

export function assignLogo(deps: ApiDeps, by: Actor, clientId: string, logoId: number) {
  return changeClient(deps, clientId, async () => {
    if (!(await findLogo(deps, logoId))) throw new DomainError('J001', `Logo ${logoId} non trovato`);
    return [{ type: 'ClientLogoAssigned', data: { clientId, logoId, by } }];
  });
}

export async function removeClient(deps: ApiDeps, by: Actor, clientId: string): Promise<void> {
  const state = await loadClientStream(deps, clientId);
  await appendClientEvents(
    deps,
    clientId,
    [{ type: 'ClientRemoved', data: { clientId, by } }],
    state.version,
  );
  const credential = await credentials(deps).get(state.email);
  if (credential?.userId === clientId) await credentials(deps).delete(state.email);
  await revokeAllSessions(deps, clientId);
}

/** End dates are kept at 12:00 Rome time of their day (SPEC §5). */
export function normalizeEndDate(endDate: number | string): number {
  return typeof endDate === 'string' ? romeNoonEpochMs(endDate) : romeNoonEpochMs(romeDay(endDate));
}

async function loadQuota(deps: ApiDeps, clientId: string): Promise<{ state: QuotaState; version: number }> {
  const { currentVersion, events } = await deps.eventStore.readStream(streams.quota(clientId));
  const state = events.reduce(
    (s, e) => evolveQuota(s, { type: e.type, data: e.data } as QuotaEvent),
    initialQuotaState,
  );
  return { state, version: currentVersion };
}

/**
 * Grants an allowance decided from the current quota state, at the version it was read: a search
 * appended in between makes the append fail, and the decision is taken again.
 */
async function grantAllowance(
  deps: ApiDeps,
  by: Actor,
  clientId: string,
  decide: (state: QuotaState) => {
    availableYearlySearches: number;
    remainingSearches: number;
    endDate: number;
  },
): Promise<void> {
  await loadClientStream(deps, clientId);
  for (let attempt = 0; ; attempt++) {
    const { state, version } = await loadQuota(deps, clientId);
    const allowance = decide(state);
    try {
      await deps.eventStore.appendToStream(
        streams.quota(clientId),
        [
          {
            type: 'SearchAllowanceGranted',
            data: { clientId, ...allowance, at: deps.clock().toISOString(), by },
          },
        ],
        { expectedVersion: version },
      );
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 10) throw error;
    }
  }
}

export function setLimits(
  deps: ApiDeps,
  by: Actor,
  clientId: string,
  limits: { availableYearlySearches: number; remainingSearches: number; endDate: number },
) {
  return grantAllowance(deps, by, clientId, () => limits);
}

/** Renewal: a year from the later of today and the current end date, and the full yearly allowance again. */
export function renewAccess(deps: ApiDeps, by: Actor, clientId: string) {
  return grantAllowance(deps, by, clientId, (state) => ({
    availableYearlySearches: state.availableYearlySearches,
    remainingSearches: state.availableYearlySearches,
    endDate: renewedEndDate(state.endDate, deps.clock()),
  }));
}
