import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DE_MINIMIS_REGIMES, type DeMinimisRegime, type ErrorCode, type HeadroomDto } from '@rna/domain';
import { DatePicker } from '../../components/date-picker';
import { Spinner } from '../../components/spinner';
import { formatDay, formatEuro, isoDayOf } from '../../lib/domain-rules';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError } from '../../lib/session/status-slice';
import { canDownloadPdf, useUser } from '../../lib/session/use-user';
import { useDownloadDeclarationMutation, useLazyGetHeadroomQuery } from './documents-api';

/** Planned dates before this day follow other rules (Reg. UE 1407/2013): refused with D001. */
const FIRST_PLANNED_DAY = '2024-01-01';
/** Release days listed before "show all". */
const SHOWN_RELEASES = 10;

const today = () => new Date(new Date().setHours(12, 0, 0, 0));
const cents = (amount: string) => Math.round(Number(amount) * 100);

interface HeadroomPanelProps {
  /** the searched codes */
  taxCodes: string[];
  /** the group they come from (group=<id> in the address): the headroom is asked for the group */
  group: string | null;
  /** told the day and regime of each computation asked for: the reports then carry that headroom */
  onCompute?: (choice: { date: string; regime: DeMinimisRegime }) => void;
}

/**
 * "Residuo alla data": how much de minimis aid of a regime the undertaking may still receive if granted
 * on a planned day. Each computation is charged like a search of the codes, so it runs only when asked.
 */
export function HeadroomPanel({ taxCodes, group, onCompute }: HeadroomPanelProps) {
  const { t } = useTranslation();
  const id = useId();
  const [date, setDate] = useState<Date | null>(today);
  const [regime, setRegime] = useState<DeMinimisRegime>('GENERAL');
  /** a request the panel refuses before sending it (no date; a date before 2024: D001) */
  const [problem, setProblem] = useState<{ code: ErrorCode } | { key: string } | null>(null);
  const [compute, result] = useLazyGetHeadroomQuery();
  const refusal = result.isError ? errorCodeOf(result.error) : null;

  const user = useUser();
  const dispatch = useAppDispatch();
  const [downloadDeclaration, declarationState] = useDownloadDeclarationMutation();

  /** The planned day chosen, or null when the panel refuses it (no date; before 2024: D001). */
  const plannedDay = (): string | null => {
    if (!date) {
      setProblem({ key: 'headroom.dateRequired' });
      return null;
    }
    const day = isoDayOf(date);
    if (day < FIRST_PLANNED_DAY) {
      setProblem({ code: 'D001' });
      return null;
    }
    setProblem(null);
    return day;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const day = plannedDay();
    if (!day) return;
    onCompute?.({ date: day, regime });
    void compute({ taxCodes, group, date: day, regime });
  };

  /** The self-declaration of the same undertaking, day and regime as the figures asked for here. */
  const declare = async () => {
    const day = plannedDay();
    if (!day) return;
    const outcome = await downloadDeclaration({ taxCodes, group, date: day, regime });
    if ('error' in outcome) dispatch(showError(errorCodeOf(outcome.error)));
  };

  const problemText = problem ? ('code' in problem ? t(`errors.${problem.code}`) : t(problem.key)) : null;

  return (
    <section className="card headroom" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('headroom.title')}</h2>
      <p className="muted">{t('headroom.intro')}</p>
      <form className="headroom__controls" onSubmit={submit} noValidate>
        <DatePicker
          label={t('headroom.date')}
          value={date}
          onChange={(next) => {
            setDate(next);
            setProblem(null);
          }}
          required
        />
        <div className="field">
          <label htmlFor={`${id}-regime`}>{t('headroom.regimeLabel')}</label>
          <select
            id={`${id}-regime`}
            value={regime}
            aria-describedby={`${id}-regime-hint`}
            onChange={(event) => {
              setRegime(event.target.value as DeMinimisRegime);
              setProblem(null);
            }}
          >
            {DE_MINIMIS_REGIMES.map((option) => (
              <option key={option} value={option}>
                {t(`headroom.regime.${option}`)}
              </option>
            ))}
          </select>
          <p id={`${id}-regime-hint`} className="field__hint">
            {t('headroom.regimeHint')}
          </p>
        </div>
        <div className="headroom__submit">
          <button type="submit" className="button button--primary" disabled={result.isFetching}>
            {t('headroom.compute')}
          </button>
          <p className="field__hint">{t('headroom.cost')}</p>
        </div>
        {user && canDownloadPdf(user) && (
          <div className="headroom__submit">
            <button
              type="button"
              className="button button--secondary"
              disabled={declarationState.isLoading}
              onClick={() => void declare()}
            >
              {declarationState.isLoading ? t('common.loading') : t('headroom.downloadDeclaration')}
            </button>
            <p className="field__hint">{t('headroom.declarationHint')}</p>
          </div>
        )}
      </form>
      {problemText && (
        <p className="field__error" role="alert">
          {problemText}
        </p>
      )}
      {result.isFetching ? (
        <div className="page-loading">
          <Spinner label={t('headroom.computing')} />
        </div>
      ) : refusal && !problem ? (
        <p className="error-panel card" role="alert">
          {t(`errors.${refusal}`)}
        </p>
      ) : result.currentData ? (
        <HeadroomResult headroom={result.currentData} />
      ) : null}
      <p className="headroom__readings muted">{t('headroom.readings')}</p>
    </section>
  );
}

