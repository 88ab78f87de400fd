import { lazy, Suspense, useEffect, useState } from 'react';
import type { DeMinimisRegime } from '@rna/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { documentsUrl, SearchForm } from '../../components/search-form';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { Tabs } from '../../components/tabs';
import { formatEuro, formatInteger } from '../../lib/domain-rules';
import { errorCodeOf } from '../../lib/errors';
import { isHomeRefusal, type HomeRefusalState } from '../../lib/home-refusal';
import { useUser } from '../../lib/session/use-user';
import { AidDetailsView } from './aid-details-view';
import { CodeSummaries } from './code-summaries';
import { DataSourcesNotice } from './data-sources-notice';
import { DocumentsActions } from './documents-actions';
import { useSearchDocumentsQuery } from './documents-api';
import { DocumentsTable } from './documents-table';
import { HeadroomPanel } from './headroom-panel';
import { readDocumentsQuery, readGroupParam, sameCodes } from './search-params';

const DeMinimisChart = lazy(() => import('./de-minimis-chart'));

export default function DocumentsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = user ? readDocumentsQuery(params, user.taxCode) : null;
  const group = user ? readGroupParam(params, user.taxCode) : null;
  // the day and regime of the last headroom computed for these codes: the reports carry the same one
  const panelKey = `${query?.taxCodes.join(',') ?? ''}|${group ?? ''}`;
  const [computed, setComputed] = useState<{ key: string; date: string; regime: DeMinimisRegime } | null>(
    null,
  );
  // the spec's three-column table first; the detail view on demand
  const [view, setView] = useState<'summary' | 'details'>('summary');
  const headroomChoice = computed?.key === panelKey ? { date: computed.date, regime: computed.regime } : null;
  const result = useSearchDocumentsQuery(
    { ...(query ?? { taxCodes: [], deMinimis: false, last3Years: false }), group },
    { skip: !query },
  );
  const errorCode = result.error ? errorCodeOf(result.error) : null;
  // several unrelated companies: the one whose allowance the remaining card and the chart show
  const deMinimisOf = result.data?.deMinimisOf ?? null;
  const allowanceOf = deMinimisOf ? deMinimisOf.name || deMinimisOf.taxCode : null;
  // and that company's de minimis used: unrelated companies' de minimis are never added up (issue 33)
  const usedByAllowanceOf = deMinimisOf
    ? (result.data?.perCode.find((summary) => summary.taxCode === deMinimisOf.taxCode)?.deMinimisUsed ?? null)
    : null;
  const companyName = query?.taxCodes.length === 1 ? result.data?.perCode[0]?.name || null : null;

  useEffect(() => {
    if (errorCode && isHomeRefusal(errorCode)) {
      // searching again cannot help: the home page says why, and this page leaves no history entry
      const state: HomeRefusalState = { refusal: errorCode, ...(query ? { query } : {}) };
      navigate('/', { replace: true, state });
    }
  }, [errorCode, navigate, query]);

  if (!user) return null;
  const hasTaxCodeParam = params.has('taxCode') || Boolean(user.taxCode);

  return (
    <div className="documents">
      <h1 className="visually-hidden">{t('documents.title')}</h1>
      <SearchForm
        key={params.toString()}
        initial={query ?? undefined}
        fixedTaxCode={user.taxCode}
        metered={user.role === 'CLIENT'}
        busy={result.isFetching}
        // the same codes searched again still come from the group
        onSearch={(next) =>
          navigate(
            documentsUrl(next, group && query && sameCodes(next.taxCodes, query.taxCodes) ? group : null),
          )
        }
      />
      {!query ? (
        <div className="error-panel card" role="alert">
          <p>{t('errors.T001')}</p>
        </div>
      ) : (
        <>
          <div className="documents__header">
            <h2>
              {/* one company: named as the register writes it, once its answer is in */}
              {companyName
                ? t('documents.resultsForCompany', { codes: query.taxCodes.join(', '), name: companyName })
                : t('documents.resultsFor', { codes: query.taxCodes.join(', ') })}
            </h2>
            {hasTaxCodeParam && (
              <DocumentsActions user={user} query={query} group={group} headroom={headroomChoice} />
            )}
          </div>
          {result.isFetching && !result.data ? (
            <div className="page-loading">
              <Spinner label={t('documents.loading')} />
            </div>
          ) : errorCode && !isHomeRefusal(errorCode) ? (
            <div className="error-panel card" role="alert">
              <h2>{t('documents.errorTitle')}</h2>
              <p>{t(`errors.${errorCode}`)}</p>
              <p className="muted">{t('documents.errorHint')}</p>
            </div>
          ) : result.data ? (
            <>
              <DataSourcesNotice result={result.data} />
              <div className="stat-grid stat-grid--compact">
                <StatCard
                  label={t('documents.statDocuments')}
                  value={formatInteger(result.data.stats.totalDocuments)}
                />
                <StatCard
                  label={t('documents.statTotal')}
                  value={formatEuro(result.data.stats.totalImport)}
                />
                <StatCard
                  label={
                    allowanceOf && usedByAllowanceOf !== null
                      ? t('documents.statDeMinimisOf', { company: allowanceOf })
                      : t('documents.statDeMinimis')
                  }
                  value={formatEuro(usedByAllowanceOf ?? result.data.stats.totalImportDeMinimis)}
                />
                <StatCard
                  label={
                    allowanceOf
                      ? t('documents.statRemainingOf', { company: allowanceOf })
                      : t('documents.statRemaining')
                  }
                  value={
                    <>
                      {formatEuro(result.data.stats.remainingDeMinimis)}
                      {/* over the ceiling is said in words, not by the minus sign and the colour alone */}
                      {result.data.stats.remainingDeMinimis < 0 && (
                        <span className="stat-card__note"> {t('documents.perCodeExceeded')}</span>
                      )}
                    </>
                  }
                  tone={result.data.stats.remainingDeMinimis < 0 ? 'danger' : undefined}
                />
              </div>
              {allowanceOf && (
                <p className="card info-note">
                  {t('documents.perUndertakingNote', { company: allowanceOf })}
                </p>
              )}
              <Suspense
                fallback={
                  <div className="card chart chart--loading">
                    <Spinner />
                  </div>
                }
              >
                <DeMinimisChart points={result.data.deMinimisSeries} company={allowanceOf} />
              </Suspense>
              <HeadroomPanel
                key={`${query.taxCodes.join(',')}|${group ?? ''}`}
                taxCodes={query.taxCodes}
                group={group}
                onCompute={(choice) => setComputed({ key: panelKey, ...choice })}
              />
              {query.taxCodes.length > 1 && <CodeSummaries summaries={result.data.perCode} />}
              <Tabs
                label={t('documents.viewLabel')}
                tabs={[
                  { key: 'summary', label: t('documents.viewSummary') },
                  { key: 'details', label: t('documents.viewDetails') },
                ]}
                selected={view === 'summary' ? 0 : 1}
                onSelect={(index) => setView(index === 0 ? 'summary' : 'details')}
              >
                {view === 'summary' ? (
                  <DocumentsTable answer={result.data} showBeneficiary={query.taxCodes.length > 1} />
                ) : (
                  <AidDetailsView query={query} />
                )}
              </Tabs>
              <aside className="note card">
                <h2>{t('documents.noteTitle')}</h2>
                <p>{t('documents.note')}</p>
              </aside>
            </>
          ) : null}
        </>
      )}
    </div>
  );
}
