import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** the action buttons */
  footer?: ReactNode;
  size?: 'small' | 'large';
}

/**
 * The open dialogs, oldest first. Escape is heard on the whole document (focus may have left the dialog, e.g.
 * to the body after a focused button was disabled), so only the top-most one may act on it.
 */
const openDialogs: symbol[] = [];
const isTopMost = (id: symbol): boolean => openDialogs[openDialogs.length - 1] === id;

/** A modal dialog: Escape closes the top-most one, Tab cycles inside it, focus returns to the opener on close. */
export function Dialog({ title, onClose, children, footer, size = 'small' }: DialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    return () => opener?.focus?.();
  }, []);

  useEffect(() => {
    const id = Symbol('dialog');
    openDialogs.push(id);
    const onDocumentKeyDown = (event: KeyboardEvent) => {
      // a menu or picker inside the dialog that handled Escape itself keeps the dialog open
      if (event.key !== 'Escape' || event.defaultPrevented || !isTopMost(id)) return;
      event.preventDefault();
      onCloseRef.current();
    };
    document.addEventListener('keydown', onDocumentKeyDown);
    return () => {
      document.removeEventListener('keydown', onDocumentKeyDown);
      openDialogs.splice(openDialogs.indexOf(id), 1);
    };
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={panel}
        className={`dialog dialog--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
            ×
          </button>
        </header>
        <div className="dialog__body">{children}</div>
        {footer && <footer className="dialog__footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
