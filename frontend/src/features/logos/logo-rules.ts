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

export function pdfFormProblem(form: PdfForm): 'clients.colorFormat' | 'clients.pdfFieldsRequired' | null {
  if (!form.primaryColor.trim() || !form.footer1.trim() || !form.footer2.trim())
    return 'clients.pdfFieldsRequired';
  if (!isValidColor(form.primaryColor)) return 'clients.colorFormat';
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
