import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { errorCodeOf } from '../../lib/errors';
import { completeLogin } from '../../lib/session/session-actions';
import { selectSignedOutBecause } from '../../lib/session/user-slice';
import { useLoginMutation } from './auth-api';
import { LoginForm } from './login-form';

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const [login, { isLoading, error }] = useLoginMutation();
  // why the previous session ended (A002 after a reload), until the next attempt answers for itself
  const signedOutBecause = useAppSelector(selectSignedOutBecause);
  const code = error ? errorCodeOf(error) : signedOutBecause;
  return (
    <LoginForm
      busy={isLoading}
      serverProblem={code ? { code } : null}
      onSubmit={async ({ email, password, remember }) => {
        const result = await login({ email, password });
        if (result.data) completeLogin(dispatch, result.data, remember);
      }}
    />
  );
}
