import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArchiveFileDto, SyncRunFileDto } from '@rna/domain';
import { formatDateTime, formatInteger } from '../../lib/domain-rules';
import { displayName, fileStatusView, finishedTone, isActiveStatus, type StatusTone } from './file-status';
import { RejectedRecordsDialog } from './rejected-records-dialog';

interface ArchiveGridProps {
  /** in display order: the archive list joined with the run's files (archiveView) */
  files: ArchiveFileDto[];
  /** the running (or last) sync's view of its files, by name */
  runFiles: ReadonlyMap<string, ArchiveFileDto & Partial<Pick<SyncRunFileDto, 'recordsSetAside'>>>;
  running: boolean;
  selected: readonly string[];
  onToggle: (name: string) => void;
}

const cardClass = (isSelected: boolean, tone: StatusTone | null): string =>
  ['archive-file', isSelected && 'archive-file--selected', tone && `status--${tone}`]
    .filter(Boolean)
    .join(' ');

function ProgressCard({ file }: { file: ArchiveFileDto }) {
  const { t } = useTranslation();
  const view = fileStatusView(file.status ?? 'PENDING', file.progress);
  return (
    <li className={`archive-file archive-file--progress status--${view.tone}`}>
      <span className="archive-file__name">{displayName(file.name)}</span>
      <span className="archive-file__status">{t(view.labelKey, view.values)}</span>
      {file.status === 'DOWNLOADING' && (
        <span className="progress" aria-hidden="true">
          <span className="progress__bar" style={{ width: `${Math.min(100, file.progress)}%` }} />
        </span>
      )}
    </li>
  );
}

const OUTCOME_SYMBOL: Record<'success' | 'error', string> = { success: '✓', error: '✕' };

/** A card's outcome in words and a symbol, part of its name: the colour is not the only one to tell it. */
function Outcome({ tone, labelKey }: { tone: 'success' | 'error'; labelKey: string }) {
  const { t } = useTranslation();
  return (
    <span className="archive-file__outcome">
      <span aria-hidden="true">{OUTCOME_SYMBOL[tone]}</span> {t(labelKey)}
    </span>
  );
}

/**
 * The archive list tab: one card per register file, selected by click. While a sync runs, files in an active
 * state show as progress cards instead; the others stay selectable cards (SPEC §4), coloured by their latest
 * outcome, so a file the run has finished shows green with its new date straight away. A file whose import
 * rejected records says how many under its card, and opens their list with the reasons; one whose aids
 * the index set aside in the sync says how many (until they are replayed or imported again).
 */
export function ArchiveGrid({ files, runFiles, running, selected, onToggle }: ArchiveGridProps) {
  const { t } = useTranslation();
  const [showingRejected, setShowingRejected] = useState<ArchiveFileDto | null>(null);
  return (
    <>
      <ul className="archive-grid">
        {files.map((file) => {
          const live = runFiles.get(file.name);
          if (running && live && isActiveStatus(live.status))
            return <ProgressCard key={file.name} file={live} />;
          const isSelected = selected.includes(file.name);
          const outcome = live?.status ?? file.status;
          const tone = finishedTone(outcome);
          const rejected =
            outcome === 'SUCCESS' && file.recordsRejected > 0
              ? t('sync.fileRejected', {
                  count: file.recordsRejected,
                  formatted: formatInteger(file.recordsRejected),
                })
              : null;
          const setAside = live?.recordsSetAside ?? 0;
          return (
            <li key={file.name} className="archive-grid__item">
              <button
                type="button"
                className={cardClass(isSelected, tone)}
                aria-pressed={isSelected}
                onClick={() => onToggle(file.name)}
              >
                <span className="archive-file__name">{displayName(file.name)}</span>
                <span className="archive-file__date">
                  {file.lastUpdate ? formatDateTime(file.lastUpdate) : t('sync.never')}
                </span>
                {tone && outcome && <Outcome tone={tone} labelKey={fileStatusView(outcome, 100).labelKey} />}
              </button>
              {rejected && (
                <button
                  type="button"
                  className="link-button archive-file__rejected"
                  aria-haspopup="dialog"
                  onClick={() => setShowingRejected(file)}
                >
                  {rejected}
                </button>
              )}
              {setAside > 0 && (
                <span className="archive-file__set-aside">
                  {t('sync.fileSetAside', { count: setAside, formatted: formatInteger(setAside) })}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {showingRejected && (
        <RejectedRecordsDialog file={showingRejected} onClose={() => setShowingRejected(null)} />
      )}
    </>
  );
}
