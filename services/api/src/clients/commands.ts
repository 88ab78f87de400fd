/** Administration of an existing client: every change is an event on client-<id> or quota-<id>. */
import {
  DomainError,
  quotaDecider,
  romeDay,
  romeNoonEpochMs,
  stateOf,
  streams,
  type Actor,
  type QuotaCommand,
} from '@rna/domain';
import { ConcurrencyError } from '@rna/infra';
import { credentials } from '../accounts/credentials';
import { findLogo } from '../accounts/read-models';
import { decideOnClient, loadClientStream } from '../accounts/streams';
import { revokeAllSessions } from '../auth/sessions';
import type { ApiDeps } from '../http/deps';

export async function setFixedTaxCode(
  deps: ApiDeps,
  by: Actor,
  clientId: string,
  fixedTaxCode: string | null,
): Promise<void> {
  await decideOnClient(deps, { type: 'SetFixedTaxCode', data: { clientId, fixedTaxCode, by } });
}

export async function setFlags(
  deps: ApiDeps,
  by: Actor,
  clientId: string,
  flags: { pdfEnabled?: boolean; enableVariationAlerts?: boolean },
): Promise<void> {
  await decideOnClient(deps, { type: 'SetFlags', data: { clientId, ...flags, by } });
}

export async function assignLogo(deps: ApiDeps, by: Actor, clientId: string, logoId: number): Promise<void> {
  // U001 (decided first) before J001, as the client is the resource asked for
  await decideOnClient(deps, { type: 'AssignLogo', data: { clientId, logoId, by } }, async () => {
    if (!(await findLogo(deps, logoId))) throw new DomainError('J001', `Logo ${logoId} non trovato`);
  });
}

export async function removeClient(deps: ApiDeps, by: Actor, clientId: string): Promise<void> {
  const { email } = await decideOnClient(deps, { type: 'RemoveClient', data: { clientId, by } });
  // decided, so the client existed: its address is known (the decider refuses one without)
  if (email !== null && (await credentials(deps).get(email))?.userId === clientId) {
    await credentials(deps).delete(email);
  }
  await revokeAllSessions(deps, clientId);
}

/** End dates are kept at 12:00 Rome time of their day (SPEC §5). */
export function normalizeEndDate(endDate: number | string): number {
  return typeof endDate === 'string' ? romeNoonEpochMs(endDate) : romeNoonEpochMs(romeDay(endDate));
}

/**
 * Decides an allowance command on the client's quota stream (the domain's quotaDecider), at the version
 * it was read: a search appended in between makes the append fail, and the decision is taken again.
 */
async function decideOnQuota(deps: ApiDeps, command: QuotaCommand): Promise<void> {
  const { clientId } = command.data;
  await loadClientStream(deps, clientId);
  const stream = streams.quota(clientId);
  for (let attempt = 0; ; attempt++) {
    const { currentVersion, events } = await deps.eventStore.readStream(stream);
    const decided = quotaDecider.decide(command, stateOf(quotaDecider, events));
    try {
      await deps.eventStore.appendToStream(stream, decided, { expectedVersion: currentVersion });
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
  const at = deps.clock().toISOString();
  return decideOnQuota(deps, { type: 'GrantAllowance', data: { clientId, ...limits, at, by } });
}

/** Renewal: a year from the later of today and the current end date, and the full yearly allowance again. */
export function renewAccess(deps: ApiDeps, by: Actor, clientId: string) {
  return decideOnQuota(deps, { type: 'RenewAccess', data: { clientId, at: deps.clock().toISOString(), by } });
}
