/** Helpers shared by the contract suites (no jest globals here, so adapters' own tests may use them). */

/** How a contract suite reaches an adapter: open() may be called again on the same storage. */
export interface ContractHarness<Adapter> {
  /** Opens an adapter instance on this harness's storage (a second call = a second instance or a restart). */
  open(): Promise<Adapter>;
  /** Removes the storage (after every instance was closed). */
  dispose(): Promise<void>;
}

export type HarnessFactory<Adapter> = () => Promise<ContractHarness<Adapter>>;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until the predicate holds; fails with `what` after the timeout (a liveness bound, not a timing assertion). */
export async function eventually(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await sleep(20);
  }
}

/** Settles every promise and tells which fulfilled and which rejected. */
export async function settleAll<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  return {
    fulfilled: results.filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === 'fulfilled'),
    rejected: results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'),
  };
}
