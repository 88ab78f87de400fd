import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ProblemText } from '../../components/problem-text';
import { PasswordPair, usePasswordPairForm } from '../../components/password-pair';
import type { FieldProblem } from '../../lib/validation';

interface ResetFormProps {
  onSubmit: (newPassword: string) => void;
  busy?: boolean;
  serverProblem?: FieldProblem | null;
  done?: boolean;
}

export function ResetForm({ onSubmit, busy, serverProblem, done }: ResetFormProps) {
  const { t } = useTranslation();
  const { pair, setPair, problem, submit } = usePasswordPairForm(onSubmit);

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('reset.title')}</h1>
      {done ? (
        <p role="status">{t('reset.done')}</p>
      ) : (
        <>
          <PasswordPair
            ids={{ password: 'reset-password', confirm: 'reset-confirm' }}
            labels={{ password: t('reset.newPassword'), confirm: t('reset.confirmPassword') }}
            value={pair}
            onChange={setPair}
            problem={problem}
            problemId="reset-problem"
          />
          <ProblemText id="reset-problem" problem={problem ?? serverProblem ?? null} />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {t('reset.submit')}
          </button>
        </>
      )}
      <Link to="/">{t('common.backToLogin')}</Link>
    </form>
  );
}
