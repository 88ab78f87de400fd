import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export const TOAST_DURATION_MS = 5000;

interface ToastProps {
  kind: 'success' | 'error';
  text: string;
  /** changes for every new message so the timer restarts */
  serial: number;
  onDismiss: () => void;
}

/** One notification at a time; it disappears after 5 seconds (SPEC §9). */
export function Toast({ kind, text, serial, onDismiss }: ToastProps) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(onDismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [serial, onDismiss]);
  return (
    <div className="toasts">
      <div className={`toast toast--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
        <span>{text}</span>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onDismiss}>
          ×
        </button>
      </div>
    </div>
  );
}
