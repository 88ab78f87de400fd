import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export const TOAST_DURATION_MS = 5000;

interface ToastProps {
  kind: 'success' | 'error';
  text: string;
  /** changes for every new message so the timer restarts */
  serial: number;
  onDismiss: () => void;
}

/**
 * Where notifications appear: a polite live region that is on the page before any notification, so a
 * screen reader reads each one as it appears (a region inserted together with its text often is not).
 */
export function ToastsRegion({ children }: { children?: ReactNode }) {
  return (
    <div className="toasts" aria-live="polite" aria-atomic="true">
      {children}
    </div>
  );
}

/**
 * One notification at a time; it disappears after 5 seconds (SPEC §9). A success is a polite status,
 * an error an alert; both go inside ToastsRegion.
 */
export function Toast({ kind, text, serial, onDismiss }: ToastProps) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(onDismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [serial, onDismiss]);
  return (
    <div
      className={`toast toast--${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
      aria-live={kind === 'error' ? 'assertive' : 'polite'}
    >
      <span>{text}</span>
      <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
