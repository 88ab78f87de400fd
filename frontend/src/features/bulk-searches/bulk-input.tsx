import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BULK_MAX_FILE_BYTES, type ErrorCode } from '@rna/domain';

interface BulkInputProps {
  /** a file was chosen or dropped, and is small enough to send */
  onFile: (file: File) => void;
  /** the pasted list is to be previewed */
  onText: (text: string) => void;
  /** a preview is being read: the controls wait */
  busy: boolean;
  /** why the last list could not be read (a catalogue code), or null */
  problem: ErrorCode | null;
  /** which control the problem is about: the file picker or the pasted list */
  problemOn: 'file' | 'text';
  /** a problem found before sending (the file's size) */
  onProblem: (code: ErrorCode) => void;
  /** the name of the file last chosen, shown beside the picker */
  fileName: string | null;
  text: string;
  onTextChange: (text: string) => void;
}

/**
 * The list's two ways in: a file (picked or dropped; one over 5 MB is refused here, without uploading it)
 * or codes pasted in a text area. The preview is asked as soon as a file is chosen.
 */
export function BulkInput({
  onFile,
  onText,
  busy,
  problem,
  problemOn,
  onProblem,
  fileName,
  text,
  onTextChange,
}: BulkInputProps) {
  const { t } = useTranslation();
  const ids = useId();
  const fileId = `${ids}-file`;
  const pasteId = `${ids}-paste`;
  const problemId = `${ids}-problem`;
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const take = (file: File | undefined) => {
    if (!file) return;
    if (file.size > BULK_MAX_FILE_BYTES) onProblem('B004');
    else onFile(file);
    // the same file chosen again (after a fix on disk) must fire a change again
    if (fileInput.current) fileInput.current.value = '';
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!busy) take(event.dataTransfer.files[0]);
  };

  return (
    <section className="card bulk-input" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('bulk.inputTitle')}</h2>
      <div
        className={`bulk-drop${dragging ? ' bulk-drop--over' : ''}`}
        data-testid="bulk-drop"
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label htmlFor={fileId} className="bulk-drop__label">
          {t('bulk.fileLabel')}
        </label>
        <div className="file-picker">
          <input
            id={fileId}
            ref={fileInput}
            type="file"
            className="file-picker__input"
            accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
            disabled={busy}
            aria-describedby={problem && problemOn === 'file' ? problemId : undefined}
            aria-invalid={problem && problemOn === 'file' ? true : undefined}
            onChange={(event) => take(event.target.files?.[0])}
          />
          <label htmlFor={fileId} className="button button--secondary file-picker__button" aria-hidden="true">
            {t('bulk.chooseFile')}
          </label>
          <span className="file-picker__name">{fileName ?? t('bulk.noFile')}</span>
          <span className="muted">{t('bulk.dropHint')}</span>
        </div>
      </div>
      <div className="field">
        <label htmlFor={pasteId}>{t('bulk.pasteLabel')}</label>
        <textarea
          id={pasteId}
          className="bulk-paste"
          rows={5}
          value={text}
          disabled={busy}
          spellCheck={false}
          aria-describedby={problem && problemOn === 'text' ? problemId : undefined}
          aria-invalid={problem && problemOn === 'text' ? true : undefined}
          onChange={(event) => onTextChange(event.target.value)}
        />
      </div>
      <div className="bulk-input__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={busy || text.trim() === ''}
          onClick={() => onText(text)}
        >
          {busy ? t('bulk.reading') : t('bulk.pastePreview')}
        </button>
      </div>
      {problem && (
        <p id={problemId} className="field__error" role="alert">
          {t(`errors.${problem}`)}
        </p>
      )}
    </section>
  );
}
