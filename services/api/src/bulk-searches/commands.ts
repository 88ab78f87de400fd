/**
 * Ricerca massiva commands and queries: the preview of a list (keeps, charges and appends nothing),
 * the request of a job (charged on the quota stream by the search's own metering, then
 * BulkSearchRequested), the user's jobs, and the audited downloads of a job's results.
 */
import { randomUUID } from 'node:crypto';
import {
  assertBulkJobAllowed,
  bulkGroupName,
  printableText,
  assertOnlyFixedTaxCode,
  BULK_MAX_CODES,
  bulkJobDecider,
  bulkJobDto,
  checkTaxCode,
  codesNewToday,
  DomainError,
  isBulkJobAwaitingCharge,
  isBulkJobRefused,
  isWellFormedTaxCode,
  lookUpEvents,
  normalizeTaxCode,
  romeDay,
  stateOf,
  streams,
  type BulkCodeList,
  type BulkCodeWarning,
  type BulkJobCommand,
  type BulkJobDto,
  type BulkJobState,
  type BulkPreviewDto,
  type Actor,
  type BulkSearchEvent,
  type QuotaEvent,
  type SearchRequest,
} from '@rna/domain';
import { ConcurrencyError } from '@rna/infra';
import { BULK_SEARCHES_COLLECTION, type BulkSearchReadModel } from '@rna/read-models/bulk-searches';
import { dataSourceForSearch, dataSourceOf } from '../data-source/settings';
import { searchProfile } from '../documents/profile';
import { lookUpOf, metered, QUOTA_PAGE, readQuota, type MeteringContext } from '../documents/quota-metering';
import { projectionsCaughtUp, type ApiDeps } from '../http/deps';
import { actorOf, type Principal, type UploadedFile } from '../http/route';
import { readCodeListOffThread } from './list-reader';

export const bulkBlobName = (jobId: string, kind: 'sheet' | 'pdf') =>
  `bulk-${jobId}.${kind === 'sheet' ? 'xlsx' : 'pdf'}`;

export const jobsReadModel = (deps: Pick<ApiDeps, 'documents'>) =>
  deps.documents.collection<BulkSearchReadModel>(BULK_SEARCHES_COLLECTION);

/** A file name as it may be shown and stored: printable, at most 200 characters. */
export function cleanSourceName(name: string): string {
  let text = name;
  // multer hands a UTF-8 file name over as Latin-1 text
  const utf8 = Buffer.from(name, 'latin1').toString('utf8');
  if (!utf8.includes('\uFFFD') && /[\u0080-\u00ff]/.test(name)) text = utf8;
  return printableText(text).slice(0, 200);
}

export interface PreviewInput {
  file: UploadedFile | null;
  text?: string;
  column?: string;
}

/** The list of a preview, read on a worker thread (list-reader.ts). */
function listOf(input: PreviewInput): Promise<BulkCodeList> {
  const column = input.column ?? null; // a column of spaces is no column: readCodeCells trims it
  if (input.file) return readCodeListOffThread({ bytes: input.file.bytes, column });
  return readCodeListOffThread({ text: input.text ?? '', column });
}

/** What the job would cost the signed-in user now: the codes not looked up today (ADMIN: nothing). */
async function priceOf(
  deps: ApiDeps,
  principal: Principal,
  taxCodes: string[],
): Promise<Pick<BulkPreviewDto, 'newToday' | 'cost' | 'remainingSearches' | 'affordable'>> {
  if (principal.role !== 'CLIENT')
    return { newToday: taxCodes.length, cost: 0, remainingSearches: null, affordable: true };
  const { state } = await readQuota(deps.eventStore, principal.userId);
  const request: SearchRequest = { taxCodes, deMinimis: false, last3Years: false };
  const now = deps.clock();
  const newToday = codesNewToday(state, request, now).length;
  const expired = state.endDate === null || now.getTime() >= state.endDate;
  return {
    newToday,
    cost: newToday,
    remainingSearches: state.remainingSearches,
    affordable: !expired && newToday <= state.remainingSearches,
  };
}

export async function previewBulkSearch(
  deps: ApiDeps,
  principal: Principal,
  input: PreviewInput,
): Promise<BulkPreviewDto> {
  const list = await listOf(input);
  const profile = await searchProfile(deps, principal);
  assertOnlyFixedTaxCode(profile.fixedTaxCode, list.taxCodes);
  return {
    sourceName: input.file ? cleanSourceName(input.file.originalName) : '',
    ...list,
    ...(await priceOf(deps, principal, list.taxCodes)),
  };
}

