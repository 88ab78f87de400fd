/**
 * Inviting a client: the email is reserved (credentials, compare-and-set), the invitation mail is
 * sent, and only then are the events appended. A mail that cannot be sent gives G003 and frees the
 * email again, so no half-created client remains. A process that died halfway (no compensation ran)
 * leaves a pending reservation: past a request's time it is taken over by the next invitation of the
 * email, or marked ready when the client was in fact created — never an email blocked for ever.
 */
import { randomUUID } from 'node:crypto';
import { DomainError, renewEndDate, romeDay, romeNoonEpochMs, streams, type Actor } from '@rna/domain';
import { ConflictError } from '@rna/infra';
import { credentials, type Credential } from '../accounts/credentials';
import { generatePassword, hashPassword } from '../accounts/passwords';
import type { ApiDeps } from '../http/deps';

/** Past this, a pending reservation belongs to an invitation that can no longer be under way. */
export const INVITATION_GRACE_MS = 10 * 60_000;

/**
 * May a new invitation take the email over from what holds it? Only from a pending reservation older
 * than a request can take whose client was never created; one whose client exists is marked ready
 * (the process died just before), and the email stays taken (U002).
 */
async function mayTakeOver(
  deps: ApiDeps,
  existing: { doc: Credential; revision: number },
  now: number,
): Promise<boolean> {
  const { doc } = existing;
  if (doc.status !== 'pending') return false;
  if (now - (doc.reservedAt ?? 0) < INVITATION_GRACE_MS) return false; // still on its way
  const { events } = await deps.eventStore.readStream(streams.client(doc.userId));
  const created = events.some((event) => event.type === 'ClientInvited');
  const removed = events.some((event) => event.type === 'ClientRemoved');
  if (created && !removed) {
    await credentials(deps)
      .put({ ...doc, status: 'ready' }, { expectedRevision: existing.revision })
      .catch((error: unknown) => {
        if (!(error instanceof ConflictError)) throw error;
      });
    return false;
  }
  return true;
}

/** A new client's allowance until an administrator sets its limits. */
export const INVITATION_YEARLY_SEARCHES = 100;

export function invitationMailText(publicUrl: string, email: string, code: string): string {
  return [
    'Gentile cliente,',
    '',
    'è stato abilitato il suo accesso al Portale Aiuti di Stato, per consultare gli aiuti registrati',
    'nel Registro Nazionale degli Aiuti di Stato (RNA) per codice fiscale.',
    '',
    `Per il primo accesso apra ${publicUrl.replace(/\/$/, '')}/ e inserisca come password il codice di invito:`,
    '',
    `Email: ${email}`,
    `Codice di invito: ${code}`,
    '',
    'Al primo accesso dovrà scegliere una nuova password, che da quel momento userà al posto del codice:',
    'il codice di invito vale solo per il primo accesso. Scelta la password, il suo profilo è attivo.',
    '',
  ].join('\n');
}

export async function inviteClient(
  deps: ApiDeps,
  by: Actor,
  input: { email: string; fixedTaxCode: string | null },
): Promise<{ clientId: string; invitationCode: string }> {
  const { email, fixedTaxCode } = input;
  const clientId = randomUUID();
  const code = generatePassword(10);
  const accounts = credentials(deps);
  const existing = await accounts.getWithRevision(email);
  if (existing && !(await mayTakeOver(deps, existing, deps.clock().getTime()))) throw new DomainError('U002');
  try {
    await accounts.put(
      {
        id: email,
        userId: clientId,
        role: 'CLIENT',
        passwordHash: await hashPassword(code),
        invitationCode: code,
        activated: false,
        status: 'pending',
        reservedAt: deps.clock().getTime(),
      },
      // the stale reservation replaced as it was read: a concurrent invitation makes this one U002
      { expectedRevision: existing?.revision ?? 0 },
    );
  } catch (error) {
    if (error instanceof ConflictError) throw new DomainError('U002');
    throw error;
  }
  try {
    await deps.mailer.send({
      to: email,
      subject: 'Invito al Portale Aiuti di Stato',
      text: invitationMailText(deps.config.publicUrl, email, code),
    });
  } catch (error) {
    await accounts.delete(email);
    deps.logger.warn({ err: error }, 'invitation mail could not be sent; the client was not created');
    throw new DomainError('G003');
  }
  const now = deps.clock();
  const at = now.toISOString();
  let invited = false;
  try {
    await deps.eventStore.appendToStream(
      streams.client(clientId),
      [{ type: 'ClientInvited', data: { clientId, email, fixedTaxCode, invitedAt: at, by } }],
      { expectedVersion: 'no_stream' },
    );
    invited = true;
    await deps.eventStore.appendToStream(
      streams.quota(clientId),
      [
        {
          type: 'SearchAllowanceGranted',
          data: {
            clientId,
            availableYearlySearches: INVITATION_YEARLY_SEARCHES,
            remainingSearches: INVITATION_YEARLY_SEARCHES,
            // one year from today, at 12:00 in Rome like every end date the product sets
            endDate: renewEndDate(romeNoonEpochMs(romeDay(now))),
            at,
            by,
          },
        },
      ],
      { expectedVersion: 'no_stream' },
    );
    await deps.eventStore.appendToStream(
      streams.user(clientId),
      [{ type: 'UserRegistered', data: { userId: clientId, email, role: 'CLIENT', at } }],
      { expectedVersion: 'no_stream' },
    );
  } catch (error) {
    // Compensate: the email is free again and a half-written client disappears from the lists.
    await accounts.delete(email);
    if (invited)
      await deps.eventStore.appendToStream(streams.client(clientId), [
        { type: 'ClientRemoved', data: { clientId, by } },
      ]);
    throw error;
  }
  const reserved = await accounts.getWithRevision(email);
  if (reserved)
    await accounts.put({ ...reserved.doc, status: 'ready' }, { expectedRevision: reserved.revision });
  // given back to the administrator this once, with the answer to the invitation
  return { clientId, invitationCode: code };
}
