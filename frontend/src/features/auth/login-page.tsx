import { useState } from 'react';
import type { AuthTokensDto } from '@rna/domain';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { errorCodeOf } from '../../lib/errors';
import { requestRefresh, type RefreshOutcome } from '../../lib/session/refresh';
import { completeLogin } from '../../lib/session/session-actions';
import { selectSignedOutBecause } from '../../lib/session/user-slice';
import type { FieldProblem } from '../../lib/validation';
import { AdminContact } from '../../components/admin-contact';
import { useChooseFirstPasswordMutation, useLoginMutation } from './auth-api';
import { FirstPasswordForm } from './first-password-form';
import { LoginForm } from './login-form';

/** Signed in with the invitation code: kept in memory only, until the client chooses its password. */
interface FirstSignIn {
  tokens: AuthTokensDto;
  code: string;
  remember: boolean;
}

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const [login, { isLoading, error, reset: forgetLogin }] = useLoginMutation();
  const [choose, choosing] = useChooseFirstPasswordMutation();
  const [firstSignIn, setFirstSignIn] = useState<FirstSignIn | null>(null);
  const [choiceProblem, setChoiceProblem] = useState<FieldProblem | null>(null);
  const [finishing, setFinishing] = useState(false);
  // why the previous session ended (A002 after a reload), until the next attempt answers for itself
  const signedOutBecause = useAppSelector(selectSignedOutBecause);
  const code = error ? errorCodeOf(error) : signedOutBecause;

  if (firstSignIn) {
    return (
      <FirstPasswordForm
        busy={choosing.isLoading || finishing}
        serverProblem={choiceProblem}
        onCancel={() => {
          setFirstSignIn(null);
          setChoiceProblem(null);
          forgetLogin();
        }}
        onSubmit={async (newPassword) => {
          setChoiceProblem(null);
          const chosen = await choose({
            accessToken: firstSignIn.tokens.accessToken,
            code: firstSignIn.code,
            newPassword,
          });
          if (chosen.error) {
            setChoiceProblem({ code: errorCodeOf(chosen.error) });
            return;
          }
          // the session that chose it goes on: its refresh gives tokens that open every screen
          setFinishing(true);
          const refreshed = await requestRefresh(firstSignIn.tokens.refreshToken).catch(
            (): RefreshOutcome => ({ ok: false, code: null }),
          );
          setFinishing(false);
          if (!refreshed.ok) {
            // the password is chosen: signing in with it is what is left to do
            setFirstSignIn(null);
            forgetLogin();
            return;
          }
          completeLogin(dispatch, refreshed.tokens, firstSignIn.remember);
        }}
      />
    );
  }

  return (
    <>
      <LoginForm
        busy={isLoading}
        serverProblem={code ? { code } : null}
        onSubmit={async ({ email, password, remember }) => {
          const result = await login({ email, password });
          if (!result.data) return;
          if (result.data.passwordChangeRequired)
            setFirstSignIn({ tokens: result.data, code: password, remember });
          else completeLogin(dispatch, result.data, remember);
        }}
      />
      {/* an ended subscription is not the client's to fix: whom to ask */}
      {code === 'A002' && <AdminContact />}
    </>
  );
}
