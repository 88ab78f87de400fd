import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { LegalNoticeDialog } from '../../components/legal-notice-dialog';
import { ProblemText } from '../../components/problem-text';
import { problemAttributes, validateLogin, type FieldProblem } from '../../lib/validation';

const PROBLEM_ID = 'login-problem';

export interface LoginValues {
  email: string;
  password: string;
  remember: boolean;
}

interface LoginFormProps {
  onSubmit: (values: LoginValues) => void;
  busy?: boolean;
  /** a server problem, e.g. A001 */
  serverProblem?: FieldProblem | null;
}

export function LoginForm({ onSubmit, busy, serverProblem }: LoginFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [disclaimer, setDisclaimer] = useState(false);
  const [showDisclaimer, setShowDisclaimer] = useState(false);
  const [problem, setProblem] = useState<FieldProblem | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin({ email, password, disclaimer });
    setProblem(found);
    if (!found) onSubmit({ email: email.trim(), password, remember });
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('login.title')}</h1>
      <p className="auth-form__subtitle">{t('login.subtitle')}</p>
      <FormField
        id="login-email"
        label={t('login.email')}
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={setEmail}
        {...problemAttributes(problem, 'email', PROBLEM_ID)}
      />
      <FormField
        id="login-password"
        label={t('login.password')}
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={setPassword}
        {...problemAttributes(problem, 'password', PROBLEM_ID)}
      />
      <div className="auth-form__row">
        <label className="checkbox">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          {t('login.remember')}
        </label>
        <Link to="/forgot">{t('login.forgot')}</Link>
      </div>
      <div className="auth-form__disclaimer">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={disclaimer}
            onChange={(e) => setDisclaimer(e.target.checked)}
            {...problemAttributes(problem, 'disclaimer', PROBLEM_ID)}
          />
          {t('login.disclaimer')}
        </label>{' '}
        <button type="button" className="link-button" onClick={() => setShowDisclaimer(true)}>
          {t('login.disclaimerLink')}
        </button>
      </div>
      <ProblemText id={PROBLEM_ID} problem={problem ?? serverProblem ?? null} />
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? t('common.loading') : t('login.submit')}
      </button>
      {showDisclaimer && <LegalNoticeDialog onClose={() => setShowDisclaimer(false)} />}
    </form>
  );
}
