/**
 * After each completed sync, once the index has applied every file the run imported, every variation
 * alert whose tax codes were touched since the alert's last check gets one notification: a mail to
 * its owner and VariationAlertTriggered on the owner's stream. The sync's aid-index consumer notes the
 * codes it touched (read-models' aid-changes log), which is trimmed here once every alert has been
 * checked past a note. In scale-out the projector may still be indexing when the run
 * completes: the notifier waits for the run's import markers, so no change is mailed a sync late.
 */
import { isAccessExpired, isEventOf, normalizeTaxCode, streams, type UserEvent } from '@rna/domain';
import type { Doc, DocumentStore, EventStore, Subscription } from '@rna/infra';
import {
  CLIENTS_COLLECTION,
  USERS_COLLECTION,
  type ClientReadModel,
  type UserReadModel,
} from '@rna/read-models/accounts';
import {
  INDEXED_IMPORTS_COLLECTION,
  latestAidChanges,
  trimAidChanges,
  type IndexedImportDoc,
} from '@rna/read-models';
import { VARIATION_ALERTS_COLLECTION, type VariationAlertReadModel } from '@rna/read-models/alerts';
import { UNDERTAKING_GROUPS_COLLECTION, type UndertakingGroupReadModel } from '@rna/read-models/groups';

export const ALERT_CHECKS_COLLECTION = 'variation-alert-checks';
/** One document per alert and run that has something to mail: what of the notification is done. */
export const ALERT_MAILS_COLLECTION = 'variation-alert-mails';

interface AlertMailDoc extends Doc {
  /** `<alert id>@<run id>` */
  id: string;
  /** the mail was accepted (by the SMTP server or the outbox) */
  sent: boolean;
  /** VariationAlertTriggered was appended */
  recorded: boolean;
}

/** The Message-ID of an alert's mail for a run: the same however often it has to be sent. */
export function alertMessageId(alertId: string, syncRunId: string, publicUrl: string): string {
  let host = 'portale.local';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // a public URL that is no URL keeps the neutral host
  }
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_');
  return `<variazione-${safe(alertId)}-${safe(syncRunId)}@${host}>`;
}
/** The accounts read model of users (id → email). */

interface AlertCheckDoc extends Doc {
  /** the alert id */
  id: string;
  checkedAt: number;
  /** The sync last handled, so that a redelivered SyncCompleted does not notify twice. */
  syncRunId: string;
}

/** Same shape as the mail port (infra/src/mail). */
export interface AlertMailer {
  send(message: {
    to: string;
    subject: string;
    text: string;
    html?: string;
    messageId?: string;
  }): Promise<void>;
}

export interface NotifierDeps {
  eventStore: EventStore;
  documents: DocumentStore;
  mailer: AlertMailer;
  clock: () => Date;
  publicUrl: string;
  onError?: (error: unknown, alertId: string) => void;
  /** How long to wait for the index to apply a completed run's imports (default 30 minutes). */
  indexingWaitMs?: number;
}

/** Past it the notifier mails what is indexed, and says so: a lost marker must not stop the alerts. */
export const DEFAULT_INDEXING_WAIT_MS = 30 * 60_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * When the index had applied every file the run imported (its import markers; the latest of their
 * instants), waiting for the projector as long as it takes up to the limit; null when the run
 * imported nothing (or the limit passed: the caller takes the completion instead).
 */
async function runIndexedAt(deps: NotifierDeps, runId: string): Promise<number | null> {
  const { events } = await deps.eventStore.readStream(streams.sync(runId));
  const importIds = events.flatMap((event) =>
    isEventOf('sync', event) && event.type === 'RegisterFileSucceeded' ? [event.data.importId] : [],
  );
  if (importIds.length === 0) return null;
  const imports = deps.documents.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION);
  const giveUpAt = Date.now() + (deps.indexingWaitMs ?? DEFAULT_INDEXING_WAIT_MS);
  for (let wait = 50; ; wait = Math.min(wait * 2, 2_000)) {
    const indexed = await Promise.all(importIds.map((id) => imports.get(id)));
    if (indexed.every((doc) => doc !== null)) return Math.max(...indexed.map((doc) => doc!.indexedAt));
    if (Date.now() > giveUpAt) {
      const missing = importIds.filter((_, i) => indexed[i] === null);
      deps.onError?.(new Error(`Run ${runId}: imports not indexed in time: ${missing.join(', ')}`), '*');
      return null;
    }
    await pause(wait);
  }
}

