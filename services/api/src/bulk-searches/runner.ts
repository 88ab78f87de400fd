/**
 * The bulk search runner: one process at a time (compose-api: 'here' in the embedded portal, else the
 * holder of the 'bulk-search-runner' lease) finds the jobs requested and not ended — at start-up too,
 * so a restart resumes them — and runs them one after another: the codes looked up in chunks on the
 * aid index (live mode: the search's findAids rules, codes the register cannot answer in time from
 * the archive, saying so), BulkSearchProgressed at most about once a second, the workbook and the PDF
 * into the blob store, BulkSearchCompleted, a mail. A job that throws fails with a catalogue code.
 * A periodic sweep deletes the files of expired jobs. Stopping abandons the job under way without an
 * event: the next runner starts it again (never charging again: the charge was taken at the request).
 * A client's job whose request died between the job and its charge is settled here once the request
 * can no longer be under way: it runs if the quota stream holds its charge, else it fails (B008).
 */
import {
  BULK_RESULT_DAYS,
  bulkCompanySummaries,
  bulkTotals,
  DomainError,
  formatInteger,
  isBulkJobOpen,
  isBulkResultExpired,
  nextFairJob,
  deMinimisHeadroom,
  headroomWindowStart,
  todayInRome,
  type HeadroomAid,
  type HeadroomDto,
  rowsByTaxCode,
  type AidRecord,
  type BulkCompanySummary,
  type BulkJobCommand,
  type BulkJobState,
  type BulkRowWarning,
  type BulkSearchEvent,
  type CodeSourceDto,
} from '@rna/domain';
import { ConcurrencyError, type Doc } from '@rna/infra';
import { findAids } from '../documents/search';
import { newestFirst } from '../documents/rows';
import { searchProfile } from '../documents/profile';
import { DEFAULT_LOGO_ID } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';
import { reportBranding } from '../reports/branding';
import {
  bulkBlobName,
  decideOnJob,
  foldBulkJob,
  jobsReadModel,
  settleUnchargedJob,
  type JobAt,
} from './commands';
import { headroomAidOf } from '../de-minimis/headroom-aids';
import { bulkPdfOffThread } from './bulk-pdf';
import { MAX_AID_ROWS, startBulkWorkbook, type BulkResult } from './result-files';

export const BULK_RUNNER_LEASE = 'bulk-search-runner';
export const BULK_SWEEPS_COLLECTION = 'bulk-search-sweeps';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface BulkRunnerOptions {
  /** How often open jobs are looked for (ms, default 500). */
  pollMs?: number;
  /** Codes per aid-index look-up at most (default 250; fewer when the codes have many aids). */
  chunkSize?: number;
  /** Aids a look-up aims at: the next chunk takes as many codes as the last one's aids per code allow. */
  aidsPerChunk?: number;
  /** Least time between two progress events (ms, default 1000). */
  progressEveryMs?: number;
  /** Rows of the workbook's "Aiuti" sheet at most (default: Excel's limit; tests set fewer). */
  maxAidRows?: number;
  /** How often expired results are deleted (ms, default 10 minutes). */
  sweepEveryMs?: number;
  /**
   * How long a client's job may await its charge before the runner settles it (ms, default 2 minutes:
   * longer than a request may keep retrying its charge, so no charge is still on its way).
   */
  chargeGraceMs?: number;
}

export interface RunningBulkRunner {
  /** Resolves when no open job is left to run (tests, bench). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Stopping: the job under way is left for the next runner. */
class Abandoned extends Error {}

const pause = (ms: number, signal: { stopped: boolean; wake?: () => void }) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });

export function bulkMail(publicUrl: string, job: BulkJobState, failed: boolean) {
  const link = `${publicUrl.replace(/\/$/, '')}/ricerca-massiva`;
  const list = job.sourceName ? `«${job.sourceName}»` : 'incollato';
  if (failed)
    return {
      subject: 'Ricerca massiva non riuscita',
      text:
        'Gentile utente,\n\n' +
        `la ricerca massiva dell’elenco ${list} (${formatInteger(job.totalCodes)} codici fiscali) non è riuscita.\n` +
        (job.failureCode === 'B008'
          ? 'Si è interrotta prima dell’addebito: nessuna ricerca è stata addebitata.\n'
          : '') +
        `Può riprovare dalla pagina «Ricerca massiva»: ${link}\n`,
    };
  return {
    subject: 'Ricerca massiva completata',
    text:
      'Gentile utente,\n\n' +
      `la ricerca massiva dell’elenco ${list} (${formatInteger(job.totalCodes)} codici fiscali) è completata: ` +
      `${formatInteger(job.companiesWithAids ?? 0)} imprese con aiuti, ${formatInteger(job.aids ?? 0)} aiuti, ` +
      `${formatInteger(job.overCeiling ?? 0)} oltre il massimale de minimis.\n\n` +
      `Il file Excel e il riepilogo PDF sono disponibili per ${BULK_RESULT_DAYS} giorni: ${link}\n`,
  };
}

