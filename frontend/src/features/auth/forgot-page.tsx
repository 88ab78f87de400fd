import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorCodeOf } from '../../lib/errors';
import { useForgotPasswordMutation } from './auth-api';
import { FormField } from '../../components/form-field';
import { ProblemText } from '../../components/problem-text';
import { problemAttributes, validateForgot, type FieldProblem } from '../../lib/validation';

export default function ForgotPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [sent, setSent] = useState(false);
  const [forgot, { isLoading }] = useForgotPasswordMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateForgot(email);
    setProblem(found);
    if (found) return;
    const result = await forgot({ email: email.trim() });
    if (result.error) setProblem({ code: errorCodeOf(result.error) });
    else setSent(true);
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('forgot.title')}</h1>
      {sent ? (
        <p role="status">{t('forgot.sent')}</p>
      ) : (
        <>
          <p className="auth-form__subtitle">{t('forgot.subtitle')}</p>
          <FormField
            id="forgot-email"
            label={t('login.email')}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={setEmail}
            {...problemAttributes(problem, 'email', 'forgot-problem')}
          />
          <ProblemText id="forgot-problem" problem={problem} />
          <button type="submit" className="button button--primary button--block" disabled={isLoading}>
            {t('forgot.submit')}
          </button>
        </>
      )}
      <Link to="/">{t('common.backToLogin')}</Link>
    </form>
  );
}
