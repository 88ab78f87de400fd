/**
 * /verifica/:code — public, signed in or not: whoever holds a report (a granting body, an auditor)
 * checks that the portal issued it. The page says what the portal recorded of it, and nothing more.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { ProblemText } from '../../components/problem-text';
import { errorCodeOf } from '../../lib/errors';
import { formatDateTime } from '../../lib/domain-rules';
import { useVerifyReportQuery } from './verification-api';

function VerificationAnswer({ code }: { code: string }) {
  const { t } = useTranslation();
  const { data, error, isFetching } = useVerifyReportQuery(code);
  if (isFetching) return <p aria-busy="true">{t('verification.checking')}</p>;
  if (error) {
    return (
      <div className="verification verification--refused" role="alert">
        <h2>{t('verification.notIssued')}</h2>
        <ProblemText problem={{ code: errorCodeOf(error) }} />
      </div>
    );
  }
  if (!data) return null;
  return (
    <div className="verification verification--issued" role="status">
      <h2>{t('verification.issued')}</h2>
      <dl className="verification__facts">
        <dt>{t('verification.code')}</dt>
        <dd>{data.code}</dd>
        <dt>{t('verification.issuedAt')}</dt>
        <dd>{formatDateTime(data.issuedAt)}</dd>
        <dt>{t('verification.kind')}</dt>
        <dd>{t(`verification.kinds.${data.kind}`)}</dd>
        <dt>{t('verification.taxCodes')}</dt>
        <dd>{data.taxCodes.length > 0 ? data.taxCodes.join(', ') : t('verification.noTaxCodes')}</dd>
        <dt>{t('verification.organisation')}</dt>
        <dd>{data.organisation || t('verification.noOrganisation')}</dd>
      </dl>
      <p className="verification__note">{t('verification.note')}</p>
    </div>
  );
}

export default function VerificationPage() {
  const { t } = useTranslation();
  const { code } = useParams();
  const navigate = useNavigate();
  const [typed, setTyped] = useState(code ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = typed.trim();
    if (trimmed) navigate(`/verifica/${encodeURIComponent(trimmed)}`);
  };
  return (
    <section className="verification-page">
      <form className="auth-form" onSubmit={submit} noValidate>
        <h1>{t('verification.title')}</h1>
        <p className="auth-form__subtitle">{t('verification.subtitle')}</p>
        <FormField
          id="verification-code"
          label={t('verification.codeLabel')}
          autoComplete="off"
          required
          value={typed}
          onChange={setTyped}
        />
        <button type="submit" className="button button--primary button--block">
          {t('verification.submit')}
        </button>
      </form>
      {code && <VerificationAnswer code={code} />}
    </section>
  );
}
