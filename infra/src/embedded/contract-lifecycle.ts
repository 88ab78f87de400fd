/** The adapter life cycle every contract suite shares (uses jest's hooks; import it from suites only). */
import type { ContractHarness, HarnessFactory } from './contract-helpers';

interface Closable {
  close(): Promise<void>;
}

/**
 * Registers hooks that give each test a fresh harness with one adapter already open, and close
 * every adapter the test opened (a second open() = a second instance or a restart) before the
 * storage is removed.
 */
export function adaptersPerTest<Adapter extends Closable>(factory: HarnessFactory<Adapter>) {
  let harness: ContractHarness<Adapter> | null = null;
  const opened: Adapter[] = [];

  async function open(): Promise<Adapter> {
    if (!harness) throw new Error('open() is only available inside a test');
    const instance = await harness.open();
    opened.push(instance);
    return instance;
  }

  beforeEach(async () => {
    harness = await factory();
    await open();
  });

  afterEach(async () => {
    for (const instance of opened.splice(0)) await instance.close().catch(() => undefined);
    await harness?.dispose();
    harness = null;
  });

  return {
    open,
    /** The adapter opened for the current test. */
    first: (): Adapter => opened[0] as Adapter,
  };
}
