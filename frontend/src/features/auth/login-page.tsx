import { useAppDispatch } from '../../lib/hooks';
import { errorCodeOf } from '../../lib/errors';
import { completeLogin } from '../../lib/session/session-actions';
import { useLoginMutation } from './auth-api';
import { LoginForm } from './login-form';

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const [login, { isLoading, error }] = useLoginMutation();
  return (
    <LoginForm
      busy={isLoading}
      serverProblem={error ? { code: errorCodeOf(error) } : null}
      onSubmit={async ({ email, password, remember }) => {
        const result = await login({ email, password });
        if (result.data) completeLogin(dispatch, result.data, remember);
      }}
    />
  );
}
