import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Toast, ToastsRegion } from '../../components/toasts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { clearMessages } from '../../lib/session/status-slice';

/** The status bar: error text keyed by code (errors.<code>), success by its own key. */
export function StatusToasts() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { error, success, successValues, serial } = useAppSelector((state) => state.status);
  const dismiss = useCallback(() => dispatch(clearMessages()), [dispatch]);
  return (
    <ToastsRegion>
      {error ? (
        <Toast kind="error" text={t(`errors.${error}`)} serial={serial} onDismiss={dismiss} />
      ) : success ? (
        <Toast kind="success" text={t(success, successValues)} serial={serial} onDismiss={dismiss} />
      ) : null}
    </ToastsRegion>
  );
}
