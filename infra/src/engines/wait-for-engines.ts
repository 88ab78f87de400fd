/**
 * Start-up against engines that may not be up yet (a cluster restarting, compose starting every
 * container at once): each store is probed with one cheap look-up, and while any does not answer the
 * service waits with exponential back-off and says so, instead of crashing into a restart loop.
 */
import { backoffDelay, errorMessage, type RetryPolicy } from '../embedded/polling';
import type { Stores } from '../stores';

export interface EngineWaitLog {
  warn(
    details: { engine: string; attempt: number; retryInMs: number; reason: string },
    message: string,
  ): void;
  info(details: { attempts: number }, message: string): void;
}

export const ENGINE_WAIT_POLICY: RetryPolicy = { initialDelayMs: 500, maxDelayMs: 30_000 };

/** One look-up per store, each bounded by a key or an index. */
export function engineProbes(stores: Pick<Stores, 'eventStore' | 'documents' | 'aidIndex' | 'blobs'>) {
  return {
    eventStore: () => stores.eventStore.readAll({ after: 0, maxCount: 1 }),
    documents: () => stores.documents.collection('leases').get('start-up-probe'),
    aidIndex: () => stores.aidIndex.get('start-up-probe'),
    blobs: () => stores.blobs.exists('start-up-probe'),
  };
}

/** Resolves once every probe answers; retries for ever unless `maxAttempts` is given. */
export async function waitForEngines(
  probes: Record<string, () => Promise<unknown>>,
  options: {
    log: EngineWaitLog;
    policy?: RetryPolicy;
    maxAttempts?: number;
    sleep?: (ms: number) => Promise<void>;
  },
): Promise<void> {
  const policy = options.policy ?? ENGINE_WAIT_POLICY;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    let failed: { engine: string; error: unknown } | null = null;
    for (const [engine, probe] of Object.entries(probes)) {
      try {
        await probe();
      } catch (error) {
        failed = { engine, error };
        break;
      }
    }
    if (!failed) {
      if (attempt > 1) options.log.info({ attempts: attempt }, 'engines reachable: starting');
      return;
    }
    if (options.maxAttempts !== undefined && attempt >= options.maxAttempts)
      throw new Error(
        `${failed.engine} not reachable after ${attempt} attempts: ${errorMessage(failed.error)}`,
      );
    const retryInMs = backoffDelay(policy, attempt);
    options.log.warn(
      { engine: failed.engine, attempt, retryInMs, reason: errorMessage(failed.error) },
      'engine not reachable: waiting before starting',
    );
    await sleep(retryInMs);
  }
}