/** The codes of a request checked again: B005 none, T002 a malformed one, B003 past 5,000. */
function requestedCodes(taxCodes: readonly string[]): { codes: string[]; warnings: BulkCodeWarning[] } {
  const seen = new Set<string>();
  const codes: string[] = [];
  for (const raw of taxCodes) {
    const code = normalizeTaxCode(raw);
    if (code === '' || seen.has(code)) continue;
    if (!isWellFormedTaxCode(code)) throw new DomainError('T002');
    seen.add(code);
    codes.push(code);
  }
  if (codes.length === 0) throw new DomainError('B005');
  if (codes.length > BULK_MAX_CODES) throw new DomainError('B003');
  const warnings = codes
    .filter((code) => checkTaxCode(code) === 'invalid')
    .map((taxCode): BulkCodeWarning => ({ taxCode, reason: 'CHECK_DIGIT' }));
  return { codes, warnings };
}

/** The groups of the requested codes only, each code once, names printable and at most 100 characters. */
function requestedGroups(
  codes: readonly string[],
  groups: readonly { taxCode: string; group: string }[],
): { taxCode: string; group: string }[] {
  const listed = new Set(codes);
  const seen = new Set<string>();
  const kept: { taxCode: string; group: string }[] = [];
  for (const entry of groups) {
    const taxCode = normalizeTaxCode(entry.taxCode);
    const group = bulkGroupName(entry.group);
    if (!listed.has(taxCode) || seen.has(taxCode) || group === '') continue;
    seen.add(taxCode);
    kept.push({ taxCode, group });
  }
  return kept;
}

/**
 * Runs a list. A CLIENT's job is requested first (awaiting its charge), then charged for exactly the
 * codes not looked up today, decided on its quota stream with optimistic concurrency (the search's
 * metering: concurrent jobs never overspend) by a SearchPerformed that names the job, then
 * BulkSearchCharged lets it run: a job is never charged without existing, and one whose request died
 * before its charge is settled by the runner (charged: it runs; not: it fails, nothing charged). A
 * refusal (U004, A002) is decided before the job exists, so nothing is kept; lost to a concurrent job
 * after it, the job fails with that code. ADMIN is not charged and audited like an admin search.
 */
export async function requestBulkSearch(
  deps: ApiDeps,
  principal: Principal,
  body: { taxCodes: string[]; sourceName: string; groups?: { taxCode: string; group: string }[] },
): Promise<BulkJobDto> {
  const { codes, warnings } = requestedCodes(body.taxCodes);
  const groups = requestedGroups(codes, body.groups ?? []);
  const profile = await searchProfile(deps, principal);
  assertOnlyFixedTaxCode(profile.fixedTaxCode, codes);
  const dataSource = dataSourceOf(await dataSourceForSearch(deps.eventStore));
  const now = deps.clock();
  const actor = actorOf(principal);
  // fair shares: a few open jobs, a few free repeats a day, a ceiling on the results kept
  const ownJobs = await jobsReadModel(deps).find(
    { userId: actor.userId },
    { sortBy: 'requestedAt', order: 'desc', limit: 500 },
  );
  const isMetered = principal.role === 'CLIENT';
  const expectedCost = isMetered ? (await priceOf(deps, principal, codes)).cost : 0;
  assertBulkJobAllowed(ownJobs, { metered: isMetered, cost: expectedCost, now });
  const jobId = randomUUID();
  const job: JobAt = { state: bulkJobDecider.initialState, version: -1 };
  const decide = (command: BulkJobCommand) => decideOnJob(deps.eventStore, jobId, command, job);
  const requested = (awaitingCharge: boolean): BulkJobCommand => ({
    type: 'RequestBulkSearch',
    data: {
      jobId,
      userId: actor.userId,
      clientId: actor.role === 'CLIENT' ? actor.userId : null,
      by: actor,
      at: now.toISOString(),
      sourceName: cleanSourceName(body.sourceName),
      taxCodes: codes,
      warnings,
      ...(groups.length > 0 ? { groups } : {}),
      dataSource,
      cost: 0,
      ...(awaitingCharge ? { awaitingCharge } : {}),
    },
  });
  const request: SearchRequest = { taxCodes: codes, deMinimis: false, last3Years: false };
  const ctx: MeteringContext = {
    eventStore: deps.eventStore,
    clientId: actor.userId,
    actor,
    request,
    now,
    bulkJobId: jobId,
  };
  if (actor.role !== 'CLIENT') {
    const audited = lookUpEvents(lookUpOf(ctx, { purpose: 'search', dataSource }, 0), 0);
    await deps.eventStore.appendToStream(streams.audit(actor.userId), audited, { expectedVersion: 'any' });
    await decide(requested(false));
    return bulkJobDto(job.state, now);
  }
  let cost: number;
  try {
    // the job is requested between the quota's decision and its charge; the aids are looked up
    // afterwards, so the audit's result count is 0
    ({ cost } = await metered(
      ctx,
      { purpose: 'search', dataSource },
      () => decide(requested(true)),
      () => 0,
    ));
  } catch (error) {
    if (job.version >= 0) await failUncharged(deps, jobId, error, job).catch(() => undefined); // else the runner will
    throw error;
  }
  await recordChargeOrRefund(deps, jobId, job, { cost, actor });
  return bulkJobDto(job.state, now);
}

