import { useTranslation } from 'react-i18next';

interface DialogActionsProps {
  onCancel: () => void;
  /** the text of the submit button */
  submitLabel: string;
  submitDisabled?: boolean;
}

/** The cancel and submit buttons at the bottom of a dialog's form; submit sends the surrounding form. */
export function DialogActions({ onCancel, submitLabel, submitDisabled }: DialogActionsProps) {
  const { t } = useTranslation();
  return (
    <div className="dialog__actions">
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
      <button type="submit" className="button button--primary" disabled={submitDisabled}>
        {submitLabel}
      </button>
    </div>
  );
}
