/**
 * One sync run, resumable: list the register (and keep the listing for the archive screen), on a
 * full run withdraw the files the register dropped, plan the scope's files (or take the plan of the
 * run's SyncStarted when resuming), import the files not done yet, then SyncCompleted with the tally.
 */
import { AIDS_TOPIC, streams, type AidMessage, type SyncEvent } from '@rna/domain';
import type { RegisterFileInfo } from '@rna/infra/register';
import { describeError, importFile } from './import-file';
import { filesGoneFromRegister, planFiles } from './plan';
import { StoppedError, type RunContext } from './run-context';
import type { SyncRequest } from './sync-control';
import { nextImportId } from './import-sequence';

interface RunTally {
  done: Set<string>;
  succeeded: number;
  failed: number;
  skipped: number;
  records: number;
  recordsRejected: number;
  started: string[] | null;
}

function tallyRun(events: readonly SyncEvent[]): RunTally {
  const tally: RunTally = {
    done: new Set(),
    succeeded: 0,
    failed: 0,
    skipped: 0,
    records: 0,
    recordsRejected: 0,
    started: null,
  };
  for (const e of events) {
    if (e.type === 'SyncStarted') tally.started = e.data.files;
    else if (e.type === 'RegisterFileSucceeded') {
      tally.done.add(e.data.name);
      tally.succeeded++;
      tally.records += e.data.records;
      tally.recordsRejected += e.data.recordsRejected ?? 0;
    } else if (e.type === 'RegisterFileFailed') {
      tally.done.add(e.data.name);
      tally.failed++;
    } else if (e.type === 'RegisterFileSkipped') {
      tally.done.add(e.data.name);
      tally.skipped++;
    }
  }
  return tally;
}

async function listFiles(ctx: RunContext): Promise<RegisterFileInfo[]> {
  const { deps, clock, registerFiles } = ctx;
  const files = await deps.register.listFiles();
  const listedAt = clock.now().getTime();
  for (const file of files) {
    const rnaLastUpdate = file.lastModified ? Date.parse(file.lastModified) : NaN;
    await registerFiles.put({
      id: file.name,
      fileName: file.fileName,
      rnaLastUpdate: Number.isNaN(rnaLastUpdate) ? null : rnaLastUpdate,
      size: file.size,
      listedAt,
    });
  }
  return files;
}

/**
 * A full-scope run sees the register's complete listing: files imported before and no longer
 * listed left the register, and their aids are withdrawn. false (the run failed) when the listing
 * looks broken rather than changed.
 */
async function withdrawFilesGone(
  ctx: RunContext,
  runId: string,
  listing: RegisterFileInfo[],
): Promise<boolean> {
  const { clock, logger, fileStates, append, appendControl, at, checkStopped, publish } = ctx;
  const imported = (await fileStates.find()).map((state) => state.id);
  const verdict = filesGoneFromRegister(
    listing.map((file) => file.name),
    imported,
    clock.now(),
  );
  if (verdict.fault !== null) {
    const reason = `G007: ${verdict.fault}; nessun aiuto ritirato`;
    await appendControl({ type: 'SyncFailed', data: { runId, at: at(), reason } });
    logger.error({ runId, reason }, 'sincronizzazione non riuscita');
    return false;
  }
  for (const name of verdict.gone) {
    checkStopped();
    // ordered like an import: it removes what imports begun before it wrote, never a later re-import
    const importId = await nextImportId(ctx.deps.documents, runId, name);
    const withdrawn: AidMessage = { type: 'SourceFileWithdrawn', sourceFile: name, runId, importId };
    await publish(AIDS_TOPIC, [{ key: `file:${name}`, value: withdrawn }]);
    await append(runId, { type: 'RegisterFileWithdrawn', data: { runId, name, at: at() } });
    await fileStates.delete(name);
    logger.info({ runId, file: name }, 'file non più nel registro: aiuti ritirati');
  }
  return true;
}

/**
 * Imports the files, up to `parserThreads` at once, taken in plan order. A file's own failure is
 * its RegisterFileFailed (importFile); anything else that escapes an import (a stop, a store down)
 * ends the run: no file is started after it, the ones under way stop at their next batch, and the
 * first such error is thrown once they all have.
 */
export async function importFiles(
  ctx: RunContext,
  runId: string,
  files: RegisterFileInfo[],
  importOne: typeof importFile = importFile,
): Promise<void> {
  let next = 0;
  let ended = false;
  let endedBy: unknown = null;
  const lane: RunContext = {
    ...ctx,
    checkStopped: () => {
      ctx.checkStopped();
      if (ended) throw new StoppedError();
    },
  };
  const work = async () => {
    while (!ended && next < files.length) {
      const file = files[next++]!;
      try {
        lane.checkStopped();
        await importOne(lane, runId, file);
      } catch (error) {
        if (!ended) endedBy = error;
        ended = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.parserThreads, files.length) }, work));
  if (ended) throw endedBy;
}

export async function executeRun(ctx: RunContext, request: SyncRequest): Promise<void> {
  const { deps, clock, logger, progress, append, appendControl, at, checkStopped } = ctx;
  const { runId } = request;
  const before = tallyRun((await deps.eventStore.readStream(streams.sync(runId))).events);
  let listing: RegisterFileInfo[];
  try {
    listing = await listFiles(ctx);
  } catch (error) {
    checkStopped();
    await appendControl({ type: 'SyncFailed', data: { runId, at: at(), reason: describeError(error) } });
    logger.error({ runId, reason: describeError(error) }, 'sincronizzazione non riuscita');
    return;
  }
  checkStopped();
  let planned: RegisterFileInfo[];
  if (before.started) {
    const byName = new Map(listing.map((file) => [file.name, file]));
    planned = before.started.flatMap((name) => byName.get(name) ?? []);
    for (const name of before.started.filter((n) => !byName.has(n) && !before.done.has(n))) {
      await append(runId, {
        type: 'RegisterFileFailed',
        data: { runId, name, reason: 'File non più presente nel registro', at: at() },
      });
    }
  } else {
    if (request.scope === 'ALL' && !(await withdrawFilesGone(ctx, runId, listing))) return;
    planned = planFiles(listing, request.scope, request.onlyDocuments, clock.now());
    const files = planned.map((file) => file.name);
    await append(runId, [
      { type: 'SyncStarted', data: { runId, files, at: at() } },
      ...files.map((name): SyncEvent => ({ type: 'RegisterFileQueued', data: { runId, name, at: at() } })),
    ]);
    logger.info({ runId, scope: request.scope, files: files.length }, 'sincronizzazione avviata');
  }
  await importFiles(
    ctx,
    runId,
    planned.filter((file) => !before.done.has(file.name)),
  );
  await progress.clear();
  const tally = tallyRun((await deps.eventStore.readStream(streams.sync(runId))).events);
  await appendControl({
    type: 'SyncCompleted',
    data: {
      runId,
      at: at(),
      succeeded: tally.succeeded,
      failed: tally.failed,
      skipped: tally.skipped,
      records: tally.records,
      recordsRejected: tally.recordsRejected,
    },
  });
  logger.info({ runId, ...tally, done: undefined, started: undefined }, 'sincronizzazione completata');
}
