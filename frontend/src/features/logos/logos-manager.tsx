import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf, LoadError } from '../../components/load-error';
import type { LogoDto } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { imageUrl } from '../../lib/runtime-config';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { isAcceptedLogo, isBuiltIn } from './logo-rules';
import {
  useDeleteLogoMutation,
  useGetLogosQuery,
  useSavePdfConfigMutation,
  useUploadLogoMutation,
} from './logos-api';
import { PdfPropertiesDialog } from './pdf-properties-dialog';

/** The logos tab: upload (name first), gallery, delete (not built-ins) and the PDF properties of each logo. */
export function LogosManager() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const logos = useGetLogosQuery();
  const failure = failureOf(logos);
  const [upload, uploading] = useUploadLogoMutation();
  const [remove] = useDeleteLogoMutation();
  const [savePdf, savingPdf] = useSavePdfConfigMutation();
  const [name, setName] = useState('');
  const [fileProblem, setFileProblem] = useState(false);
  const [chosenFile, setChosenFile] = useState<string | null>(null);
  const [editing, setEditing] = useState<LogoDto | null>(null);
  const [deleting, setDeleting] = useState<LogoDto | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setChosenFile(file.name);
    if (!isAcceptedLogo(file)) {
      setFileProblem(true);
      return;
    }
    setFileProblem(false);
    const result = await upload({ file, name: name.trim() });
    if (fileInput.current) fileInput.current.value = '';
    setChosenFile(null);
    if (result.error) dispatch(showError(errorCodeOf(result.error)));
    else {
      setName('');
      dispatch(showSuccess('clients.logoUploaded'));
    }
  };

  return (
    <div className="logos">
      <div className="logos__upload card">
        <div className="field">
          <label htmlFor="logo-name">{t('clients.logoName')}</label>
          <input id="logo-name" type="text" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="logo-file">{t('clients.logoFile')}</label>
          {/* the browser's own picker speaks the browser's language: this one is labelled in Italian */}
          <div className="file-picker">
            <input
              id="logo-file"
              ref={fileInput}
              type="file"
              className="file-picker__input"
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
              disabled={!name.trim() || uploading.isLoading}
              aria-describedby="logo-file-chosen logo-file-hint"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
            <label
              htmlFor="logo-file"
              className="button button--secondary file-picker__button"
              aria-hidden="true"
            >
              {t('clients.chooseFile')}
            </label>
            <span id="logo-file-chosen" className="file-picker__name">
              {chosenFile ?? t('clients.noFileChosen')}
            </span>
          </div>
          <p
            id="logo-file-hint"
            className={fileProblem ? 'field__error' : 'field__hint'}
            role={fileProblem ? 'alert' : undefined}
          >
            {fileProblem
              ? t('clients.logoTypes')
              : name.trim()
                ? t('clients.logoTypes')
                : t('clients.logoNameFirst')}
          </p>
        </div>
      </div>
      {failure && <LoadError failure={failure} />}
      <ul className="logos__grid">
        {(logos.data ?? []).map((logo) => (
          <li key={logo.id} className="logo-card card">
            <img src={imageUrl(logo.fileName)} alt={logo.name} className="logo-card__image" />
            <p className="logo-card__name">{logo.name}</p>
            <div className="logo-card__actions">
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => setEditing(logo)}
              >
                {t('clients.pdfProperties')}
              </button>
              {!isBuiltIn(logo) && (
                <button
                  type="button"
                  className="button button--danger button--small"
                  onClick={() => setDeleting(logo)}
                >
                  {t('common.delete')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {editing && (
        <PdfPropertiesDialog
          logo={editing}
          busy={savingPdf.isLoading}
          onClose={() => setEditing(null)}
          onSave={async (form) => {
            const { id } = editing;
            const result = await savePdf({ id, ...form });
            if (result.error) dispatch(showError(errorCodeOf(result.error)));
            else {
              dispatch(showSuccess('clients.pdfConfigUpdated'));
              // only the dialog this answer belongs to: another logo's may be open by now
              setEditing((current) => (current?.id === id ? null : current));
            }
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('clients.deleteLogoTitle')}
          danger
          confirmLabel={t('common.delete')}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const result = await remove(deleting.id);
            setDeleting(null);
            if (result.error) dispatch(showError(errorCodeOf(result.error)));
            else dispatch(showSuccess('clients.logoDeleted'));
          }}
        >
          {t('clients.deleteLogoConfirm', { name: deleting.name })}
        </ConfirmDialog>
      )}
    </div>
  );
}
