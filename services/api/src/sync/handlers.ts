/**
 * Handlers of the archive / sync screen (ADMIN). Plain functions over the ports, so that they
 * can be tested without HTTP and registered by the API's route registry.
 * Starting a sync is injected (`requestSync` of @rna/sync): the API does not depend on the worker.
 */
import { z } from 'zod';
import {
  DomainError,
  streams,
  type Actor,
  type ArchiveFileDto,
  type ArchiveStatsDto,
  type SettingsEvent,
  type SyncResultDto,
  type SyncRunDto,
  type SyncRunFileDto,
  type SyncScope,
  type SyncStatusDto,
} from '@rna/domain';
import type { AidIndex, DocumentStore, EventStore } from '@rna/infra';
import { countDeadLetters, DEAD_LETTERS_COLLECTION, type DeadLetterDoc } from '@rna/infra/dead-letters';
import {
  ARCHIVE_FILES_COLLECTION as ARCHIVE_FILES,
  SYNC_HISTORY_COLLECTION as SYNC_HISTORY,
  LIVE_PROGRESS_ID,
  REGISTER_FILES_COLLECTION,
  setAsideByImport,
  SYNC_PROGRESS_COLLECTION,
  type ArchiveFileDoc,
  type LiveProgress,
  type RegisterFileDoc,
  type SyncHistoryDoc,
} from '@rna/read-models';
import { recentValue } from '../http/recent-value';
import { indexingOfRun, latestSyncRun, missingAids } from './indexing';

export interface StartSync {
  (input: { scope: SyncScope; onlyDocuments: string[]; by: Actor }): Promise<{ runId: string; at: string }>;
}

export interface SyncHandlerDeps {
  eventStore: EventStore;
  documents: DocumentStore;
  aidIndex: AidIndex;
  requestSync: StartSync;
}

export const startSyncBody = z
  .object({
    type: z.enum(['LAST_YEAR', 'LAST_3_YEARS', 'ALL', 'CUSTOM']),
    onlyDocuments: z
      .array(
        z
          .string()
          .trim()
          .regex(/^(OpenData_Aiuti_)?\d{4}_\d{2}(_\d{3})?(\.(xml|zip))?$/),
      )
      .max(1000)
      .optional(),
  })
  .refine((body) => body.type !== 'CUSTOM' || (body.onlyDocuments?.length ?? 0) > 0, {
    message: 'onlyDocuments is required for CUSTOM',
  });

const displayName = (name: string) => name.replace(/^OpenData_Aiuti_/, '').replace(/\.(xml|zip)$/, '');

/** POST /sync → the run just requested. S001 when one is already running. */
export async function startSync(deps: SyncHandlerDeps, actor: Actor, body: unknown): Promise<SyncRunDto> {
  const parsed = startSyncBody.safeParse(body);
  if (!parsed.success) throw new DomainError('J001', 'Richiesta di sincronizzazione non valida');
  const onlyDocuments =
    parsed.data.type === 'CUSTOM' ? [...new Set((parsed.data.onlyDocuments ?? []).map(displayName))] : [];
  const { runId, at } = await deps.requestSync({ scope: parsed.data.type, onlyDocuments, by: actor });
  return {
    id: runId,
    type: parsed.data.type,
    start: Date.parse(at),
    end: null,
    status: 'RUNNING',
    files: [],
    done: 0,
    total: onlyDocuments.length,
    records: 0,
    recordsRejected: 0,
    recordsSetAside: 0,
    published: 0,
    indexed: 0,
    succeeded: 0,
    failed: 0,
    skipped: 0,
  };
}

/**
 * The records a file's import rejected: those of the run's own import when it imported the file,
 * else those of the file's last import (a file skipped as unchanged keeps them).
 */
function rejectionsOf(
  source: Pick<ArchiveFileDoc, 'recordsRejected' | 'rejected'> | null | undefined,
): Pick<ArchiveFileDto, 'recordsRejected' | 'rejected'> {
  return { recordsRejected: source?.recordsRejected ?? 0, rejected: source?.rejected ?? [] };
}

/** Newest first by year, month, then part. */
const compareNames = (a: string, b: string) => b.localeCompare(a);

async function liveProgress(documents: DocumentStore): Promise<LiveProgress | null> {
  return documents.collection<LiveProgress>(SYNC_PROGRESS_COLLECTION).get(LIVE_PROGRESS_ID);
}

