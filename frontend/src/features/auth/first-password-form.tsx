import { useTranslation } from 'react-i18next';
import { ProblemText } from '../../components/problem-text';
import { PasswordPair, usePasswordPairForm } from '../../components/password-pair';
import type { FieldProblem } from '../../lib/validation';

interface FirstPasswordFormProps {
  onSubmit: (newPassword: string) => void;
  /** back to the sign-in form: the invitation code still opens this choice next time */
  onCancel: () => void;
  busy?: boolean;
  serverProblem?: FieldProblem | null;
}

/** A client signed in with its invitation code chooses the password it will use from now on. */
export function FirstPasswordForm({ onSubmit, onCancel, busy, serverProblem }: FirstPasswordFormProps) {
  const { t } = useTranslation();
  const { pair, setPair, problem, submit } = usePasswordPairForm(onSubmit);

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('firstPassword.title')}</h1>
      <p className="auth-form__subtitle">{t('firstPassword.intro')}</p>
      <PasswordPair
        ids={{ password: 'first-password', confirm: 'first-confirm' }}
        labels={{ password: t('firstPassword.newPassword'), confirm: t('firstPassword.confirmPassword') }}
        value={pair}
        onChange={setPair}
        problem={problem}
        problemId="first-problem"
      />
      <ProblemText id="first-problem" problem={problem ?? serverProblem ?? null} />
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? t('common.loading') : t('firstPassword.submit')}
      </button>
      <button type="button" className="link-button" onClick={onCancel}>
        {t('common.backToLogin')}
      </button>
    </form>
  );
}