const LIVE_WARNINGS: Record<NonNullable<CodeSourceDto['liveFallback']>, BulkRowWarning> = {
  PACED: 'LIVE_PACED',
  UNAVAILABLE: 'LIVE_UNAVAILABLE',
};

/** Keeps the de minimis aids of grouped codes that count today: all a group's headroom needs. */
function collectGroupAids(
  groupAids: Map<string, HeadroomAid[]>,
  groupOf: ReadonlyMap<string, string>,
  aids: readonly AidRecord[],
  now: Date,
): void {
  const today = todayInRome(now);
  const windowStart = headroomWindowStart(today);
  for (const aid of aids) {
    const group = groupOf.get(aid.codiceFiscaleBeneficiario);
    if (group === undefined) continue;
    const counted = headroomAidOf(aid);
    if (!counted.isDeMinimis || counted.dataConcessione < windowStart || counted.dataConcessione > today)
      continue;
    const kept = groupAids.get(group);
    if (kept) kept.push(counted);
    else groupAids.set(group, [counted]);
  }
}

/** Each group's headroom today for a GENERAL aid, its members together (impresa unica). */
function groupHeadrooms(
  groupOf: ReadonlyMap<string, string>,
  groupAids: ReadonlyMap<string, HeadroomAid[]>,
  now: Date,
): HeadroomDto[] {
  const members = new Map<string, string[]>();
  for (const [code, group] of groupOf) members.set(group, [...(members.get(group) ?? []), code]);
  const today = todayInRome(now);
  return [...members].map(([name, codes]) => ({
    ...deMinimisHeadroom(codes, groupAids.get(name) ?? [], today, 'GENERAL'),
    group: { id: name, name },
  }));
}

/** A chunk's aids company by company in the list's order, each company's newest first. */
function aidsInListOrder(codes: readonly string[], aids: readonly AidRecord[]): AidRecord[] {
  const byCode = rowsByTaxCode(aids);
  return codes.flatMap((code) => (byCode.get(code) ?? []).sort(newestFirst));
}

