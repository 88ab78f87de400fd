import { useTranslation } from 'react-i18next';
import type { DeMinimisRegime, UserDto } from '@rna/domain';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import {
  useAddVariationAlertMutation,
  useGetSavedSearchesQuery,
  useGetVariationAlertsQuery,
  usePutSavedSearchesMutation,
  useRemoveVariationAlertMutation,
} from '../../lib/session/session-api';
import { canDownloadPdf, canUseVariationAlerts } from '../../lib/session/use-user';
import { useDownloadPdfMutation, useDownloadSheetMutation } from './documents-api';
import { sameCodes, type DocumentsQuery } from './search-params';

/** Favorite, spreadsheet, PDF and alert buttons; shown only when the address has a taxCode (SPEC §2). */
export function DocumentsActions({
  user,
  query,
  group = null,
  headroom = null,
}: {
  user: UserDto;
  query: DocumentsQuery;
  /** the group (impresa unica) the codes come from: the reports carry its headroom */
  group?: string | null;
  /** the day and regime of the headroom computed on the page (else the reports take today, general) */
  headroom?: { date: string; regime: DeMinimisRegime } | null;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const saved = useGetSavedSearchesQuery();
  const alertsAllowed = canUseVariationAlerts(user);
  const alerts = useGetVariationAlertsQuery(undefined, { skip: !alertsAllowed });
  const [putSaved, savingState] = usePutSavedSearchesMutation();
  const [addAlert, addingState] = useAddVariationAlertMutation();
  const [removeAlert, removingState] = useRemoveVariationAlertMutation();
  const [downloadSheet, sheetState] = useDownloadSheetMutation();
  const [downloadPdf, pdfState] = useDownloadPdfMutation();

  const favorite = (saved.data ?? []).some(
    (s) =>
      sameCodes(s.taxCodes, query.taxCodes) &&
      s.deMinimis === query.deMinimis &&
      s.last3Years === query.last3Years,
  );
  const alert = (alerts.data ?? []).find((a) => sameCodes(a.taxCodes, query.taxCodes));

  /** The action, then a notification saying what it did (a button label alone goes unnoticed). */
  const run = async (
    action: () => Promise<{ error?: unknown }>,
    done?: { key: string; values?: Record<string, string> },
  ) => {
    const result = await action();
    if (result.error) dispatch(showError(errorCodeOf(result.error)));
    else if (done) dispatch(showSuccess(done.key, done.values));
  };
  const codes = query.taxCodes.join(', ');

  return (
    <div className="documents-actions" role="toolbar" aria-label={t('documents.actions')}>
      <button
        type="button"
        className="button button--secondary"
        aria-pressed={favorite}
        disabled={savingState.isLoading}
        onClick={() =>
          run(() => putSaved(favorite ? [] : [query]), {
            key: favorite ? 'documents.unsaved' : 'documents.saved',
          })
        }
      >
        <span aria-hidden="true">{favorite ? '★' : '☆'}</span>{' '}
        {favorite ? t('documents.unfavorite') : t('documents.favorite')}
      </button>
      <button
        type="button"
        className="button button--secondary"
        disabled={sheetState.isLoading}
        onClick={() => run(() => downloadSheet({ ...query, group, ...headroom }))}
      >
        {sheetState.isLoading ? t('common.loading') : t('documents.downloadSheet')}
      </button>
      {canDownloadPdf(user) && (
        <button
          type="button"
          className="button button--secondary"
          disabled={pdfState.isLoading}
          onClick={() => run(() => downloadPdf({ ...query, group, ...headroom }))}
        >
          {pdfState.isLoading ? t('common.loading') : t('documents.downloadPdf')}
        </button>
      )}
      {alertsAllowed && (
        <button
          type="button"
          className="button button--secondary"
          aria-pressed={Boolean(alert)}
          disabled={addingState.isLoading || removingState.isLoading}
          onClick={() =>
            alert
              ? run(() => removeAlert(alert.id), { key: 'documents.alertRemoved', values: { codes } })
              : run(() => addAlert({ taxCodes: query.taxCodes }), {
                  key: 'documents.alertAdded',
                  values: { codes, email: user.email },
                })
          }
        >
          {alert ? t('documents.alertOff') : t('documents.alertOn')}
        </button>
      )}
    </div>
  );
}
