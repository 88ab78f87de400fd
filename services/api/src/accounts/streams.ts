/** Loading and appending the account streams with optimistic concurrency. */
import {
  clientDecider,
  DomainError,
  stateOf,
  streams,
  type Actor,
  type ClientCommand,
  type ClientDecisionState,
  type ClientEvent,
  type UserEvent,
} from '@rna/domain';
import type { ApiDeps } from '../http/deps';
import { projectionsCaughtUp } from '../http/deps';

export const SYSTEM_ACTOR: Actor = { userId: 'system', email: 'system', role: 'SYSTEM' };

export interface ClientStreamState {
  version: number;
  email: string;
}

/** The client's stream version, or U001 when it was never invited or has been removed. */
export async function loadClientStream(deps: ApiDeps, clientId: string): Promise<ClientStreamState> {
  const { currentVersion, events } = await deps.eventStore.readStream(streams.client(clientId));
  const { email } = stateOf(clientDecider, events);
  if (email === null) throw new DomainError('U001');
  return { version: currentVersion, email };
}

/**
 * Decides a command on the client's stream (the domain's clientDecider: U001 for a client never
 * invited or removed) and appends the events at the version it was decided on. `beforeAppend` checks
 * what the stream cannot know (another stream's state) once the client is known to exist. Returns the
 * state the decision was taken on.
 */
export async function decideOnClient(
  deps: ApiDeps,
  command: ClientCommand,
  beforeAppend?: () => Promise<void>,
): Promise<ClientDecisionState> {
  const stream = streams.client(command.data.clientId);
  const { currentVersion, events } = await deps.eventStore.readStream(stream);
  const state = stateOf(clientDecider, events);
  const decided = clientDecider.decide(command, state);
  await beforeAppend?.();
  if (decided.length > 0) {
    await deps.eventStore.appendToStream(stream, decided, { expectedVersion: currentVersion });
  }
  return state;
}

export async function appendClientEvents(
  deps: ApiDeps,
  clientId: string,
  events: ClientEvent[],
  expectedVersion: number | 'no_stream' | 'any',
): Promise<void> {
  await deps.eventStore.appendToStream(streams.client(clientId), events, { expectedVersion });
}

export async function appendUserEvents(deps: ApiDeps, userId: string, events: UserEvent[]): Promise<void> {
  await deps.eventStore.appendToStream(streams.user(userId), events, { expectedVersion: 'any' });
}

/** After a write, wait for the read models, so the answer and the next read see it. */
export const readYourWrites = projectionsCaughtUp;