/**
 * Records the charge on the job. The job and the quota are two streams: a request that stalled
 * between them (a paused process) may find that the runner meanwhile settled the job as never
 * charged (B008). Then the charge is given back on the quota stream (SearchRefunded), so that
 * "nothing was charged" stays true, and the request answers B008 as the job says.
 */
async function recordChargeOrRefund(
  deps: Pick<ApiDeps, 'eventStore' | 'clock'>,
  jobId: string,
  job: JobAt,
  charge: { cost: number; actor: Actor },
): Promise<void> {
  const command: BulkJobCommand = {
    type: 'RecordCharge',
    data: { at: deps.clock().toISOString(), cost: charge.cost },
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      await decideOnJob(deps.eventStore, jobId, command, job);
      break;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
      const current = await foldBulkJob(deps, jobId); // the runner wrote first: decide on what it wrote
      job.state = current.state;
      job.version = current.version;
    }
  }
  if (isBulkJobAwaitingCharge(job.state) || job.state.status !== 'FAILED') return;
  if (charge.cost > 0) {
    const refund: QuotaEvent = {
      type: 'SearchRefunded',
      data: {
        clientId: charge.actor.userId,
        at: deps.clock().toISOString(),
        by: charge.actor,
        cost: charge.cost,
        bulkJobId: jobId,
        reason: 'Ricerca massiva chiusa senza addebito prima che l’addebito fosse registrato',
      },
    };
    await deps.eventStore.appendToStream(streams.quota(charge.actor.userId), [refund], {
      expectedVersion: 'any',
    });
  }
  throw new DomainError('B008');
}

/** A job's state as read, and the version it was read at (-1: a job not written yet). */
export interface JobAt {
  state: BulkJobState;
  version: number;
}

/**
 * Appends what the job's decider makes of `command`, expecting the version `at` was read at (a
 * concurrent writer makes it fail with ConcurrencyError), and moves `at` past what it appended.
 */
export async function decideOnJob(
  eventStore: ApiDeps['eventStore'],
  jobId: string,
  command: BulkJobCommand,
  at: JobAt,
): Promise<void> {
  const events = bulkJobDecider.decide(command, at.state);
  if (events.length === 0) return;
  await eventStore.appendToStream(streams.bulk(jobId), events, {
    expectedVersion: at.version === -1 ? 'no_stream' : at.version,
  });
  for (const event of events) at.state = bulkJobDecider.evolve(at.state, event);
  at.version += events.length;
}

/** A job that was never charged fails with the refusal's code (B008 when it was no refusal). */
async function failUncharged(
  deps: Pick<ApiDeps, 'eventStore' | 'clock'>,
  jobId: string,
  cause: unknown,
  at: JobAt,
): Promise<void> {
  const code = cause instanceof DomainError && cause.code !== 'G001' ? cause.code : 'B008';
  await decideOnJob(
    deps.eventStore,
    jobId,
    {
      type: 'FailBulkSearch',
      data: { at: deps.clock().toISOString(), code, reason: 'Nessuna ricerca addebitata' },
    },
    at,
  );
}

/**
 * Settles a client's job whose request died between the job and its charge (a crash, a lost store):
 * the charge is looked for on the client's quota stream by the job's id. Charged: BulkSearchCharged,
 * and the job runs; not charged: it fails with B008, nothing charged. Called only past the time a
 * request may take, so that no charge can still be on its way.
 */
export async function settleUnchargedJob(
  deps: Pick<ApiDeps, 'eventStore' | 'clock'>,
  jobId: string,
): Promise<'CHARGED' | 'FAILED' | 'SETTLED_BEFORE'> {
  const job: JobAt = await foldBulkJob(deps, jobId);
  if (!isBulkJobAwaitingCharge(job.state) || !job.state.clientId) return 'SETTLED_BEFORE';
  const charge = await findBulkCharge(deps.eventStore, job.state.clientId, jobId);
  if (!charge) {
    await failUncharged(deps, jobId, null, job);
    return 'FAILED';
  }
  await decideOnJob(
    deps.eventStore,
    jobId,
    { type: 'RecordCharge', data: { at: deps.clock().toISOString(), cost: charge.cost } },
    job,
  );
  return 'CHARGED';
}

