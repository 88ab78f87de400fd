/** SPEC §5: 6 hex digits with an optional leading #. */
export function isValidColor(value: string): boolean {
  return /^#?[0-9a-fA-F]{6}$/.test(value.trim());
}

export const ACCEPTED_LOGO_TYPES = ['image/png', 'image/jpeg'];
export const ACCEPTED_LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg'];

export function isAcceptedLogo(file: { name: string; type: string }): boolean {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (
    ACCEPTED_LOGO_EXTENSIONS.includes(extension) &&
    (file.type === '' || ACCEPTED_LOGO_TYPES.includes(file.type))
  );
}

/** Logos with a negative id are built in and cannot be deleted. */
export const isBuiltIn = (logo: { id: number }): boolean => logo.id < 0;

export interface PdfForm {
  primaryColor: string;
  footer1: string;
  footer2: string;
  subRenewUrl: string;
}

/**
 * The colour first, with its own message whether missing or malformed (a wrong colour must not be called
 * "required" because a footer is empty); then the two footers, which must not be empty (SPEC §5).
 */
export function pdfFormProblem(form: PdfForm): 'clients.colorFormat' | 'clients.pdfFieldsRequired' | null {
  if (!isValidColor(form.primaryColor)) return 'clients.colorFormat';
  if (!form.footer1.trim() || !form.footer2.trim()) return 'clients.pdfFieldsRequired';
  return null;
}

export function pdfFormChanged(a: PdfForm, b: PdfForm): boolean {
  return (
    a.primaryColor !== b.primaryColor ||
    a.footer1 !== b.footer1 ||
    a.footer2 !== b.footer2 ||
    a.subRenewUrl !== b.subRenewUrl
  );
}
