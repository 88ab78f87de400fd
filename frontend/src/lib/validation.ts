import type { ErrorCode } from '@rna/domain';
import { MIN_PASSWORD_LENGTH } from './domain-rules';

/**
 * A field problem: an i18n key for field messages, or a spec error code shown as errors.<code>;
 * `field` names the input it is about, which then points at the message (aria-describedby).
 */
export type FieldProblem = ({ key: string } | { code: ErrorCode }) & { field?: string };

/** The attributes tying a field to the form's problem message when the problem is about that field. */
export function problemAttributes(
  problem: { field?: string } | null | undefined,
  field: string,
  messageId: string,
): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': messageId } : {};
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => EMAIL.test(value.trim());

export function validateLogin(values: {
  email: string;
  password: string;
  disclaimer: boolean;
}): FieldProblem | null {
  if (!values.email.trim()) return { key: 'validation.emailRequired', field: 'email' };
  if (!values.password) return { key: 'validation.passwordRequired', field: 'password' };
  if (!values.disclaimer) return { code: 'C002', field: 'disclaimer' };
  return null;
}

export function validateForgot(email: string): FieldProblem | null {
  if (!email.trim()) return { key: 'validation.emailRequired', field: 'email' };
  if (!isEmail(email)) return { key: 'validation.emailFormat', field: 'email' };
  return null;
}

/** Reset and change password share the rules: required, at least 8 characters, confirm equal (C001). */
export function validateNewPassword(password: string, confirm: string): FieldProblem | null {
  if (!password || !confirm) {
    return { key: 'validation.passwordRequired', field: password ? 'confirm' : 'password' };
  }
  if (password.length < MIN_PASSWORD_LENGTH || confirm.length < MIN_PASSWORD_LENGTH) {
    return {
      key: 'validation.passwordMinLength',
      field: password.length < MIN_PASSWORD_LENGTH ? 'password' : 'confirm',
    };
  }
  if (password !== confirm) return { code: 'C001', field: 'confirm' };
  return null;
}