/** The SearchPerformed that charged a job, read a page at a time from the client's quota stream. */
async function findBulkCharge(
  eventStore: ApiDeps['eventStore'],
  clientId: string,
  jobId: string,
): Promise<{ cost: number } | null> {
  for (let from = 0; ; from += QUOTA_PAGE) {
    const { events } = await eventStore.readStream(streams.quota(clientId), {
      fromVersion: from,
      maxCount: QUOTA_PAGE,
    });
    for (const event of events)
      if (event.type === 'SearchPerformed' && event.data.bulkJobId === jobId)
        return { cost: event.data.cost };
    if (events.length < QUOTA_PAGE) return null;
  }
}

/** The user's jobs, newest first (at most 200), but those refused at their request. */
export async function listBulkJobs(deps: ApiDeps, principal: Principal): Promise<BulkJobDto[]> {
  await projectionsCaughtUp(deps);
  const jobs = await jobsReadModel(deps).find(
    { userId: principal.userId },
    { sortBy: 'requestedAt', order: 'desc', limit: 200 },
  );
  const now = deps.clock();
  return jobs.filter((job) => !isBulkJobRefused(job)).map((job) => bulkJobDto(job, now));
}

/** The user's own job; another user's answers B007 like a missing one. */
export async function ownBulkJob(
  deps: ApiDeps,
  principal: Principal,
  jobId: string,
): Promise<BulkSearchReadModel> {
  let job = await jobsReadModel(deps).get(jobId);
  if (!job) {
    await projectionsCaughtUp(deps); // just requested: the read model may be a moment behind
    job = await jobsReadModel(deps).get(jobId);
  }
  if (!job || job.userId !== principal.userId) throw new DomainError('B007');
  return job;
}

export async function getBulkJob(deps: ApiDeps, principal: Principal, jobId: string): Promise<BulkJobDto> {
  return bulkJobDto(await ownBulkJob(deps, principal, jobId), deps.clock());
}

/** A job's state from its own stream (the decisions never trust the read model). */
export async function foldBulkJob(
  deps: Pick<ApiDeps, 'eventStore'>,
  jobId: string,
): Promise<{ state: BulkJobState; version: number; events: BulkSearchEvent[] }> {
  const { events, currentVersion } = await deps.eventStore.readStream(streams.bulk(jobId), {
    maxCount: 100_000,
  });
  return { state: stateOf(bulkJobDecider, events), version: currentVersion, events };
}

/**
 * A download of a job's result: the user's own completed job before it expires (B007, B006), the
 * PDF only for clients with PDF enabled (P001, as the reports); audited on the job's stream
 * (BulkResultDownloaded) and as a ReportDownloaded on the client's quota stream (ADMIN: its audit
 * stream), never charged. The ReportDownloaded names no codes: a download on a later day must not
 * make the list's codes free that day.
 */
export async function downloadBulkResult(
  deps: ApiDeps,
  principal: Principal,
  jobId: string,
  kind: 'sheet' | 'pdf',
): Promise<{ bytes: Buffer; fileName: string; contentType: string }> {
  await ownBulkJob(deps, principal, jobId);
  const profile = await searchProfile(deps, principal);
  if (kind === 'pdf' && !profile.pdfEnabled) throw new DomainError('P001');
  const { state } = await foldBulkJob(deps, jobId);
  const now = deps.clock();
  const actor = actorOf(principal);
  const recorded = bulkJobDecider.decide(
    { type: 'RecordDownload', data: { at: now.toISOString(), by: actor, kind } },
    state,
  );
  const blob = await deps.blobs.get(bulkBlobName(jobId, kind));
  if (!blob) throw new DomainError('B006'); // swept
  await deps.eventStore.appendToStream(streams.bulk(jobId), recorded, { expectedVersion: 'any' });
  const request: SearchRequest = { taxCodes: [], deMinimis: false, last3Years: false };
  const audit = lookUpEvents(
    {
      clientId: actor.userId,
      by: actor,
      at: now.toISOString(),
      request,
      purpose: kind,
      dataSource: state.dataSource,
      resultCount: 0,
    },
    0,
  );
  const stream = actor.role === 'CLIENT' ? streams.quota(actor.userId) : streams.audit(actor.userId);
  await deps.eventStore.appendToStream(stream, audit, { expectedVersion: 'any' });
  const day = romeDay(Date.parse(state.completedAt ?? state.requestedAt));
  return {
    bytes: blob.bytes,
    contentType: blob.contentType,
    fileName: `ricerca-massiva-${day}.${kind === 'sheet' ? 'xlsx' : 'pdf'}`,
  };
}
