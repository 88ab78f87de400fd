import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { errorCodeOf } from '../../lib/errors';
import { AdminContact } from '../../components/admin-contact';
import { useResetPasswordMutation } from './auth-api';
import { ResetForm } from './reset-form';

/** A link that is used up or past its hour: the way on is a new link, or the administrator. */
function InvalidLink() {
  const { t } = useTranslation();
  return (
    <div className="auth-form">
      <h1>{t('reset.title')}</h1>
      <p className="field__error" role="alert">
        {t('reset.invalidLink')}
      </p>
      <Link to="/forgot" className="button button--primary button--block">
        {t('reset.newLink')}
      </Link>
      <AdminContact />
      <Link to="/">{t('common.backToLogin')}</Link>
    </div>
  );
}

export default function ResetPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  const [reset, { isLoading, error, isSuccess }] = useResetPasswordMutation();
  // without a code there is nothing to reset (SPEC §2)
  if (!code) return <Navigate to="/" replace />;
  const problem = error ? errorCodeOf(error) : null;
  if (problem === 'U003') return <InvalidLink />;
  return (
    <ResetForm
      busy={isLoading}
      done={isSuccess}
      serverProblem={problem ? { code: problem } : null}
      onSubmit={(newPassword) => void reset({ code, newPassword })}
    />
  );
}