export function alertMail(
  publicUrl: string,
  taxCodes: string[],
  changedCodes: string[],
  group: { name: string } | null = null,
) {
  const link = `${publicUrl.replace(/\/$/, '')}/documents?taxCode=${encodeURIComponent(changedCodes.join(','))}&deMinimis=false&last3Years=false`;
  return {
    subject: group
      ? `Variazioni negli aiuti di Stato dell’impresa unica «${group.name}»`
      : 'Variazioni negli aiuti di Stato dei codici fiscali monitorati',
    text:
      'Gentile utente,\n\n' +
      `l’ultimo aggiornamento dell’archivio RNA ha modificato gli aiuti di Stato di ${changedCodes.length === 1 ? 'questo codice fiscale' : 'questi codici fiscali'}:\n\n` +
      `${changedCodes.map((code) => `  ${code}`).join('\n')}\n\n` +
      (group
        ? `(avviso impostato sull’impresa unica «${group.name}»: ${taxCodes.join(', ')})\n\n`
        : `(avviso impostato su: ${taxCodes.join(', ')})\n\n`) +
      `Può consultare i risultati aggiornati: ${link}\n`,
  };
}

/**
 * The codes an alert watches now: an alert on a group follows the group's members as they are (a
 * deleted group: the members it had when the alert was set); any other alert its own codes.
 */
async function watchedCodes(deps: NotifierDeps, alert: VariationAlertReadModel): Promise<string[]> {
  if (!alert.group) return alert.taxCodes;
  const group = await deps.documents
    .collection<UndertakingGroupReadModel>(UNDERTAKING_GROUPS_COLLECTION)
    .get(alert.group.id);
  return group && !group.deleted && group.userId === alert.userId
    ? group.members.map((member) => member.taxCode)
    : alert.taxCodes;
}

/** Since when an alert has not been told of changes: its last check, else its creation. */
function checkedSince(alert: VariationAlertReadModel, check: AlertCheckDoc | null): number {
  return check?.checkedAt ?? alert.createdAt;
}

/** The sync that just completed: its run and when (ISO). */
export interface CompletedSync {
  runId: string;
  at: string;
}

/**
 * The codes of a notification its owner may still be told about, checked again at mail time (an
 * alert outlives changes to its owner): an administrator, any; a client, only while its access and
 * its alerts are on, and with a fixed tax code only that code. A removed account gets nothing.
 */
async function codesOwnerMayLearn(
  deps: NotifierDeps,
  userId: string,
  changedCodes: string[],
): Promise<string[]> {
  const client = await deps.documents.collection<ClientReadModel>(CLIENTS_COLLECTION).get(userId);
  if (!client) return changedCodes; // not a client: an administrator (a removed user has no email below)
  if (!client.enableVariationAlerts || isAccessExpired(client.endDate, deps.clock())) return [];
  if (!client.taxCode) return changedCodes;
  const fixed = normalizeTaxCode(client.taxCode);
  return changedCodes.filter((code) => normalizeTaxCode(code) === fixed);
}

/**
 * Notifies the changes recorded between an alert's last check and the instant the run was complete
 * in the index (its completion, or the last of its imports indexed when that came later), then moves
 * the check there: decided by recorded instants, so a replayed event (catch-up, redelivery) gives the
 * same answer as the first delivery, never a second mail. Returns how many alerts were notified.
 */