export function startBulkSearchRunner(deps: ApiDeps, options: BulkRunnerOptions = {}): RunningBulkRunner {
  const pollMs = options.pollMs ?? 500;
  const chunkSize = options.chunkSize ?? 250;
  const aidsPerChunk = options.aidsPerChunk ?? 5_000;
  const progressEveryMs = options.progressEveryMs ?? 1000;
  const sweepEveryMs = options.sweepEveryMs ?? 10 * 60_000;
  const chargeGraceMs = options.chargeGraceMs ?? 2 * 60_000;
  const maxAidRows = options.maxAidRows ?? MAX_AID_ROWS;
  const signal: { stopped: boolean; wake?: () => void } = { stopped: false };
  let lastSweep = 0;
  let turnsStarted = 0;
  let idleWaiters: { after: number; resolve: () => void }[] = [];
  /** When each user's last job started here: the runner takes the user served least recently first. */
  const lastServed = new Map<string, number>();

  /** decideOnJob, the job left to the runner that moved it first. */
  async function decideAndAppend(jobId: string, command: BulkJobCommand, at: JobAt) {
    try {
      await decideOnJob(deps.eventStore, jobId, command, at);
    } catch (error) {
      if (error instanceof ConcurrencyError) throw new Abandoned('another runner moved the job');
      throw error;
    }
  }

  /** Runs the job if it is still open (the read model may lag its stream); false when there was nothing to do. */
  async function runJob(jobId: string): Promise<boolean> {
    const folded = await foldBulkJob(deps, jobId);
    if (!isBulkJobOpen(folded.state)) return false;
    const requested = folded.events.find(
      (e): e is Extract<BulkSearchEvent, { type: 'BulkSearchRequested' }> => e.type === 'BulkSearchRequested',
    );
    if (!requested) return false;
    const at: JobAt = { state: folded.state, version: folded.version };
    const { taxCodes, warnings, dataSource } = requested.data;
    // each group's de minimis aids of the window, gathered chunk by chunk (a few per company)
    const groupOf = new Map((requested.data.groups ?? []).map((entry) => [entry.taxCode, entry.group]));
    const groupAids = new Map<string, HeadroomAid[]>();
    try {
      const archiveAsOf = deps.archiveLastUpdate ? await deps.archiveLastUpdate() : null;
      // every company's figures as of one instant; a chunk's aids are summarised and written out,
      // then dropped: memory holds one chunk of aids, whatever the companies of the list
      const generatedAt = deps.clock();
      const workbook = startBulkWorkbook(generatedAt, maxAidRows);
      const summaries: BulkCompanySummary[] = [];
      const rowWarnings = new Map<string, BulkRowWarning[]>();
      for (const warning of warnings) rowWarnings.set(warning.taxCode, ['CHECK_DIGIT']);
      let lastProgress = Date.now();
      // a few codes first: a list of the largest companies holds thousands of aids per code
      let codesPerChunk = Math.min(chunkSize, 16);
      for (let done = 0; done < taxCodes.length;) {
        if (signal.stopped) throw new Abandoned('runner stopped');
        const chunk = taxCodes.slice(done, done + codesPerChunk);
        const found = await findAids(
          // a job reads each code once: through the search's look-up cache it would only push out
          // the entries kept for people's searches and their reports
          { ...deps, aidLookups: undefined },
          { taxCodes: chunk, deMinimis: false, last3Years: false },
          dataSource,
          archiveAsOf,
        );
        for (const source of found.sources) {
          if (!source.liveFallback) continue;
          rowWarnings.set(source.taxCode, [
            ...(rowWarnings.get(source.taxCode) ?? []),
            LIVE_WARNINGS[source.liveFallback],
          ]);
        }
        summaries.push(
          ...bulkCompanySummaries(chunk, found.aids, generatedAt, (code) => rowWarnings.get(code) ?? []),
        );
        workbook.addAids(aidsInListOrder(chunk, found.aids));
        if (groupOf.size > 0) collectGroupAids(groupAids, groupOf, found.aids, generatedAt);
        done += chunk.length;
        codesPerChunk = Math.max(
          1,
          Math.min(chunkSize, Math.floor((chunk.length * aidsPerChunk) / Math.max(1, found.aids.length))),
        );
        if (done < taxCodes.length && Date.now() - lastProgress >= progressEveryMs) {
          await decideAndAppend(
            jobId,
            { type: 'RecordProgress', data: { doneCodes: done, at: deps.clock().toISOString() } },
            at,
          );
          lastProgress = Date.now();
        }
      }
      if (signal.stopped) throw new Abandoned('runner stopped');
      await decideAndAppend(
        jobId,
        { type: 'RecordProgress', data: { doneCodes: taxCodes.length, at: deps.clock().toISOString() } },
        at,
      );
      const result: BulkResult = {
        jobId,
        sourceName: requested.data.sourceName,
        dataSource,
        generatedAt,
        summaries,
      };
      const sheet = await workbook.finish(summaries, groupHeadrooms(groupOf, groupAids, generatedAt));
      await deps.blobs.put(bulkBlobName(jobId, 'sheet'), sheet, XLSX);
      const by = requested.data.by;
      const profile =
        by.role === 'SYSTEM' ? null : await searchProfile(deps, { ...by, role: by.role }).catch(() => null);
      const branding = await reportBranding(deps, profile?.logoId ?? DEFAULT_LOGO_ID);
      const pdf = await bulkPdfOffThread(result, branding);
      await deps.blobs.put(bulkBlobName(jobId, 'pdf'), pdf, 'application/pdf');
      await decideAndAppend(
        jobId,
        {
          type: 'CompleteBulkSearch',
          data: {
            at: deps.clock().toISOString(),
            ...bulkTotals(summaries),
            resultBytes: sheet.length + pdf.length,
          },
        },
        at,
      );
    } catch (error) {
      if (error instanceof Abandoned) throw error;
      const code = error instanceof DomainError ? error.code : 'G001';
      deps.logger.error({ err: error, jobId }, 'bulk search failed');
      await decideAndAppend(
        jobId,
        {
          type: 'FailBulkSearch',
          data: {
            at: deps.clock().toISOString(),
            code,
            reason: error instanceof DomainError ? error.message : 'Errore interno',
          },
        },
        at,
      );
    }
    await mailOwner(requested.data.by.email, at.state);
    return true;
  }

  async function mailOwner(to: string, job: BulkJobState): Promise<void> {
    try {
      await deps.mailer.send({ to, ...bulkMail(deps.config.publicUrl, job, job.status === 'FAILED') });
    } catch (error) {
      // the results are there all the same: the page and the home notice say so
      deps.logger.warn({ err: error, jobId: job.jobId }, 'bulk search mail not sent');
    }
  }

  /** Deletes the files of jobs past their 30 days, once each. */
  async function sweep(): Promise<void> {
    const now = deps.clock();
    const swept = deps.documents.collection<Doc>(BULK_SWEEPS_COLLECTION);
    for (const job of await jobsReadModel(deps).find({ status: 'COMPLETED' })) {
      if (!isBulkResultExpired(job, now) || (await swept.get(job.id))) continue;
      await deps.blobs.delete(bulkBlobName(job.id, 'sheet'));
      await deps.blobs.delete(bulkBlobName(job.id, 'pdf'));
      await swept.put({ id: job.id });
    }
  }

  /**
   * Jobs whose request died between the job and its charge: the ones found charged are returned to be
   * run now (the read model may not list them as open yet), the others fail.
   */
  async function settleUncharged(): Promise<string[]> {
    const before = deps.clock().getTime() - chargeGraceMs;
    const waiting = await jobsReadModel(deps).find(
      { awaitingCharge: true },
      { sortBy: 'requestedAt', order: 'asc', limit: 50 },
    );
    const charged: string[] = [];
    for (const job of waiting) {
      if (signal.stopped || Date.parse(job.requestedAt) > before) break;
      try {
        const outcome = await settleUnchargedJob(deps, job.id);
        if (outcome === 'CHARGED') charged.push(job.id);
        // its request never answered: the user learns of it as of any job that failed
        else if (outcome === 'FAILED' && job.by)
          await mailOwner(job.by.email, (await foldBulkJob(deps, job.id)).state);
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error; // the request or another runner did
      }
    }
    return charged;
  }

  /**
   * One job a turn, the next in fairness (nextFairJob: the user served least recently first), so
   * that one user's queue never keeps the others waiting for more than the job under way.
   */
  async function turn(): Promise<{ idle: boolean; ran: boolean }> {
    const charged = new Set(await settleUncharged());
    const waiting = (
      await jobsReadModel(deps).find({ open: true }, { sortBy: 'requestedAt', order: 'asc', limit: 200 })
    ).filter((job) => !charged.has(job.id));
    // a job found charged just now may not be listed as open yet
    for (const jobId of charged) {
      const { state } = await foldBulkJob(deps, jobId);
      waiting.push({ ...state, id: jobId } as (typeof waiting)[number]);
    }
    const next = nextFairJob(waiting, lastServed);
    let ran = false;
    if (next && !signal.stopped) {
      lastServed.set(next.userId, Date.now());
      ran = await runJob(next.id);
    }
    if (Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now();
      await sweep();
    }
    return { idle: next === null, ran };
  }

  const loop = (async () => {
    while (!signal.stopped) {
      const thisTurn = ++turnsStarted;
      let idle = false;
      let ran = false;
      try {
        ({ idle, ran } = await turn());
      } catch (error) {
        if (!(error instanceof Abandoned))
          deps.logger.error({ err: error }, 'bulk search runner turn failed');
      }
      if (idle) {
        // only a turn that began after the wait began has seen every job requested before it
        const ready = idleWaiters.filter((waiter) => waiter.after < thisTurn);
        idleWaiters = idleWaiters.filter((waiter) => waiter.after >= thisTurn);
        ready.forEach((waiter) => waiter.resolve());
      }
      // after a job run, straight on to the next one; a turn that ran nothing waits (a job the read
      // model still lists as open after it ended would otherwise be picked again at once)
      if (!signal.stopped && !ran) await pause(pollMs, signal);
    }
  })();

  return {
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push({ after: turnsStarted, resolve });
        signal.wake?.();
      }),
    async stop() {
      signal.stopped = true;
      signal.wake?.();
      await loop;
      idleWaiters.forEach((waiter) => waiter.resolve());
    },
  };
}

/** For the sweep's callers and tests: whether a job's files are gone. */
export async function bulkFilesSwept(deps: Pick<ApiDeps, 'documents'>, jobId: string): Promise<boolean> {
  return (await deps.documents.collection<Doc>(BULK_SWEEPS_COLLECTION).get(jobId)) !== null;
}
