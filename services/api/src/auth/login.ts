/**
 * Sign-in: A001 for any bad email/password pair (without saying which part), throttled per IP and
 * per account; A002 for a client whose access has ended. A client signed in with its invitation code
 * gets a session that may only choose its own password (passwordChangeRequired; A004 elsewhere).
 */
import { DomainError, isAccessExpired, signInStep } from '@rna/domain';
import type { AuthTokensDto } from '@rna/domain';
import { credentials, normalizeEmail, type Credential } from '../accounts/credentials';
import { recordSignIn } from '../accounts/first-password';
import { decoyPasswordHash, verifyPassword } from '../accounts/passwords';
import { clientsReadModel } from '../accounts/read-models';
import { readYourWrites } from '../accounts/streams';
import type { ApiDeps } from '../http/deps';
import { addressKey, reserveAttempt } from './attempts';
import { authLimits } from './limits';
import { startSession } from './sessions';

/** 429 with Retry-After: too many attempts from this address (or on this account from it). */
export class TooManyAttemptsError extends DomainError {
  constructor(public readonly retryAfterSeconds: number) {
    super('A003');
  }
}

async function checkCredentials(deps: ApiDeps, email: string, password: string): Promise<Credential> {
  const credential = await credentials(deps).get(email);
  // Verify against a decoy when the account is unknown, so timing does not reveal which part was wrong.
  const ok = await verifyPassword(credential?.passwordHash ?? (await decoyPasswordHash()), password);
  if (!credential || !ok || credential.status !== 'ready') throw new DomainError('A001');
  return credential;
}

export async function login(
  deps: ApiDeps,
  rawEmail: string,
  password: string,
  ip: string,
): Promise<AuthTokensDto> {
  const email = normalizeEmail(rawEmail);
  const address = addressKey(ip);
  const limits = authLimits(deps);
  // Every attempt is counted before the password is checked (a burst of N guesses counts N) and
  // given back when it succeeds: only failures use up the allowances.
  const counted: Array<() => Promise<void>> = [];
  const giveBack = () => Promise.all(counted.map((release) => release()));
  const refuse = async (retryAfterSeconds: number): Promise<never> => {
    await giveBack();
    deps.logger.warn({ account: email, address }, 'sign-in refused: too many failed attempts');
    throw new TooManyAttemptsError(retryAfterSeconds);
  };
  const fromAddress = await reserveAttempt(deps, limits.loginPerAddress, address);
  if (!fromAddress.ok) return refuse(fromAddress.retryAfterSeconds);
  counted.push(fromAddress.release);
  const pair = await reserveAttempt(deps, limits.loginPerAccountAddress, `${email}|${address}`);
  if (!pair.ok) return refuse(pair.retryAfterSeconds);
  counted.push(pair.release);
  const onAccount = await reserveAttempt(deps, limits.loginPerAccount, email);
  if (onAccount.ok) counted.push(onAccount.release);
  // The account is under attack: only an address that has not failed on it may still try, so the
  // owner signs in from elsewhere while the attacker's address is refused.
  else if (pair.prior > 0) return refuse(onAccount.retryAfterSeconds);

  let credential: Credential;
  try {
    credential = await checkCredentials(deps, email, password);
  } catch (error) {
    deps.logger.warn({ account: email, address }, 'sign-in failed');
    throw error;
  }
  await giveBack();
  let step = signInStep({ activated: true });
  if (credential.role === 'CLIENT') {
    const client = await clientsReadModel(deps).get(credential.userId);
    if (!client) throw new DomainError('A001');
    if (isAccessExpired(client.endDate, deps.clock())) throw new DomainError('A002');
    step = signInStep(credential);
    // the invitation code records no access: the client has not chosen its password yet
    if (step === 'signed-in') {
      await recordSignIn(deps, credential.userId);
      await readYourWrites(deps);
    }
  }
  const tokens = await startSession(deps, {
    userId: credential.userId,
    email,
    role: credential.role,
    tokenVersion: credential.tokenVersion ?? 0,
  });
  return step === 'choose-password' ? { ...tokens, passwordChangeRequired: true } : tokens;
}