export async function notifyVariations(deps: NotifierDeps, sync: CompletedSync): Promise<number> {
  const syncRunId = sync.runId;
  const alerts = await deps.documents
    .collection<VariationAlertReadModel>(VARIATION_ALERTS_COLLECTION)
    .find({ removed: false });
  const checks = deps.documents.collection<AlertCheckDoc>(ALERT_CHECKS_COLLECTION);
  // No alert checked before this run's completion (a replayed old run, no alert at all): nothing to
  // wait for, nothing to mail.
  const ranAt = Date.parse(sync.at);
  const stillToCheck = await Promise.all(
    alerts.map(async (alert) => {
      const check = await checks.get(alert.id);
      return check?.syncRunId !== syncRunId && ranAt > checkedSince(alert, check);
    }),
  );
  if (!stillToCheck.some(Boolean)) {
    await forgetCheckedChanges(deps, ranAt);
    return 0;
  }
  const indexedAt = await runIndexedAt(deps, syncRunId);
  const completedAt = Math.max(ranAt, indexedAt ?? -Infinity);
  // what each alert to notify watches, then the latest change of each of those codes, in one pass
  // over the noted changes (a whole-register sync notes millions of codes)
  const watchedBy = new Map<string, string[]>();
  for (const alert of alerts) {
    const check = await checks.get(alert.id);
    if (check?.syncRunId === syncRunId || !(completedAt > checkedSince(alert, check))) continue;
    try {
      watchedBy.set(alert.id, await watchedCodes(deps, alert));
    } catch (error) {
      deps.onError?.(error, alert.id); // tried again next sync
    }
  }
  const lastChangeOf = await latestAidChanges(deps.documents, {
    upTo: completedAt,
    among: new Set([...watchedBy.values()].flat()),
  });
  const users = deps.documents.collection<UserReadModel>(USERS_COLLECTION);
  const mails = deps.documents.collection<AlertMailDoc>(ALERT_MAILS_COLLECTION);
  let notified = 0;
  for (const alert of alerts) {
    const watched = watchedBy.get(alert.id);
    if (!watched) continue;
    // read again: another notifier may have handled it meanwhile, and the check is what decides
    const check = await checks.get(alert.id);
    if (check?.syncRunId === syncRunId) continue;
    const since = checkedSince(alert, check);
    const checkedAt = completedAt;
    try {
      const changedCodes = await codesOwnerMayLearn(
        deps,
        alert.userId,
        watched.filter((code) => (lastChangeOf.get(code) ?? -Infinity) > since),
      );
      if (changedCodes.length > 0) {
        // Intent first, each step recorded when done: a crash between the mail and the check sends the
        // same message again under the same Message-ID (the mail systems know it), never a new one,
        // and a mail recorded as sent is not sent again.
        const mailId = `${alert.id}@${syncRunId}`;
        const progress = (await mails.get(mailId)) ?? { id: mailId, sent: false, recorded: false };
        if (!progress.sent) {
          await mails.put(progress);
          const owner = await users.get(alert.userId);
          if (owner)
            await deps.mailer.send({
              to: owner.email,
              ...alertMail(deps.publicUrl, watched, changedCodes, alert.group ?? null),
              messageId: alertMessageId(alert.id, syncRunId, deps.publicUrl),
            });
          progress.sent = true;
          await mails.put(progress);
        }
        const triggered: UserEvent = {
          type: 'VariationAlertTriggered',
          data: {
            userId: alert.userId,
            alertId: alert.id,
            taxCodes: watched,
            syncRunId,
            changes: changedCodes.length,
            at: deps.clock().toISOString(),
          },
        };
        if (!progress.recorded) {
          await deps.eventStore.appendToStream(streams.user(alert.userId), [triggered]);
          progress.recorded = true;
          await mails.put(progress);
        }
        notified += 1;
      }
      await checks.put({ id: alert.id, checkedAt, syncRunId });
    } catch (error) {
      // One failing mail must not hold back the other alerts; this one is tried again next sync.
      deps.onError?.(error, alert.id);
    }
  }
  await forgetCheckedChanges(deps, completedAt);
  return notified;
}

/**
 * Deletes the noted changes no alert can still be told about: those up to `upTo` and to every alert's
 * last check (an alert whose notification failed keeps what it has not been told). An alert set later
 * only hears of changes after it was set. A failure here costs disk until the next sync, not a mail.
 */
async function forgetCheckedChanges(deps: NotifierDeps, upTo: number): Promise<void> {
  try {
    const alerts = await deps.documents
      .collection<VariationAlertReadModel>(VARIATION_ALERTS_COLLECTION)
      .find({ removed: false });
    const checks = deps.documents.collection<AlertCheckDoc>(ALERT_CHECKS_COLLECTION);
    let until = upTo;
    for (const alert of alerts) until = Math.min(until, checkedSince(alert, await checks.get(alert.id)));
    await trimAidChanges(deps.documents, until);
  } catch (error) {
    deps.onError?.(error, '*');
  }
}

export function startVariationAlertNotifier(deps: NotifierDeps): Subscription {
  return deps.eventStore.subscribeToAll({
    subscriberId: 'variation-alert-notifier',
    handler: async (events) => {
      for (const event of events) {
        if (isEventOf('sync', event) && event.type === 'SyncCompleted')
          await notifyVariations(deps, event.data);
      }
    },
  });
}
