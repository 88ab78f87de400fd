/**
 * An invited client's first password. The invitation code the administrator sent signs the client in
 * only to choose a password of its own (SPEC: clients are invited and get activated); choosing it is
 * what activates the profile, decided on client-<id> by the domain's clientDecider.
 */
import { DomainError, type ClientCommand } from '@rna/domain';
import { ConcurrencyError } from '@rna/infra';
import type { ApiDeps } from '../http/deps';
import { decideOnClient } from './streams';

/** Decides on the client stream again when another write got in between (an admin's, another tab's). */
async function decideRetrying(deps: ApiDeps, command: ClientCommand): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await decideOnClient(deps, command);
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
    }
  }
}

/**
 * The client chose its own password: ClientActivated (once), and the access it goes on with when it
 * chose it signed in (not from a reset link).
 */
export async function recordFirstPassword(
  deps: ApiDeps,
  clientId: string,
  how: { signedIn: boolean },
): Promise<void> {
  await decideRetrying(deps, {
    type: 'ChooseFirstPassword',
    data: { clientId, at: deps.clock().toISOString(), signedIn: how.signedIn },
  });
}

/** A sign-in with the client's own password: ClientAccessed; A001 for a client no longer there. */
export async function recordSignIn(deps: ApiDeps, clientId: string): Promise<void> {
  try {
    await decideRetrying(deps, { type: 'RecordSignIn', data: { clientId, at: deps.clock().toISOString() } });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'U001') throw new DomainError('A001');
    throw error;
  }
}
