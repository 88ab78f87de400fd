import type { ErrorCode } from '@rna/domain';
import { MIN_PASSWORD_LENGTH } from './domain-rules';

/** A field problem: an i18n key for field messages, or a spec error code shown as errors.<code>. */
export type FieldProblem = { key: string } | { code: ErrorCode };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => EMAIL.test(value.trim());

export function validateLogin(values: {
  email: string;
  password: string;
  disclaimer: boolean;
}): FieldProblem | null {
  if (!values.email.trim()) return { key: 'validation.emailRequired' };
  if (!values.password) return { key: 'validation.passwordRequired' };
  if (!values.disclaimer) return { code: 'C002' };
  return null;
}

export function validateForgot(email: string): FieldProblem | null {
  if (!email.trim()) return { key: 'validation.emailRequired' };
  if (!isEmail(email)) return { key: 'validation.emailFormat' };
  return null;
}

/** Reset and change password share the rules: required, at least 8 characters, confirm equal (C001). */
export function validateNewPassword(password: string, confirm: string): FieldProblem | null {
  if (!password || !confirm) return { key: 'validation.passwordRequired' };
  if (password.length < MIN_PASSWORD_LENGTH || confirm.length < MIN_PASSWORD_LENGTH) {
    return { key: 'validation.passwordMinLength' };
  }
  if (password !== confirm) return { code: 'C001' };
  return null;
}
