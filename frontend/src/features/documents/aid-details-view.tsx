/**
 * The "Dettaglio aiuti" view: the search's references are asked for when the view is opened (the
 * default answer stays light), and cost nothing more that day, the codes having just been searched.
 */
import { useTranslation } from 'react-i18next';
import { failureOf, LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { AidDetailsTable } from './aid-details-table';
import { useSearchDocumentDetailsQuery } from './documents-api';
import type { DocumentsQuery } from './search-params';

export function AidDetailsView({ query }: { query: DocumentsQuery }) {
  const { t } = useTranslation();
  const details = useSearchDocumentDetailsQuery(query);
  const failure = failureOf(details);
  if (failure) return <LoadError failure={failure} />;
  if (!details.data) {
    return (
      <div className="card documents-table" aria-busy="true">
        <Spinner label={t('documents.detailsLoading')} />
      </div>
    );
  }
  return <AidDetailsTable answer={details.data} />;
}
