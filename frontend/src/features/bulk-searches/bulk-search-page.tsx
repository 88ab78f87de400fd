import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BULK_MAX_CODES,
  BULK_MAX_FILE_BYTES,
  BULK_RESULT_DAYS,
  type BulkJobDto,
  type BulkPreviewDto,
  type ErrorCode,
} from '@rna/domain';
import { failureOf } from '../../components/load-error';
import { formatInteger } from '../../lib/domain-rules';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { canDownloadPdf, useUser } from '../../lib/session/use-user';
import { BULK_POLL_MS } from './bulk-job-rules';
import { BulkInput } from './bulk-input';
import { BulkJobsTable } from './bulk-jobs-table';
import { BulkPreview } from './bulk-preview';
import {
  useDownloadBulkPdfMutation,
  useDownloadBulkSheetMutation,
  usePreviewBulkSearchMutation,
  useStartBulkSearchMutation,
  type BulkPreviewSource,
} from './bulk-searches-api';
import { usePolledBulkJobs } from './use-bulk-jobs';

/** Upload or paste a list, preview what it costs, confirm; follow the jobs and download their results. */
export default function BulkSearchPage() {
  const { t } = useTranslation();
  const user = useUser();
  const dispatch = useAppDispatch();
  const jobs = usePolledBulkJobs(BULK_POLL_MS);
  const [requestPreview, previewState] = usePreviewBulkSearchMutation();
  const [start, startState] = useStartBulkSearchMutation();
  const [downloadSheet] = useDownloadBulkSheetMutation();
  const [downloadPdf] = useDownloadBulkPdfMutation();

  const [source, setSource] = useState<BulkPreviewSource | null>(null);
  const [preview, setPreview] = useState<BulkPreviewDto | null>(null);
  const [inputProblem, setInputProblem] = useState<ErrorCode | null>(null);
  const [previewProblem, setPreviewProblem] = useState<ErrorCode | null>(null);
  const [text, setText] = useState('');
  const [downloading, setDownloading] = useState<string | null>(null);
  // only the answer to the latest request counts (a second file chosen while the first is read)
  const latest = useRef(0);

  const runPreview = async (next: BulkPreviewSource) => {
    const request = ++latest.current;
    setSource(next);
    setPreview(null);
    setInputProblem(null);
    setPreviewProblem(null);
    const result = await requestPreview(next);
    if (request !== latest.current) return;
    // on a refusal nothing was kept on the server: nothing to confirm either
    if (result.error) setInputProblem(errorCodeOf(result.error));
    else setPreview(result.data);
  };

  /** Another column of the same file: a refusal (no codes there) keeps the preview of the previous one. */
  const changeColumn = async (column: string | null) => {
    if (!source) return;
    const next = { ...source, column };
    const request = ++latest.current;
    setPreviewProblem(null);
    const result = await requestPreview(next);
    if (request !== latest.current) return;
    if (result.error) setPreviewProblem(errorCodeOf(result.error));
    else {
      setSource(next);
      setPreview(result.data);
    }
  };

  const clear = () => {
    latest.current += 1;
    setSource(null);
    setPreview(null);
    setInputProblem(null);
    setPreviewProblem(null);
    setText('');
  };

  const confirm = async () => {
    if (!preview) return;
    setPreviewProblem(null);
    const result = await start({
      taxCodes: preview.taxCodes,
      sourceName: preview.sourceName,
      ...(preview.groups.length > 0 ? { groups: preview.groups } : {}),
    });
    if (result.error) {
      setPreviewProblem(errorCodeOf(result.error));
      return;
    }
    clear();
    dispatch(showSuccess('bulk.started'));
  };

  const download = useCallback(
    async (job: BulkJobDto, kind: 'sheet' | 'pdf') => {
      setDownloading(job.jobId);
      const result = await (kind === 'sheet' ? downloadSheet(job) : downloadPdf(job));
      setDownloading(null);
      if (result.error) dispatch(showError(errorCodeOf(result.error)));
    },
    [downloadSheet, downloadPdf, dispatch],
  );
  const onSheet = useCallback((job: BulkJobDto) => void download(job, 'sheet'), [download]);
  const onPdf = useCallback((job: BulkJobDto) => void download(job, 'pdf'), [download]);

  if (!user) return null;
  const fileName = source?.kind === 'file' ? source.file.name : null;

  return (
    <div className="bulk">
      <section className="hero">
        <h1>{t('bulk.title')}</h1>
        <p className="muted">{t('bulk.intro')}</p>
        <h2 className="bulk__rules-title">{t('bulk.rulesTitle')}</h2>
        <ul className="bulk__rules">
          <li>{t('bulk.ruleFormats', { mb: BULK_MAX_FILE_BYTES / (1024 * 1024) })}</li>
          <li>{t('bulk.ruleColumn')}</li>
          <li>{t('bulk.ruleLimit', { codes: formatInteger(BULK_MAX_CODES) })}</li>
          <li>{t('bulk.ruleCost', { days: BULK_RESULT_DAYS })}</li>
        </ul>
      </section>

      <BulkInput
        busy={previewState.isLoading || startState.isLoading}
        problem={inputProblem}
        problemOn={source?.kind === 'text' ? 'text' : 'file'}
        fileName={fileName}
        text={text}
        onTextChange={setText}
        onFile={(file) => void runPreview({ kind: 'file', file })}
        onText={(pasted) => void runPreview({ kind: 'text', text: pasted })}
        onProblem={(code) => {
          latest.current += 1;
          setPreview(null);
          setSource(null);
          setInputProblem(code);
        }}
      />

      {preview && (
        <BulkPreview
          preview={preview}
          isAdmin={user.role === 'ADMIN'}
          busy={previewState.isLoading}
          starting={startState.isLoading}
          problem={previewProblem}
          onColumn={(column) => void changeColumn(column)}
          onConfirm={() => void confirm()}
          onCancel={clear}
        />
      )}

      <section className="bulk__jobs" aria-labelledby="bulk-jobs-title">
        <h2 id="bulk-jobs-title">{t('bulk.jobsTitle')}</h2>
        <BulkJobsTable
          jobs={jobs.data ?? []}
          loading={jobs.isLoading}
          failure={failureOf(jobs)}
          pdfAllowed={canDownloadPdf(user)}
          onSheet={onSheet}
          onPdf={onPdf}
          downloading={downloading}
        />
      </section>
    </div>
  );
}
