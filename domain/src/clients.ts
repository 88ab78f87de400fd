/** Client access rules (SPEC §4, §5): status label, renewal, end date at noon in Rome. */
import type { ClientStatusLabel } from './api';
import {
  addYears,
  parseIsoDay,
  romeDateTime,
  romeDay,
  romeNoonEpochMs,
  romeWallTimeToEpochMs,
} from './dates';
import type { Decider } from './decider';
import { DomainError } from './errors';
import type { Actor, ClientEvent } from './events';

function toEpochMs(instant: Date | number): number {
  return typeof instant === 'number' ? instant : instant.getTime();
}

/** Expired from the end date's very instant on. */
export function isAccessExpired(endDate: number, now: Date | number): boolean {
  return toEpochMs(now) >= endDate;
}

/** 'Scaduto' at or after endDate, else 'Attivo' when active, else 'In attesa'. */
export function clientStatusLabel(
  client: { active: boolean; endDate: number },
  now: Date | number,
): ClientStatusLabel {
  if (isAccessExpired(client.endDate, now)) return 'Scaduto';
  return client.active ? 'Attivo' : 'In attesa';
}

/**
 * Renewal: the same wall-clock time in Rome (12:00 for end dates set by the product) one calendar
 * year later; 29 Feb becomes 28 Feb. DST-correct, unlike adding 365 days of milliseconds.
 */
export function renewEndDate(endDate: number): number {
  const wall = romeDateTime(endDate);
  return romeWallTimeToEpochMs(addYears(romeDay(endDate), 1), wall.hour, wall.minute);
}

/**
 * What "Rinnova" gives: a year from the later of today (12:00 Rome, as end dates are stored) and
 * the current end date. A client whose access ended long ago gets a full year from today, active at
 * once; one still active loses none of the time it has left.
 */
export function renewedEndDate(currentEndDate: number | null, now: Date | number): number {
  const todayNoon = romeNoonEpochMs(romeDay(now));
  return renewEndDate(Math.max(currentEndDate ?? todayNoon, todayNoon));
}

/** The end date chosen as a day ('YYYY-MM-DD') is stored as 12:00 Europe/Rome of that day. J001 if malformed. */
export function endDateFromDay(day: string): number {
  if (!parseIsoDay(day)) throw new DomainError('J001', `Data di scadenza non valida: "${day}"`);
  return romeNoonEpochMs(day);
}

/**
 * What the client stream knows for its decisions: the address it was invited with, until removed,
 * and whether the client has chosen its own password yet (ClientActivated).
 */
export interface ClientDecisionState {
  email: string | null;
  activated: boolean;
}

/**
 * What a sign-in with the right password opens: everything, or — while the password is still the
 * invitation code the administrator sent — only the choice of a new password (A004 elsewhere).
 */
export type SignInStep = 'signed-in' | 'choose-password';

export function signInStep(state: Pick<ClientDecisionState, 'activated'>): SignInStep {
  return state.activated ? 'signed-in' : 'choose-password';
}

/** What an administrator asks of a client's account (SPEC §5). */
export type ClientCommand =
  | { type: 'SetFixedTaxCode'; data: { clientId: string; fixedTaxCode: string | null; by: Actor } }
  | {
      type: 'SetFlags';
      data: { clientId: string; pdfEnabled?: boolean; enableVariationAlerts?: boolean; by: Actor };
    }
  /** The logo's existence is checked by the caller (logos are another stream). */
  | { type: 'AssignLogo'; data: { clientId: string; logoId: number; by: Actor } }
  | { type: 'RemoveClient'; data: { clientId: string; by: Actor } }
  /** A sign-in with the client's own password (not the invitation code). */
  | { type: 'RecordSignIn'; data: { clientId: string; at: string } }
  /**
   * The client, signed in with the invitation code, chose its own password: the profile is active
   * from now on, and the code no longer signs in (the credential itself is not an event's business).
   */
  | {
      type: 'ChooseFirstPassword';
      /** signedIn: chosen in the session the invitation code opened (not from a reset link) */
      data: { clientId: string; at: string; signedIn: boolean };
    };

export const clientDecider: Decider<ClientCommand, ClientEvent, ClientDecisionState> = {
  initialState: { email: null, activated: false },
  evolve(state, event) {
    if (event.type === 'ClientInvited') return { email: event.data.email, activated: false };
    if (event.type === 'ClientActivated') return { ...state, activated: true };
    if (event.type === 'ClientRemoved') return { email: null, activated: false };
    return state;
  },
  decide(command, state) {
    // never invited, or removed: there is no such client
    if (state.email === null) throw new DomainError('U001');
    if (command.type === 'RecordSignIn') {
      // the invitation code opens nothing but the choice of a password
      if (signInStep(state) === 'choose-password') throw new DomainError('A004');
      return [
        { type: 'ClientAccessed', data: { clientId: command.data.clientId, accessedAt: command.data.at } },
      ];
    }
    if (command.type === 'ChooseFirstPassword') {
      // chosen already (a second tab, a retried request): nothing more happened
      if (state.activated) return [];
      const { clientId, at, signedIn } = command.data;
      const activated: ClientEvent = { type: 'ClientActivated', data: { clientId, activatedAt: at } };
      // the session the code opened goes on with the password: that is the client's access
      return signedIn
        ? [activated, { type: 'ClientAccessed', data: { clientId, accessedAt: at } }]
        : [activated];
    }
    const { clientId, by } = command.data;
    switch (command.type) {
      case 'SetFixedTaxCode': {
        const { fixedTaxCode } = command.data;
        return [
          fixedTaxCode === null
            ? { type: 'ClientFixedTaxCodeRemoved', data: { clientId, by } }
            : { type: 'ClientFixedTaxCodeSet', data: { clientId, fixedTaxCode, by } },
        ];
      }
      case 'SetFlags': {
        const { pdfEnabled, enableVariationAlerts } = command.data;
        const events: ClientEvent[] = [];
        if (pdfEnabled !== undefined)
          events.push({ type: 'ClientPdfEnabledSet', data: { clientId, enabled: pdfEnabled, by } });
        if (enableVariationAlerts !== undefined)
          events.push({
            type: 'ClientVariationAlertsEnabledSet',
            data: { clientId, enabled: enableVariationAlerts, by },
          });
        return events;
      }
      case 'AssignLogo':
        return [{ type: 'ClientLogoAssigned', data: { clientId, logoId: command.data.logoId, by } }];
      case 'RemoveClient':
        return [{ type: 'ClientRemoved', data: { clientId, by } }];
    }
  },
};