/** GET /sync/status */
export async function getSyncStatus(deps: SyncHandlerDeps): Promise<SyncStatusDto> {
  const latest = await latestSyncRun(deps.documents);
  if (!latest) return { running: false, indexing: false, run: null };
  const archive = deps.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES);
  const live = latest.status === 'RUNNING' ? await liveProgress(deps.documents) : null;
  const setAside = setAsideByImport(
    await deps.documents.collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION).find(),
  );
  const files: SyncRunFileDto[] = [];
  for (const name of [...latest.files].sort(compareNames)) {
    const state = latest.fileStates[name];
    const doc = await archive.get(name);
    const current = live && live.runId === latest.id && live.file === name ? live : null;
    const status =
      current && state?.status !== 'SUCCESS' && state?.status !== 'ERROR'
        ? current.status
        : (state?.status ?? null);
    files.push({
      name,
      lastUpdate: doc?.lastUpdate ?? null,
      rnaLastUpdate: doc?.rnaLastUpdate ?? null,
      status,
      progress:
        current && status === 'DOWNLOADING'
          ? current.progress
          : status === 'SUCCESS' || status === 'PARSING'
            ? 100
            : 0,
      records: state?.records ?? 0,
      error: state?.error ?? null,
      ...rejectionsOf(state?.importId ? state : doc),
      recordsSetAside: state?.importId ? (setAside.get(state.importId) ?? 0) : 0,
    });
  }
  const { fileStates: _states, ...run } = latest;
  const recordsSetAside = files.reduce((sum, file) => sum + file.recordsSetAside, 0);
  const { published, indexed } = await indexingOfRun(deps.documents, latest);
  const running = latest.status === 'RUNNING';
  return {
    running,
    indexing: !running && indexed < published,
    run: {
      ...run,
      recordsRejected: latest.recordsRejected ?? 0,
      recordsSetAside,
      files,
      published,
      indexed,
    },
  };
}

/** GET /sync/results: history, newest first. */
export async function getSyncResults(deps: SyncHandlerDeps): Promise<SyncResultDto[]> {
  const entries = await deps.documents
    .collection<SyncHistoryDoc>(SYNC_HISTORY)
    .find({}, { sortBy: 'start', order: 'desc', limit: 200 });
  return entries.map(
    ({ id, type, start, end, status, succeeded, failed, skipped, records, recordsRejected }) => ({
      id,
      type,
      start,
      end,
      status,
      succeeded,
      failed,
      skipped,
      records,
      recordsRejected: recordsRejected ?? 0,
    }),
  );
}

/** GET /sync/documents-update: every file known from the register's listing or from imports. */
export async function getDocumentsUpdate(deps: SyncHandlerDeps): Promise<ArchiveFileDto[]> {
  const imported = await deps.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES).find();
  const listed = await deps.documents.collection<RegisterFileDoc>(REGISTER_FILES_COLLECTION).find();
  const byName = new Map<string, ArchiveFileDto>();
  for (const doc of listed) {
    byName.set(doc.id, {
      name: doc.id,
      lastUpdate: null,
      rnaLastUpdate: doc.rnaLastUpdate,
      status: null,
      progress: 0,
      records: 0,
      error: null,
      ...rejectionsOf(null),
    });
  }
  for (const doc of imported) {
    const listing = byName.get(doc.name);
    byName.set(doc.name, {
      name: doc.name,
      lastUpdate: doc.lastUpdate,
      rnaLastUpdate: listing?.rnaLastUpdate ?? doc.rnaLastUpdate,
      status: doc.status,
      progress: doc.progress,
      records: doc.records,
      error: doc.error,
      ...rejectionsOf(doc),
    });
  }
  const live = await liveProgress(deps.documents);
  const current = live ? byName.get(live.file) : undefined;
  if (live && current && (current.status === 'DOWNLOADING' || current.status === 'PENDING')) {
    byName.set(live.file, { ...current, status: live.status, progress: live.progress });
  }
  return [...byName.values()].sort((a, b) => compareNames(a.name, b.name));
}

/**
 * When the archive last changed: the newest successful import of a register file (ms), null when no
 * file was ever imported. A run in which some files failed still changed the archive with the files
 * it imported, so "last update" follows files, not runs that succeeded whole. The register has at
 * most a few hundred files: one read of the archive-files read model.
 */
export async function lastArchiveChange(documents: DocumentStore): Promise<number | null> {
  let newest: number | null = null;
  for (const file of await documents.collection<ArchiveFileDoc>(ARCHIVE_FILES).find())
    if (file.lastUpdate !== null && (newest === null || file.lastUpdate > newest)) newest = file.lastUpdate;
  return newest;
}

/**
 * lastArchiveChange as every search reports it: read at most once a second (files are imported a few
 * times a day), so that the read is not part of each search's cost.
 */
export function archiveLastUpdateReader(
  documents: DocumentStore,
  reuseMs = 1_000,
): () => Promise<number | null> {
  const lastUpdate = recentValue(reuseMs, () => lastArchiveChange(documents));
  return () => lastUpdate.get();
}

async function usesLiveData(eventStore: EventStore): Promise<boolean> {
  const { events } = await eventStore.readStream(streams.settings);
  let live = false;
  for (const event of events) {
    const e = event as unknown as SettingsEvent;
    if (e.type === 'DataSourceSwitched') live = e.data.useLiveData;
  }
  return live;
}

/** GET /sync/last-rna-sync, the timestamp itself (SPEC §4): null = never updated, -1 = live data. */
export async function getLastRnaSync(deps: SyncHandlerDeps): Promise<number | null> {
  if (await usesLiveData(deps.eventStore)) return -1;
  return lastArchiveChange(deps.documents);
}

/** GET /sync/archive-stats */
export async function getArchiveStats(deps: SyncHandlerDeps): Promise<ArchiveStatsDto> {
  return {
    totalDocuments: await deps.aidIndex.count(),
    lastSync: await lastArchiveChange(deps.documents),
    deadLetters: await countDeadLetters(deps.documents),
    missingAids: await missingAids(deps.documents),
  };
}
