import type { RegisterFileInfo } from '@rna/infra/register';
import { importFiles } from './run';
import { StoppedError, type RunContext } from './run-context';

const file = (name: string) => ({ name }) as RegisterFileInfo;
const files = ['a', 'b', 'c', 'd', 'e'].map(file);

/** Imports that finish when the test says so, recording when each one started and ended. */
function controlledImports() {
  const log: string[] = [];
  const finish = new Map<string, (error?: unknown) => void>();
  const contexts = new Map<string, RunContext>();
  const importOne = (ctx: RunContext, _runId: string, f: RegisterFileInfo) => {
    log.push(`start ${f.name}`);
    contexts.set(f.name, ctx);
    return new Promise<void>((resolve, reject) =>
      finish.set(f.name, (error?: unknown) => {
        log.push(`end ${f.name}`);
        if (error === undefined) resolve();
        else reject(error);
      }),
    );
  };
  return { log, finish, contexts, importOne };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function context(parserThreads: number, stopped = { value: false }): RunContext {
  return {
    parserThreads,
    checkStopped: () => {
      if (stopped.value) throw new StoppedError();
    },
  } as RunContext;
}

describe('importFiles', () => {
  it('imports in plan order, never more files at once than there are parser threads', async () => {
    const imports = controlledImports();
    const done = importFiles(context(2), 'r', files, imports.importOne);
    await settle();
    expect(imports.log).toEqual(['start a', 'start b']);
    imports.finish.get('b')!();
    await settle();
    expect(imports.log).toEqual(['start a', 'start b', 'end b', 'start c']);
    for (const name of ['a', 'c']) imports.finish.get(name)!();
    await settle();
    for (const name of ['d', 'e']) imports.finish.get(name)!();
    await done;
    expect(imports.log.filter((line) => line.startsWith('start'))).toEqual(
      files.map((f) => `start ${f.name}`),
    );
  });

  it('with one thread, imports one file after another', async () => {
    const imports = controlledImports();
    const done = importFiles(context(1), 'r', files.slice(0, 2), imports.importOne);
    await settle();
    imports.finish.get('a')!();
    await settle();
    imports.finish.get('b')!();
    await done;
    expect(imports.log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('ends the run on an error that escapes an import: nothing new starts, the imports under way stop, the first error is thrown', async () => {
    const imports = controlledImports();
    const done = importFiles(context(3), 'r', files, imports.importOne);
    await settle();
    const storeDown = new Error('event store down');
    imports.finish.get('b')!(storeDown);
    await settle();
    expect(imports.log).toEqual(['start a', 'start b', 'start c', 'end b']); // d is not started
    // the imports under way see it at their next batch
    expect(() => imports.contexts.get('a')!.checkStopped()).toThrow(StoppedError);
    imports.finish.get('a')!(new StoppedError());
    imports.finish.get('c')!();
    await expect(done).rejects.toBe(storeDown);
    expect(imports.log).not.toContain('start d');
  });

  it('stops every import under way when the worker stops, and starts no other', async () => {
    const stopped = { value: false };
    const imports = controlledImports();
    const done = importFiles(context(2, stopped), 'r', files, imports.importOne);
    await settle();
    stopped.value = true;
    for (const name of ['a', 'b']) {
      expect(() => imports.contexts.get(name)!.checkStopped()).toThrow(StoppedError);
      imports.finish.get(name)!(new StoppedError());
    }
    await expect(done).rejects.toBeInstanceOf(StoppedError);
    expect(imports.log).toEqual(['start a', 'start b', 'end a', 'end b']);
  });
});
