import { useState, type FormEvent } from 'react';
import { MIN_PASSWORD_LENGTH } from '../lib/domain-rules';
import { problemAttributes, validateNewPassword, type FieldProblem } from '../lib/validation';
import { FormField } from './form-field';

export interface PasswordPairValue {
  password: string;
  confirm: string;
}

export const EMPTY_PASSWORD_PAIR: PasswordPairValue = { password: '', confirm: '' };

/** Both required, at least 8 characters, and equal (else C001): the rule reset and change password share. */
export const passwordPairProblem = (pair: PasswordPairValue): FieldProblem | null =>
  validateNewPassword(pair.password, pair.confirm);

/**
 * The state of a form whose only fields are a new password and its confirmation (reset, first
 * sign-in): `submit` checks the pair and hands the password on only when it passes.
 */
export function usePasswordPairForm(onValid: (password: string) => void) {
  const [pair, setPair] = useState<PasswordPairValue>(EMPTY_PASSWORD_PAIR);
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = passwordPairProblem(pair);
    setProblem(found);
    if (!found) onValid(pair.password);
  };
  return { pair, setPair, problem, submit };
}

interface PasswordPairProps {
  ids: PasswordPairValue;
  labels: PasswordPairValue;
  value: PasswordPairValue;
  onChange: (value: PasswordPairValue) => void;
  /** the form's problem and the id of its message, to tie the field it is about to it */
  problem?: FieldProblem | null;
  problemId?: string;
}

/** The new password and its confirmation. */
export function PasswordPair({ ids, labels, value, onChange, problem, problemId }: PasswordPairProps) {
  const field = (key: keyof PasswordPairValue) => (
    <FormField
      id={ids[key]}
      label={labels[key]}
      type="password"
      autoComplete="new-password"
      minLength={MIN_PASSWORD_LENGTH}
      required
      value={value[key]}
      onChange={(text) => onChange({ ...value, [key]: text })}
      {...(problemId ? problemAttributes(problem, key, problemId) : {})}
    />
  );
  return (
    <>
      {field('password')}
      {field('confirm')}
    </>
  );
}