function regimesLabel(regimes: readonly DeMinimisRegime[], t: (key: string) => string): string {
  return regimes.map((regime) => t(`headroom.regime.${regime}`)).join(' + ');
}

/** The figures of one computation: the headroom, the limits, when more is freed, whose aids count. */
function HeadroomResult({ headroom }: { headroom: HeadroomDto }) {
  const { t } = useTranslation();
  const [allReleases, setAllReleases] = useState(false);
  const binding = headroom.limits.findIndex((limit) => cents(limit.remaining) === cents(headroom.headroom));
  const releases = allReleases ? headroom.releases : headroom.releases.slice(0, SHOWN_RELEASES);
  const exhausted = cents(headroom.headroom) <= 0;

  return (
    <div className="headroom__result">
      <p className="headroom__subject">
        {headroom.group
          ? t('headroom.forGroup', { name: headroom.group.name, codes: headroom.taxCodes.join(', ') })
          : t('headroom.forCodes', { codes: headroom.taxCodes.join(', ') })}
      </p>
      <div className={`headroom__figure${exhausted ? ' headroom__figure--exhausted' : ''}`} role="status">
        <p className="headroom__label">
          {t('headroom.amountLabel', {
            date: formatDay(headroom.date),
            regime: t(`headroom.regime.${headroom.regime}`),
          })}
        </p>
        <p className="headroom__amount">{formatEuro(headroom.headroom)}</p>
        <p className="muted">
          {t('headroom.window', { start: formatDay(headroom.windowStart), end: formatDay(headroom.date) })}
        </p>
      </div>

      <div className="table-wrap">
        <table className="table headroom__limits">
          <caption>{t('headroom.limitsTitle')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('headroom.limitRegimes')}</th>
              <th scope="col" className="numeric">
                {t('headroom.limitCeiling')}
              </th>
              <th scope="col" className="numeric">
                {t('headroom.limitUsed')}
              </th>
              <th scope="col" className="numeric">
                {t('headroom.limitRemaining')}
              </th>
            </tr>
          </thead>
          <tbody>
            {headroom.limits.map((limit, index) => (
              <tr key={limit.regimes.join('+')}>
                <th scope="row" data-label={t('headroom.limitRegimes')}>
                  <span>
                    {regimesLabel(limit.regimes, t)}
                    {index === binding && (
                      <>
                        {' '}
                        <span className="badge badge--warning">{t('headroom.binding')}</span>
                      </>
                    )}
                  </span>
                </th>
                <td className="numeric" data-label={t('headroom.limitCeiling')}>
                  {formatEuro(limit.ceiling)}
                </td>
                <td className="numeric" data-label={t('headroom.limitUsed')}>
                  {formatEuro(limit.used)}
                </td>
                <td className="numeric" data-label={t('headroom.limitRemaining')}>
                  {formatEuro(limit.remaining)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3>{t('headroom.releasesTitle')}</h3>
      {headroom.releases.length === 0 ? (
        <p className="muted">{t('headroom.noReleases')}</p>
      ) : (
        <>
          <ol className="headroom__releases">
            {releases.map((release) => (
              <li key={release.date}>
                {t('headroom.release', { amount: formatEuro(release.amount), date: formatDay(release.date) })}
              </li>
            ))}
          </ol>
          {headroom.releases.length > SHOWN_RELEASES && (
            <button type="button" className="link-button" onClick={() => setAllReleases(!allReleases)}>
              {allReleases
                ? t('headroom.fewerReleases')
                : t('headroom.allReleases', { count: headroom.releases.length })}
            </button>
          )}
        </>
      )}

      {headroom.perCompany.length > 1 && <CompanyShares headroom={headroom} />}

      {headroom.unknownRegulationAids > 0 && (
        <p className="warning-note card">
          {t('headroom.unknownRegulation', { count: headroom.unknownRegulationAids })}
        </p>
      )}
      <p className="note card">{t('headroom.otherRegisters')}</p>
    </div>
  );
}

/** Each company's own de minimis counted, by regime, and its total. */
function CompanyShares({ headroom }: { headroom: HeadroomDto }) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="table headroom__companies">
        <caption>{t('headroom.perCompanyTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('columns.taxCode')}</th>
            <th scope="col">{t('columns.beneficiary')}</th>
            {DE_MINIMIS_REGIMES.map((regime) => (
              <th key={regime} scope="col" className="numeric">
                {t(`headroom.regime.${regime}`)}
              </th>
            ))}
            <th scope="col" className="numeric">
              {t('headroom.companyTotal')}
            </th>
          </tr>
        </thead>
        <tbody>
          {headroom.perCompany.map((company) => {
            const total = DE_MINIMIS_REGIMES.reduce(
              (sum, regime) => sum + cents(company.usedByRegime[regime]),
              0,
            );
            return (
              <tr key={company.taxCode}>
                <th scope="row" data-label={t('columns.taxCode')}>
                  {company.taxCode}
                </th>
                <td data-label={t('columns.beneficiary')}>
                  {company.name ?? <span className="muted">{t('headroom.noAids')}</span>}
                </td>
                {DE_MINIMIS_REGIMES.map((regime) => (
                  <td key={regime} className="numeric" data-label={t(`headroom.regime.${regime}`)}>
                    {formatEuro(company.usedByRegime[regime])}
                  </td>
                ))}
                <td className="numeric" data-label={t('headroom.companyTotal')}>
                  {formatEuro(total / 100)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
