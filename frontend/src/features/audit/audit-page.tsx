import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '../../components/date-picker';
import { failureOf } from '../../components/load-error';
import { ProblemText } from '../../components/problem-text';
import { StatCard } from '../../components/stat-card';
import { Table } from '../../components/table';
import { formatDate, formatInteger, romeEndOfDay, romeStartOfDay } from '../../lib/domain-rules';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError } from '../../lib/session/status-slice';
import {
  AUDIT_PAGE,
  useDownloadAuditSheetMutation,
  useGetAuditHistoryQuery,
  type AuditSubject,
} from './audit-api';
import { useAuditColumns } from './audit-columns';

interface AuditPageProps {
  /** the signed-in administrator: its own searches are audited too */
  adminId: string;
  clients: readonly { id: string; email: string }[];
}

/** The range is of days in Rome, as every time on this screen, not of the browser's zone. */
const startOfDay = (date: Date | null): number | null => (date === null ? null : romeStartOfDay(date));
const endOfDay = (date: Date | null): number | null => (date === null ? null : romeEndOfDay(date));

const subjectKey = (subject: AuditSubject) => `${subject.kind}:${subject.id}`;

/**
 * For auditors: a client's (or an administrator's) searches, downloads, refusals and allowance
 * changes, with the searches left after each, in a date range; the state as at the range's end; Excel.
 */
export function AuditPage({ adminId, clients }: AuditPageProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const columns = useAuditColumns();
  const [subject, setSubject] = useState<AuditSubject>({ kind: 'users', id: adminId });
  const [since, setSince] = useState<Date | null>(null);
  const [until, setUntil] = useState<Date | null>(null);
  /** where each page shown so far started (null: the newest entry), so that "previous" goes back */
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const range = { since: startOfDay(since), at: endOfDay(until) };
  // a reversed range would list nothing, as if nothing had happened: said, and never asked for
  const reversed = range.since !== null && range.at !== null && range.since > range.at;
  const history = useGetAuditHistoryQuery(
    reversed ? skipToken : { ...subject, ...range, from: pages[pages.length - 1] ?? null },
  );
  const [download, downloading] = useDownloadAuditSheetMutation();
  const data = history.data;
  const restart = () => setPages([null]);

  return (
    <div className="audit">
      <h1>{t('audit.title')}</h1>
      <div className="card audit__filters">
        <div className="field">
          <label htmlFor="audit-subject">{t('audit.subject')}</label>
          <select
            id="audit-subject"
            value={subjectKey(subject)}
            onChange={(e) => {
              const [kind, ...id] = e.target.value.split(':');
              setSubject({ kind: kind === 'clients' ? 'clients' : 'users', id: id.join(':') });
              restart();
            }}
          >
            <option value={subjectKey({ kind: 'users', id: adminId })}>{t('audit.myActivity')}</option>
            {clients.map((client) => (
              <option key={client.id} value={subjectKey({ kind: 'clients', id: client.id })}>
                {client.email}
              </option>
            ))}
          </select>
        </div>
        <DatePicker
          label={t('audit.since')}
          value={since}
          onChange={(date) => {
            setSince(date);
            restart();
          }}
        />
        <DatePicker
          label={t('audit.until')}
          value={until}
          onChange={(date) => {
            setUntil(date);
            restart();
          }}
        />
        <button
          type="button"
          className="button button--secondary"
          disabled={downloading.isLoading || reversed}
          onClick={async () => {
            const result = await download({ ...subject, ...range });
            if (result.error) dispatch(showError(errorCodeOf(result.error)));
          }}
        >
          {t('audit.export')}
        </button>
      </div>
      {reversed && <ProblemText problem="audit.reversedRange" />}
      <div className="stat-grid">
        <StatCard
          label={
            until ? t('audit.remainingAt', { date: formatDate(until.getTime()) }) : t('audit.remainingNow')
          }
          value={data ? formatInteger(data.remainingSearches) : t('common.unavailable')}
        />
        <StatCard
          label={t('audit.yearly')}
          value={data ? formatInteger(data.availableYearlySearches) : t('common.unavailable')}
        />
        <StatCard
          label={t('audit.endDate')}
          value={data ? formatDate(data.endDate) : t('common.unavailable')}
        />
        <StatCard
          label={t('audit.entries')}
          value={data ? formatInteger(data.totalEntries) : t('common.unavailable')}
        />
      </div>
      {!reversed && (
        <Table
          caption={t('audit.tableTitle')}
          columns={columns}
          rows={data?.entries ?? []}
          rowKey={(entry) => String(entry.version)}
          loading={history.isLoading}
          pageSize={AUDIT_PAGE}
          emptyText={t('audit.empty')}
          failure={failureOf(history)}
        />
      )}
      <div className="toolbar toolbar--end">
        {pages.length > 1 && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setPages((p) => p.slice(0, -1))}
          >
            {t('audit.previous')}
          </button>
        )}
        {data?.nextFrom != null && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setPages((p) => [...p, data.nextFrom])}
          >
            {t('audit.next')}
          </button>
        )}
      </div>
    </div>
  );
}
