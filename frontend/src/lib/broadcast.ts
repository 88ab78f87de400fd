import { BroadcastChannel } from 'broadcast-channel';
import type { UserDto } from '@rna/domain';

/** Messages exchanged between open tabs of the portal (SPEC §4). */
export type TabMessage =
  { type: 'login'; user: UserDto } | { type: 'logout' } | { type: 'remaining-searches' };

let channel: BroadcastChannel<TabMessage> | null = null;

function getChannel(): BroadcastChannel<TabMessage> {
  channel ??= new BroadcastChannel<TabMessage>('rna-portal-session');
  return channel;
}

export function broadcast(message: TabMessage): void {
  void getChannel()
    .postMessage(message)
    .catch(() => undefined);
}

export function onTabMessage(listener: (message: TabMessage) => void): () => void {
  const target = getChannel();
  const handler = (message: TabMessage): void => listener(message);
  target.addEventListener('message', handler);
  return () => target.removeEventListener('message', handler);
}

/** Another tab's login is adopted after this delay (SPEC §9). */
export const TAB_ADOPTION_DELAY_MS = 1000;
